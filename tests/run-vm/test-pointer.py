#!/usr/bin/python3
"""Host test of scripts/wlseal/pointer.py, run-vm's WLSEAL-POINTER lines:
every output pixel's abs value lands on that pixel under the compositor's
tablet mapping (compositor/input/input.c: v * (size - 1) / 32767, the
client seeing the whole pixel below), rel and button lines become the
QMP events QEMU expects, malformed lines are refused with a reason, and a
QMP error comes back as the answer's reason rather than an exception.
Usage: test-pointer.py SCRIPTS_DIR (TAP output)."""

import math
import sys

sys.path.insert(0, sys.argv[1])
from wlseal.pointer import ABS_MAX, abs_value, pointer_events, send_pointer  # noqa: E402

n = 0
failed = 0


def check(ok, desc):
    global n, failed
    n += 1
    failed += not ok
    print(f"{'ok' if ok else 'not ok'} {n} - {desc}")


for size in (640, 768, 1024, 1080, 1920, 2):
    bad = [p for p in range(size)
           if math.floor(abs_value(p, size) * (size - 1) / ABS_MAX) != p
           or not 0 <= abs_value(p, size) <= ABS_MAX]
    check(not bad, f"abs: all {size} pixels land on themselves" + (f" (not {bad[:5]})" if bad else ""))

check(pointer_events("WLSEAL-POINTER t abs 0 767".split(), 1024, 768) ==
      [{"type": "abs", "data": {"axis": "x", "value": 0}},
       {"type": "abs", "data": {"axis": "y", "value": ABS_MAX}}],
      "abs: the corners are 0 and 32767")
check(pointer_events("WLSEAL-POINTER t rel -3 12".split(), 1024, 768) ==
      [{"type": "rel", "data": {"axis": "x", "value": -3}},
       {"type": "rel", "data": {"axis": "y", "value": 12}}],
      "rel: the delta as given")
check(pointer_events("WLSEAL-POINTER t button right up".split(), 1024, 768) ==
      [{"type": "btn", "data": {"button": "right", "down": False}}],
      "button right up")

for line in ("WLSEAL-POINTER t", "WLSEAL-POINTER t abs 1024 0", "WLSEAL-POINTER t abs -1 0",
             "WLSEAL-POINTER t rel 1", "WLSEAL-POINTER t rel a b",
             "WLSEAL-POINTER t button left", "WLSEAL-POINTER t button wheel down",
             "WLSEAL-POINTER t warp 1 2"):
    try:
        pointer_events(line.split(), 1024, 768)
        check(False, f"refused: {line}")
    except ValueError as e:
        check("WLSEAL-POINTER" in str(e), f"refused: {line} ({e})")


class FakeQMP:
    def __init__(self, error=None):
        self.calls, self.error = [], error

    def command(self, name, **args):
        self.calls.append((name, args))
        if self.error:
            raise RuntimeError(self.error)


q = FakeQMP()
err = send_pointer(q, "WLSEAL-POINTER t rel 1 2".split(), 1024, 768)
check(err is None and len(q.calls) == 1 and q.calls[0][0] == "input-send-event" and
      q.calls[0][1]["device"] == "gpu0" and len(q.calls[0][1]["events"]) == 2,
      "send_pointer: one input-send-event on gpu0 with both axes")
q = FakeQMP("QMP input-send-event: Input handler not found for event type rel")
err = send_pointer(q, "WLSEAL-POINTER t rel 1 2".split(), 1024, 768)
check(err is not None and "handler not found" in err, f"send_pointer: QMP's error is the answer ({err})")
err = send_pointer(FakeQMP(), "WLSEAL-POINTER t rel x 2".split(), 1024, 768)
check(err is not None, "send_pointer: a malformed line is an answer, not an exception")

print(f"1..{n}")
sys.exit(1 if failed else 0)
