"""wlseal.vm: what scripts/run-vm's scenario boots and its sessions
(wlseal.session) share: logging, PNG checks, a QMP client and the QEMU
command line."""

import json
import os
import socket
import sys
import time
import zlib



def log(msg):
    print(f"[run-vm] {msg}", file=sys.stderr, flush=True)


def frame_crc(path):
    """The guest's frame checksum (see include/wlseal-frame-crc.h) of a PNG."""
    from PIL import Image
    im = Image.open(path).convert("RGB")
    r, g, b = im.split()
    zero = Image.new("L", im.size, 0)
    return zlib.crc32(Image.merge("RGBA", (b, g, r, zero)).tobytes()) & 0xffffffff


def png_size(path):
    """Width and height from a PNG's IHDR chunk."""
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG")
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


class QMP:
    """Minimal QMP client: greeting, capabilities, synchronous commands."""

    def __init__(self, path, deadline):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        while True:
            try:
                self.sock.connect(path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"QMP socket {path} did not come up")
                time.sleep(0.05)
        self.buf = b""
        self._read()  # greeting
        self.command("qmp_capabilities")

    def _read(self):
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("QMP connection closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def command(self, name, **args):
        msg = {"execute": name}
        if args:
            msg["arguments"] = args
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        while True:
            reply = self._read()
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise RuntimeError(f"QMP {name}: {reply['error'].get('desc')}")
            # asynchronous events are skipped




def cpu_args(accel):
    return ["-cpu", "host" if accel == "kvm" else "max"]


def qemu_command(args, accel, kernel, width, height, qmp_path, append):
    """The QEMU command line every boot uses: virtio-gpu (gpu0) at WxH, a
    virtio keyboard (kbd0), tablet (tablet0) and mouse (mouse0) read by
    the compositor through evdev, all bound to gpu0's console
    (display=gpu0) so that keys, clicks and motion on that display (the
    GTK window, QMP input-send-event with device=gpu0: abs events go to
    the tablet, rel events to the mouse) reach them rather than the PC's
    PS/2 devices, the console on the first serial port (stdio), QMP for
    screendumps and input, isa-debug-exit for the verdict. The mouse comes
    before the tablet: the guest readies them in that order and QEMU
    prefers the device readied last for its own window's pointer, which
    thus stays absolute, no grab (QMP query-mice: the tablet is current)."""
    return ["qemu-system-x86_64", "-accel", accel, "-nodefaults", "-no-reboot",
            "-m", args.memory, "-smp", args.smp] + cpu_args(accel) + [
            "-device", f"virtio-gpu-pci,id=gpu0,xres={width},yres={height}",
            "-device", "virtio-keyboard-pci,id=kbd0,display=gpu0",
            "-device", "virtio-mouse-pci,id=mouse0,display=gpu0",
            "-device", "virtio-tablet-pci,id=tablet0,display=gpu0",
            "-chardev", "stdio,id=ser0,signal=off", "-serial", "chardev:ser0",
            "-qmp", f"unix:{qmp_path},server=on,wait=off",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
            "-kernel", kernel, "-initrd", args.initrd,
            "-append", f"console=ttyS0 panic=-1 wlseal.mode={width}x{height} {append}".strip(),
            "-display", "gtk,zoom-to-fit=off" if args.interactive else "none"]


def take_screenshot(qmp, shotdir, parts):
    """Handle 'WLSEAL-SCREENSHOT TAG [WxH [CRC]]' (PARTS, split): a QMP
    screendump of gpu0 into SHOTDIR/TAG.png. Returns (verdict, error):
    verdict is 'match' (the shot's checksum is the guest's frame CRC),
    'nocrc' (no CRC given), 'mismatch' (another frame is shown) or 'size'
    (the shot is not WxH, e.g. QEMU's 640x480 placeholder; the file is
    renamed TAG.png.wrong-size.png); error says what was wrong, or None."""
    tag = parts[1] if len(parts) > 1 else "unnamed"
    want = parts[2] if len(parts) > 2 else None
    path = os.path.join(shotdir, f"{tag}.png")
    qmp.command("screendump", filename=path, device="gpu0", format="png")
    got = "%dx%d" % png_size(path)
    if want and got != want:
        note = " (QEMU's not-initialized placeholder)" if got == "640x480" else ""
        os.rename(path, path + ".wrong-size.png")
        return "size", f"screenshot {tag} is {got}{note}, the guest scans out {want}"
    log(f"screenshot {tag} -> {path}")
    if len(parts) <= 3:
        return "nocrc", None
    got_crc = "%08x" % frame_crc(path)
    if got_crc != parts[3].lower():
        return "mismatch", (f"screenshot {tag}: checksum {got_crc} differs from the "
                            f"guest's frame checksum {parts[3]}: QEMU shows another frame")
    log(f"screenshot {tag}: checksum {got_crc} matches the guest's frame")
    return "match", None
