#!/usr/bin/python3
"""tests/session/sessions.py TEST OUTDIR: run-vm's sessions, end to end.

  shell-pty           run-vm --shell under a pseudo-terminal: the prompt
                      comes, a typed command's output comes back, the
                      environment is the documented one, wlseal-shot saves a
                      screenshot on the host, 'exit 7' powers off and run-vm
                      exits 7.
  run-shared-client   examples/hello-sealed compiled here with cc, as a user
                      would (README "Experiments"), shared with --share and
                      run with --run: run-vm exits 0 and the screenshot the
                      command asked for shows the window's colours.
  run-exit-status     --run 'exit 5' makes run-vm exit 5, and a status above
                      127 (which isa-debug-exit cannot carry) comes back
                      intact: 'exit 200' makes run-vm exit 200.

  apps                real applications in the VM on the patched kernel
                      (tests/session/apps.sh, with --host-root): mpv,
                      gtk4-demo and weston-subsurfaces from this host's
                      root, weston-simple-shm and foot from the image; each
                      mapped or refused exactly as tests/compat/expected says
                      for the host, each mapped window visible in its
                      screenshot, and text typed on the virtio keyboard
                      reaches foot's shell.

Prints what it saw; exit 0 when the test passes.
"""

import os
import pty
import select
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN_VM = os.path.join(TOP, "scripts", "run-vm")


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


class Pty:
    """run-vm under a pseudo-terminal; expect() reads until a text appears."""

    def __init__(self, argv, log):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execv(argv[0], argv)
        self.seen = b""
        self.log = open(log, "wb")

    def expect(self, text, timeout):
        end = time.monotonic() + timeout
        while text.encode() not in self.seen:
            left = end - time.monotonic()
            if left <= 0:
                tail = self.seen[-600:].decode(errors="replace")
                fail(f"no {text!r} within {timeout:.0f} s; the terminal's last output:\n{tail}")
            r, _, _ = select.select([self.fd], [], [], min(left, 1.0))
            if r:
                try:
                    data = os.read(self.fd, 4096)
                except OSError:
                    data = b""
                if not data:
                    fail(f"the terminal closed before {text!r}")
                self.seen += data
                self.log.write(data)
                self.log.flush()
        at = self.seen.index(text.encode()) + len(text)
        self.seen = self.seen[at:]

    def send(self, line):
        os.write(self.fd, (line + "\n").encode())

    def wait(self, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            r, _, _ = select.select([self.fd], [], [], 0.5)
            if r:
                try:
                    data = os.read(self.fd, 4096)
                    self.log.write(data)
                except OSError:
                    pass
        os.kill(self.pid, 9)
        fail(f"run-vm still running {timeout:.0f} s after 'exit'")


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def shell_pty(out):
    shots = os.path.join(out, "shots")
    argv = [RUN_VM, "--shell", "--size", "1024x768", "--timeout", "600",
            "--log", os.path.join(out, "serial.log"), "--screenshot-dir", shots]
    t = Pty(argv, os.path.join(out, "terminal.log"))
    t.expect("wlseal VM shell", 300)
    t.expect("wlseal:", 30)
    print("prompt came")
    # $((6 * 7)) is expanded by the guest's shell: the answer proves the
    # command ran there, not an echo of what was typed.
    t.send("echo marker-$((6 * 7)) display=$WAYLAND_DISPLAY log=$WLSEAL_LOG")
    t.expect("marker-42 display=wayland-0 log=/run/wlseal/compositor.log", 60)
    print("command output came back, environment as documented")
    t.send("wlseal-client --size=200x150 --frames=3 >/tmp/c.out 2>&1 & "
           "wlseal-wait-line /tmp/c.out WLSEAL-CLIENT-LAST 120 >/dev/null && "
           "wlseal-shot shell-shot; echo shot-status=$?")
    t.expect("shot-status=0", 180)
    shot = os.path.join(shots, "shell-shot.png")
    if not os.path.isfile(shot):
        fail(f"wlseal-shot said it was saved, but {shot} is missing")
    if png_size(shot) != (1024, 768):
        fail(f"{shot} is {png_size(shot)}, not the guest's 1024x768")
    print(f"wlseal-shot saved {shot} (1024x768)")
    t.send("grep -c 'client connected' $WLSEAL_LOG | sed 's/^/connected=/'")
    t.expect("connected=1", 30)
    print("the compositor log is where the environment says")
    t.send("exit 7")
    rc = t.wait(120)
    if rc != 7:
        fail(f"run-vm exited {rc} after 'exit 7' in the guest")
    print("'exit 7' powered the VM off; run-vm exited 7")


def build_hello(share):
    """examples/hello-sealed built the way examples/README.md says."""
    xml = subprocess.run(["pkg-config", "--variable=pkgdatadir", "wayland-protocols"],
                         capture_output=True, text=True, check=True).stdout.strip()
    xml += "/stable/xdg-shell/xdg-shell.xml"
    subprocess.run(["wayland-scanner", "client-header", xml,
                    os.path.join(share, "xdg-shell-client-protocol.h")], check=True)
    subprocess.run(["wayland-scanner", "private-code", xml,
                    os.path.join(share, "xdg-shell-protocol.c")], check=True)
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "wayland-client"],
                           capture_output=True, text=True, check=True).stdout.split()
    subprocess.run(["cc", "-std=c11", "-Wall", "-o", os.path.join(share, "hello-sealed"),
                    os.path.join(TOP, "examples", "hello-sealed.c"),
                    os.path.join(share, "xdg-shell-protocol.c"), "-I", share] + flags, check=True)


