"""wlseal.session: run-vm's sessions, --shell and --run CMD.

The guest's /init runs wlseal-session (image/bin/) instead of scenarios:
wlseal on the DRM backend, a clients' environment, the --share directory
at /host, then a shell on the serial console or CMD. Two channels:

- the console (first serial port, QEMU's stdio): the user's terminal in
  --shell (raw bytes both ways, the guest's tty does the echo and line
  editing), the command's output in --run (copied to stdout and the log);
- the control channel (second serial port, /dev/ttyS1 in the guest, a unix
  socket here): lines from guest commands. 'WLSEAL-SCREENSHOT TAG WxH CRC'
  (wlseal-shot) is answered 'WLSEAL-ACK TAG match|mismatch|nocrc|size';
  'WLSEAL-TYPE enter|noenter TEXT' (wlseal-type) types TEXT on the virtio
  keyboard through QMP and is answered 'WLSEAL-ACK type done|failed WHY';
  'WLSEAL-EXIT N' carries the exact exit status of the shell or CMD.

Keeping the control lines off the console keeps the user's terminal free
of protocol and the protocol free of whatever the user types.
"""

import base64
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import termios
import time
import tty

from .vm import QMP, log, qemu_command, take_screenshot

ESCAPE = b"\x1d"  # Ctrl-]: leave a --shell whose guest no longer answers

# Seconds between two typed characters: 25 a second, a fast typist.
KEY_INTERVAL = 0.04

# QEMU qcodes for printable ASCII: (qcode, shift).
_KEYS = {" ": ("spc", False), "\n": ("ret", False), "\t": ("tab", False)}
for _c in "abcdefghijklmnopqrstuvwxyz":
    _KEYS[_c] = (_c, False)
    _KEYS[_c.upper()] = (_c, True)
for _c in "0123456789":
    _KEYS[_c] = (_c, False)
for _plain, _shifted, _code in (
        ("-", "_", "minus"), ("=", "+", "equal"), ("[", "{", "bracket_left"),
        ("]", "}", "bracket_right"), (";", ":", "semicolon"), ("'", '"', "apostrophe"),
        ("`", "~", "grave_accent"), ("\\", "|", "backslash"), (",", "<", "comma"),
        (".", ">", "dot"), ("/", "?", "slash")):
    _KEYS[_plain] = (_code, False)
    _KEYS[_shifted] = (_code, True)
for _shifted, _digit in zip("!@#$%^&*()", "1234567890"):
    _KEYS[_shifted] = (_digit, True)


def key_events(text):
    """QMP input-send-event batches (one per character: press, release)
    that type TEXT on a US keyboard. Raises ValueError on a character
    that has no key."""
    batches = []
    for ch in text:
        if ch not in _KEYS:
            raise ValueError(f"no key for {ch!r}")
        code, shift = _KEYS[ch]

        def ev(qcode, down):
            return {"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": qcode}}}
        batch = [ev("shift", True)] if shift else []
        batch += [ev(code, True), ev(code, False)]
        if shift:
            batch.append(ev("shift", False))
        batches.append(batch)
    return batches


