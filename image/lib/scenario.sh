# /usr/share/wlseal/scenario.sh: helpers for VM scenarios (busybox sh).
# Source it: . /usr/share/wlseal/scenario.sh

_uptime() { cut -d' ' -f1 /proc/uptime; }

# step ID TITLE: a demo/story step begins (scripts/demo-report reads these).
step() {
	_step_id=$1
	shift
	echo "[$(_uptime)] WLSEAL-STEP $_step_id $*"
}

# note TEXT: one line of explanation for the current step.
note() { echo "WLSEAL-NOTE $*"; }

# outcome pass|fail TEXT: the current step's result.
outcome() {
	_verdict=$1
	shift
	echo "[$(_uptime)] WLSEAL-OUTCOME $_step_id $_verdict $*"
}

# screenshot TAG [WxH [CRC]]: ask the host for a screendump and wait until
# it has been taken (the host answers "WLSEAL-ACK TAG" on the console).
screenshot() {
	echo "WLSEAL-SCREENSHOT $*"
	while read -r _ack _tag _rest; do
		[ "$_ack" = WLSEAL-ACK ] && [ "$_tag" = "$1" ] && return 0
	done
	echo "# screenshot $1: console closed before the host answered"
	return 1
}

# TAP bookkeeping: tap_ok DESC / tap_fail DESC, then tap_done at the end.
_tap_n=0
_tap_failed=0
tap_ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }
tap_fail() { _tap_n=$((_tap_n + 1)); _tap_failed=$((_tap_failed + 1)); echo "not ok $_tap_n - $*"; }
tap_check() { # tap_check DESC CMD...: ok when CMD succeeds
	_desc=$1
	shift
	if "$@"; then tap_ok "$_desc"; else tap_fail "$_desc"; fi
}
tap_done() {
	echo "1..$_tap_n"
	[ "$_tap_failed" = 0 ]
}