def run_shared_client(out):
    share = os.path.join(out, "share")
    shots = os.path.join(out, "shots")
    os.makedirs(share, exist_ok=True)
    build_hello(share)
    print(f"built {share}/hello-sealed on the host with cc")
    cmd = ("./hello-sealed --seconds 60 >hello.out 2>&1 & "
           "wlseal-wait-line hello.out 'window shown' 60 >/dev/null && wlseal-shot hello")
    p = subprocess.run([RUN_VM, "--share", share, "--run", cmd, "--quiet",
                        "--log", os.path.join(out, "serial.log"), "--screenshot-dir", shots],
                       capture_output=True, text=True, timeout=600)
    print(p.stderr.strip())
    if p.returncode != 0:
        fail(f"run-vm exited {p.returncode}")
    hello_out = open(os.path.join(share, "hello.out")).read()
    if "window shown" not in hello_out:
        fail(f"hello.out (written by the guest into the share) says: {hello_out!r}")
    print("the guest wrote hello.out into the shared directory: window shown")
    shot = os.path.join(shots, "hello.png")
    from PIL import Image
    im = Image.open(shot).convert("RGB")
    colours = im.getcolors(im.size[0] * im.size[1])
    blue = sum(n for n, c in colours if c == (0x20, 0x50, 0xc0))
    # The window is 320x240: a third of it white, two thirds blue.
    if blue < 320 * 150:
        fail(f"{shot} has {blue} pixels of hello-sealed's blue; expected about {320 * 160}")
    print(f"{shot} shows the window: {blue} blue pixels")


def run_exit_status(out):
    for status in (5, 200):
        p = subprocess.run([RUN_VM, "--run", f"exit {status}", "--quiet",
                            "--log", os.path.join(out, f"serial-{status}.log")],
                           capture_output=True, text=True, timeout=600)
        print(p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "(no output)")
        if p.returncode != status:
            fail(f"--run 'exit {status}': run-vm exited {p.returncode}")
        print(f"--run 'exit {status}': run-vm exited {status}")


def background():
    """The compositor's background colour (compositor/scene/scene.h)."""
    import re
    text = open(os.path.join(TOP, "compositor", "scene", "scene.h")).read()
    v = int(re.search(r"#define WLSEAL_BACKGROUND 0x([0-9a-fA-F]{8})u", text).group(1), 16)
    return ((v >> 16) & 255, (v >> 8) & 255, v & 255)


# The session's app names that the compat table calls otherwise.
COMPAT_NAMES = {"mpv": "mpv-wlshm"}