class Session:
    """One --shell or --run boot. After run(): exit_status (the guest's
    WLSEAL-EXIT, or None), reason (why the VM failed, or None), early (it
    ended before the guest's first serial line: the accelerator's fault)."""

    def __init__(self, args, accel, kernel, width, height, logpath, shotdir):
        self.args, self.accel, self.kernel = args, accel, kernel
        self.width, self.height = width, height
        self.logpath, self.shotdir = logpath, shotdir
        self.mode = "shell" if args.shell else "run"
        self.exit_status = None
        self.reason = None
        self.early = False
        self.first_output = None
        self.qmp = None
        self.ctl = None
        self.ctl_buf = b""
        self.stderr = ""
        self.shots = []

    def append(self):
        parts = [f"wlseal.session={self.mode}"]
        if self.mode == "run":
            parts.append("wlseal.run=" + base64.b64encode(self.args.run.encode()).decode())
        if self.args.share:
            parts.append("wlseal.share=1")
        if self.args.host_root:
            parts.append("wlseal.host-root=1")
        if self.args.compositor != "wlseal":
            parts.append(f"wlseal.compositor={self.args.compositor}")
        if self.args.compositor_args:
            parts.append("wlseal.compositor-args=" + ",".join(self.args.compositor_args.split()))
        if self.args.append:
            parts.append(self.args.append)
        return " ".join(parts)

    def command(self, tmp):
        cmd = qemu_command(self.args, self.accel, self.kernel, self.width, self.height,
                           self.qmp_path, self.append())
        self.ctl_path = os.path.join(tmp, "ctl.sock")
        cmd += ["-chardev", f"socket,id=ctl,path={self.ctl_path},server=on,wait=off",
                "-serial", "chardev:ctl"]
        if self.args.share:
            cmd += ["-virtfs", f"local,path={os.path.abspath(self.args.share)},mount_tag=host,"
                    "security_model=none,multidevs=remap,id=host0"]
        if self.args.host_root:
            cmd += ["-virtfs", "local,path=/,mount_tag=hostroot,security_model=none,"
                    "multidevs=remap,readonly=on,id=hostroot0"]
        return cmd

    def connect_ctl(self, deadline):
        while True:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(self.ctl_path)
                return s
            except (FileNotFoundError, ConnectionRefusedError):
                s.close()
                if time.monotonic() > deadline or self.vm.poll() is not None:
                    return None
                time.sleep(0.05)

    def reply(self, text):
        self.ctl.sendall((text + "\n").encode())

    def qmp_client(self):
        if self.qmp is None:
            self.qmp = QMP(self.qmp_path, time.monotonic() + 10)
        return self.qmp

    def control_line(self, line):
        parts = line.split()
        if not parts:
            return
        if parts[0] == "WLSEAL-SCREENSHOT":
            tag = parts[1] if len(parts) > 1 else "unnamed"
            try:
                verdict, error = take_screenshot(self.qmp_client(), self.shotdir, parts)
            except (RuntimeError, OSError, ValueError) as e:
                verdict, error = "failed", str(e)
            if error:
                log(f"{'note' if verdict == 'mismatch' else 'error'}: {error}")
            if verdict in ("match", "nocrc"):
                self.shots.append(os.path.join(self.shotdir, f"{tag}.png"))
            self.reply(f"WLSEAL-ACK {tag} {verdict}")
        elif parts[0] == "WLSEAL-TYPE" and len(parts) >= 2:
            text = line.split(None, 2)[2] if len(parts) > 2 else ""
            if parts[1] == "enter":
                text += "\n"
            try:
                for batch in key_events(text):
                    # QMP's "device" names the console (gpu0), not the input
                    # device: QEMU routes the keys to the keyboard bound to it.
                    self.qmp_client().command("input-send-event", device="gpu0", events=batch)
                    # A keyboard's rate, not a burst: the guest kernel keeps
                    # 64 records per evdev reader and drops the oldest when a
                    # busy (TCG) compositor reads late; at this pace that
                    # takes a stall of over half a second.
                    time.sleep(KEY_INTERVAL)
                self.reply("WLSEAL-ACK type done")
            except (RuntimeError, OSError, ValueError) as e:
                log(f"error: wlseal-type: {e}")
                self.reply(f"WLSEAL-ACK type failed {e}")
        elif parts[0] == "WLSEAL-EXIT" and len(parts) == 2 and parts[1].isdigit():
            self.exit_status = int(parts[1])

    def run(self):
        args = self.args
        tmp = tempfile.mkdtemp(prefix="wlseal-vm-")
        self.qmp_path = os.path.join(tmp, "qmp.sock")
        cmd = self.command(tmp)
        what = "a shell" if self.mode == "shell" else f"'{args.run}'"
        log(f"booting {what} at {self.width}x{self.height} under {self.accel}"
            + (f", {args.share} at /host" if args.share else "") + f" (serial log: {self.logpath})")
        if self.mode == "shell":
            log("leave with 'exit' (powers the VM off); Ctrl-] kills a guest that no longer answers")
        self.start = time.monotonic()
        errf = tempfile.TemporaryFile()
        try:
            self.vm = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errf)
        except OSError as e:
            self.reason, self.early = f"cannot run qemu-system-x86_64: {e.strerror}", True
            return
        self.ctl = self.connect_ctl(time.monotonic() + 10)
        interactive = self.mode == "shell" and sys.stdin.isatty()
        saved = termios.tcgetattr(sys.stdin.fileno()) if interactive else None
        try:
            if interactive:
                tty.setraw(sys.stdin.fileno())
            self.loop(interactive)
        finally:
            if saved is not None:
                termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, saved)
        if self.vm.poll() is None:
            self.vm.send_signal(signal.SIGKILL)
        self.vm.wait()
        errf.seek(0)
        self.stderr = errf.read().decode(errors="replace").strip()
        errf.close()
        for s in (self.ctl, self.qmp.sock if self.qmp else None):
            if s is not None:
                s.close()
        for f in os.listdir(tmp):
            os.unlink(os.path.join(tmp, f))
        os.rmdir(tmp)
        if self.first_output is None and self.reason is None:
            self.early = True
            self.reason = self.stderr or "QEMU ended before the guest's first serial line"
        elif self.reason is None and self.exit_status is None:
            self.reason = ("the guest ended without reporting an exit status (QEMU status "
                           f"{self.vm.returncode})" + (f": {self.stderr}" if self.stderr else ""))

    def loop(self, interactive):
        args = self.args
        timeout = args.timeout if args.timeout is not None else (None if self.mode == "shell" else 300)
        out = sys.stdout.buffer
        stdin_open = self.mode == "shell"
        with open(self.logpath, "wb") as logf:
            while True:
                now = time.monotonic()
                if timeout is not None and now - self.start > timeout:
                    self.reason = f"timeout after {timeout:.0f} s"
                    return
                if self.first_output is None and now - self.start > args.first_output_timeout:
                    self.reason = f"the guest printed nothing in {args.first_output_timeout:.0f} s"
                    return
                fds = [self.vm.stdout] + ([self.ctl] if self.ctl else []) + ([sys.stdin] if stdin_open else [])
                r, _, _ = select.select(fds, [], [], 0.5)
                if not r and self.vm.poll() is not None:
                    return
                if self.vm.stdout in r:
                    data = os.read(self.vm.stdout.fileno(), 65536)
                    if not data:
                        return
                    if self.first_output is None:
                        self.first_output = time.monotonic() - self.start
                    logf.write(data)
                    logf.flush()
                    if not args.quiet or interactive:
                        out.write(data)
                        out.flush()
                if self.ctl in r:
                    data = self.ctl.recv(65536)
                    if not data:
                        self.ctl = None
                    else:
                        self.ctl_buf += data
                        while b"\n" in self.ctl_buf:
                            raw, self.ctl_buf = self.ctl_buf.split(b"\n", 1)
                            self.control_line(raw.decode(errors="replace").strip("\r\x00"))
                if sys.stdin in r:
                    data = os.read(sys.stdin.fileno(), 4096)
                    if not data:
                        stdin_open = False  # end of input: the guest's shell decides
                        continue
                    if interactive and ESCAPE in data:
                        self.reason = "left with Ctrl-]"
                        return
                    self.vm.stdin.write(data)
                    self.vm.stdin.flush()
