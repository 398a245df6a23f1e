# scripts/lib.sh: shared helpers for the wlseal scripts (sourced, not run).
# More specific libraries are in scripts/lib/ (compositor.sh: a headless
# compositor for tests, suites and benchmarks).

WLSEAL_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WLSEAL_CACHE=${WLSEAL_CACHE:-$HOME/.cache/wlseal}
export WLSEAL_TOP WLSEAL_CACHE

# log TAG MESSAGE...: progress on stderr, so stdout stays for results.
log() {
	local tag=$1
	shift
	printf '[%s] %s\n' "$tag" "$*" >&2
}

# wlseal_python MODULE ARGS...: run a module of the Python package
# scripts/wlseal/ (scripts/ on PYTHONPATH for this command only).
wlseal_python() {
	PYTHONPATH="$WLSEAL_TOP/scripts${PYTHONPATH:+:$PYTHONPATH}" /usr/bin/python3 -m "$@"
}

die() {
	local tag=$1
	shift
	printf '[%s] error: %s\n' "$tag" "$*" >&2
	exit 1
}

# filtered_progress TAG LOGFILE: reads a build's output on stdin, keeps all
# of it in LOGFILE, and shows one progress line every 250 compiled files.
filtered_progress() {
	local tag=$1 logfile=$2
	awk -v tag="$tag" -v logfile="$logfile" '
		{ print > logfile; fflush(logfile) }
		/^  (CC|AS|LD|AR|HOSTCC)/ {
			n++
			if (n % 250 == 0) {
				printf "[%s] %d objects built (%s)\n", tag, n, $2 > "/dev/stderr"
				fflush("/dev/stderr")
			}
		}
		/error:|Error [0-9]/ { print "[" tag "] " $0 > "/dev/stderr" }
		END { printf "[%s] %d objects built\n", tag, n > "/dev/stderr" }'
}

# scene_info FILE: the fields of a screenshot scene file (tests/screenshots/
# NAME.scene) as image/lib/scene-parse.sh reads them, tab-separated: NAME,
# SIZES, per-channel tolerance, differing pixels allowed, description.
# Fails with "FILE:LINE: reason" lines on stderr.
scene_info() {
	# shellcheck disable=SC2016
	sh -c '. "$1/image/lib/scene-parse.sh" && scene_fields "$2"' sh "$WLSEAL_TOP" "$1"
}