def compat_expectation(client):
    """'runs' or 'refused' for CLIENT from tests/compat/expected (the host's
    table, its refuse column: the VM's compositor has the default
    --unsealed=refuse; CLIENT-autoseal: its autoseal column): the VM must
    agree with it. The table's animates, static and frozen all mapped and
    stayed up: 'runs' here."""
    name, mode = (client[:-len("-autoseal")], "autoseal") if client.endswith("-autoseal") \
        else (client, "refuse")
    name = COMPAT_NAMES.get(name, name)
    for line in open(os.path.join(TOP, "tests", "compat", "expected")):
        f = line.split("#")[0].split()
        if len(f) >= 3 and f[0] == name and f[1] == mode:
            if f[2].startswith("refused"):
                return "refused"
            return "runs" if f[2] in ("animates", "static", "frozen") else f[2]
    fail(f"tests/compat/expected has no line for {name} {mode}")


def apps(out):
    import re
    import shutil
    from PIL import Image
    share = os.path.join(out, "share")
    shots = os.path.join(out, "shots")
    os.makedirs(share, exist_ok=True)
    shutil.copy(os.path.join(TOP, "tests", "session", "apps.sh"), share)
    serial = os.path.join(out, "serial.log")
    p = subprocess.run([RUN_VM, "--host-root", "--share", share, "--size", "1280x800",
                        "--compositor-args=--verbose", "--run", "./apps.sh", "--quiet",
                        "--timeout", "900", "--log", serial, "--screenshot-dir", shots],
                       capture_output=True, text=True, timeout=1000)
    print(p.stderr.strip())
    lines = open(serial, errors="replace").read().splitlines()
    for line in lines:
        if line.startswith(("APP ", "TYPED ", "# ")):
            print(line)
    seen = {}
    for line in lines:
        m = re.match(r"APP (\S+) pid=\d+ (mapped at (-?\d+),(-?\d+) size (\d+)x(\d+)|refused: .*|neither.*)",
                     line)
        if m:
            seen[m.group(1)] = m
    bg = background()
    for name in ("mpv", "gtk4-demo", "gtk4-demo-autoseal", "weston-subsurfaces",
                 "weston-subsurfaces-autoseal", "weston-simple-shm", "foot"):
        want = compat_expectation(name)
        m = seen.get(name)
        if m is None:
            fail(f"{name}: no APP line from the guest")
        got = "runs" if m.group(2).startswith("mapped") else (
            "refused" if m.group(2).startswith("refused") else "none")
        if got != want:
            fail(f"{name}: {m.group(2)}; the host's compat table says {want}")
        if got == "runs":
            x, y, w, h = (int(m.group(i)) for i in range(3, 7))
            im = Image.open(os.path.join(shots, f"app-{name}.png")).convert("RGB")
            box = im.crop((max(x, 0), max(y, 0), min(x + w, im.size[0]), min(y + h, im.size[1])))
            px = box.size[0] * box.size[1]
            drawn = px - sum(n for n, c in box.getcolors(px) if c == bg)
            if px == 0 or drawn < px // 2:
                fail(f"{name}: its window at {x},{y} {w}x{h} is mostly background in app-{name}.png "
                     f"({drawn} of {px} pixels drawn)")
            print(f"{name}: runs as the table says; {drawn} of {px} pixels of its window drawn")
        else:
            print(f"{name}: {m.group(2)} (the table says {want})")
    typed = [l for l in lines if l.startswith("TYPED ")]
    if not typed or typed[-1] != "TYPED typed-in-the-vm":
        fail(f"the text typed on the virtio keyboard did not reach foot's shell: {typed}")
    print("typed on the virtio keyboard, written by foot's shell: typed-in-the-vm")
    if p.returncode != 0:
        fail(f"run-vm exited {p.returncode}")


TESTS = {"apps": apps, "shell-pty": shell_pty, "run-shared-client": run_shared_client,
         "run-exit-status": run_exit_status}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in TESTS:
        print(__doc__)
        sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] == "--help" else 2)
    os.makedirs(sys.argv[2], exist_ok=True)
    TESTS[sys.argv[1]](sys.argv[2])
    print("PASS")
