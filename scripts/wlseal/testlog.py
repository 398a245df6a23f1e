"""wlseal.testlog: meson's test log (build/meson-logs/testlog.json) as
scripts/test reads it.

    python3 -m wlseal.testlog TESTLOG.json

prints one line per test, tab-separated: meson's result (OK, SKIP, FAIL,
...), the test's name, its duration in seconds and a reason: the test's
last output line starting with "SKIP", else its last output line. A
missing log prints nothing.
"""

import json
import sys


def results(path):
    """(result, name, seconds, reason) for every test in the log."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError:
        return
    for line in lines:
        t = json.loads(line)
        out = [l.strip() for l in (t.get("stdout") or "").splitlines() if l.strip()]
        why = [l for l in out if l.startswith("SKIP")] or out[-1:] or ["no reason given"]
        yield t["result"], t["name"], t["duration"], " ".join(why[-1].split())[:200]


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    for result, name, duration, why in results(argv[1]):
        print(f"{result}\t{name}\t{duration:.1f}\t{why}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
