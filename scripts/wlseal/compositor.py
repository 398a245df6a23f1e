"""wlseal.compositor: the Python launcher of wlseal-compositor (and the
helpers to watch any server or client): one place for the host's Python
tests (tests/compat/run-compat, tests/globals/check-globals).

  Compositor(exe, rt, socket, ...)   a headless wlseal-compositor with
                                     --verbose --print-frames, its log and
                                     frame lines read as they grow
  Log(path)                          a file another process appends to
  alive(pid), wait_until(cond, t), stop(proc, group)

Every wait polls a real condition (a log line, a socket, a process) with
a bound; none sleeps in place of one.
"""
import os
import re
import signal
import subprocess
import time

OUTPUT_SIZE = "1024x768"
RE_READY = re.compile(r"ready WAYLAND_DISPLAY=")


class Log:
    """A file another process appends to, read line by line as it grows."""

    def __init__(self, path):
        self.path = path
        self.pos = 0
        self.partial = ""
        self.lines = []

    def poll(self):
        try:
            with open(self.path, errors="replace") as f:
                f.seek(self.pos)
                data = f.read()
                self.pos = f.tell()
        except FileNotFoundError:
            return []
        data = self.partial + data
        new = data.split("\n")
        self.partial = new.pop()
        self.lines += new
        return new


def alive(pid):
    """True while @pid runs (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def wait_until(cond, timeout, step=0.02):
    """Poll a real condition until it holds or @timeout seconds pass."""
    end = time.monotonic() + timeout
    while True:
        if cond():
            return True
        if time.monotonic() >= end:
            return False
        time.sleep(step)


def stop(proc, group, timeout=3.0):
    """SIGTERM to @proc (its process group when @group), SIGKILL after
    @timeout; only what this script started."""
    if proc.poll() is None:
        try:
            if group:
                os.killpg(proc.pid, signal.SIGTERM)
            else:
                proc.terminate()
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            if group:
                os.killpg(proc.pid, signal.SIGKILL)
            else:
                proc.kill()
            proc.wait()
    elif group:
        # The client is gone; children it left behind in its group go too.
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


class Compositor:
    """wlseal-compositor, headless, on XDG_RUNTIME_DIR=@rt and @socket;
    its stderr in LOGBASE.compositor.log, its frame lines in
    LOGBASE.frames. ready() waits for it to accept clients."""

    def __init__(self, exe, rt, socket, shot, logbase, extra=(),
                 size=OUTPUT_SIZE):
        self.err = Log(logbase + ".compositor.log")
        self.out = Log(logbase + ".frames")
        self.socket = socket
        args = [exe, "--backend=headless", f"--size={size}",
                f"--socket={socket}", "--verbose", "--print-frames"] + list(extra)
        if shot:
            args.append(f"--screenshot={shot}")
        env = dict(os.environ, XDG_RUNTIME_DIR=rt)
        with open(self.err.path, "w") as e, open(self.out.path, "w") as o:
            self.proc = subprocess.Popen(args, stdout=o, stderr=e, env=env,
                                         stdin=subprocess.DEVNULL)

    def poll(self):
        self.out.poll()
        return self.err.poll()

    def frames(self):
        self.out.poll()
        return sum(1 for l in self.out.lines if l.startswith("WLSEAL-FRAME "))

    def wait_line(self, regex, timeout):
        """The first new log line matching @regex within @timeout, or None."""
        found = []

        def cond():
            for line in self.poll():
                m = regex.search(line)
                if m and not found:
                    found.append(m)
            return bool(found) or self.proc.poll() is not None
        wait_until(cond, timeout)
        return found[0] if found else None

    def ready(self, timeout=10):
        """It accepts clients (its ready line) within @timeout seconds."""
        return self.wait_line(RE_READY, timeout) is not None

    def stop(self):
        stop(self.proc, False)
