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

# pointer TAG abs X Y | rel DX DY | button left|middle|right down|up: ask
# the host to move the VM's pointer (abs: the virtio tablet, to output
# pixel X,Y; rel: the virtio mouse) or press a button, and wait until QEMU
# has the events ("WLSEAL-ACK TAG"; "WLSEAL-ACK TAG failed WHY": 1). The
# guest may not have read them yet: wait for what they cause.
pointer() {
	echo "WLSEAL-POINTER $*"
	while read -r _ack _tag _rest; do
		[ "$_ack" = WLSEAL-ACK ] && [ "$_tag" = "$1" ] || continue
		[ -z "$_rest" ] && return 0
		echo "# pointer $1: $_rest"
		return 1
	done
	echo "# pointer $1: console closed before the host answered"
	return 1
}

# TAP bookkeeping: tap_ok DESC / tap_fail DESC, then tap_done at the end.
CLIENT_PIDS=
COMP=
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

# --- compositor scenarios ----------------------------------------------------

# display_mode: the mode in use, e.g. 1024x768: wlseal.mode= from the kernel
# command line (run-vm --size), else the connector's preferred mode.
display_mode() {
	if [ -n "${WLSEAL_MODE:-}" ]; then
		echo "$WLSEAL_MODE"
	else
		cat /sys/class/drm/card0-*/modes 2>/dev/null | head -n 1
	fi
}

# start_compositor [--no-print-frames] OUT ERR ARGS...: start
# wlseal-compositor on $WAYLAND_DISPLAY with --print-frames (frames to
# OUT, log to ERR) and wait until it accepts clients. Sets COMP to its
# pid. --no-print-frames: no checksum of every frame (it reads the whole
# output, which a benchmark must not count as a frame's cost).
start_compositor() {
	_pf=--print-frames
	if [ "$1" = --no-print-frames ]; then
		_pf=
		shift
	fi
	_out=$1
	_err=$2
	shift 2
	: >"$_out"
	# On DRM, --size picks the connector mode of that size.
	wlseal-compositor --socket="$WAYLAND_DISPLAY" $_pf \
		${WLSEAL_MODE:+--size="$WLSEAL_MODE"} "$@" >"$_out" 2>"$_err" &
	COMP=$!
	wlseal-wait-line --pid "$COMP" "$_err" "ready WAYLAND_DISPLAY" 30 >/dev/null || {
		echo "# compositor did not start:"
		sed 's/^/#   /' "$_err"
		return 1
	}
}

# start_weston LOG ARGS...: start weston 10 (the Debian package) on
# $WAYLAND_DISPLAY with the DRM backend and the pixman renderer, as root
# with its direct launcher on tty2; LOG is its log (--log), its own output
# goes to LOG.out. No udevd runs here, so libinput finds no input devices:
# --continue-without-input. Ready when its socket exists (weston prints no
# single ready line): bounded at 60 s, over at once if weston exits. Sets
# COMP to its pid. WESTON_MODE=WxH: that mode on the output (a config of
# its own beside LOG).
start_weston() {
	_log=$1
	shift
	_ini=/usr/share/wlseal/weston.ini
	if [ -n "${WESTON_MODE:-}" ]; then
		sed "s/^\[core\]/[output]\nname=Virtual-1\nmode=$WESTON_MODE\n\n[core]/" \
			"$_ini" >"$_log.ini"
		_ini=$_log.ini
	fi
	weston --config="$_ini" --backend=drm-backend.so --use-pixman \
		--continue-without-input \
		--socket="$WAYLAND_DISPLAY" --tty=2 --idle-time=0 --log="$_log" "$@" \
		>"$_log.out" 2>&1 &
	COMP=$!
	_i=0
	while [ ! -S "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY" ]; do
		if ! kill -0 "$COMP" 2>/dev/null || [ "$_i" -ge 600 ]; then
			echo "# weston did not start:"
			sed 's/^/#   /' "$_log.out" "$_log"
			return 1
		fi
		_i=$((_i + 1))
		sleep 0.1
	done
}

# still_client OUTFILE ARGS...: start wlseal-client (ARGS should include
# --frames=N), wait until its last frame is on screen. Sets SEQ to the
# compositor frame that shows it; adds the pid to CLIENT_PIDS.
still_client() {
	_cout=$1
	shift
	wlseal-client "$@" >"$_cout" 2>&1 &
	CLIENT_PIDS="$CLIENT_PIDS $!"
	_line=$(wlseal-wait-line --pid $! "$_cout" WLSEAL-CLIENT-LAST 120) || {
		echo "# client never showed its last frame:"
		sed 's/^/#   /' "$_cout"
		return 1
	}
	SEQ=${_line##*seq=}
	SEQ=${SEQ%% *}
}

# frame_crc COMP_OUT SEQ: the checksum the compositor printed for frame SEQ
# (waits for the line: a client may see the frame before it is written).
frame_crc() {
	_f=$(wlseal-wait-line "$1" "WLSEAL-FRAME $2 " 30) || return 1
	echo "${_f##* }"
}

# next_frame COMP_OUT: wait (bounded, 30 s) until the compositor has
# composed one more frame than it had when called.
next_frame() {
	_nf=$(grep -c '^WLSEAL-FRAME ' "$1")
	_i=0
	while [ "$(grep -c '^WLSEAL-FRAME ' "$1")" -le "$_nf" ]; do
		_i=$((_i + 1))
		[ "$_i" -le 300 ] || return 1
		sleep 0.1
	done
}

# frame_shot TAG COMP_OUT SEQ: a host screenshot of compositor frame SEQ,
# checked by the host against the frame's checksum.
frame_shot() {
	_crc=$(frame_crc "$2" "$3") || { echo "# no WLSEAL-FRAME $3 line"; return 1; }
	screenshot "$1" "$(display_mode)" "$_crc"
}

# Direct scanout's traces (compositor --verbose, client --verbose):
# zero_copy_frames CLIENT_OUT: frames presented with the zero_copy kind (0x8).
zero_copy_frames() {
	awk '/^WLSEAL-CLIENT-PRESENTED / { for (i = 2; i <= NF; i++) if ($i ~ /^kind=/) {
		k = substr($i, 6); v = 0
		for (j = 3; j <= length(k); j++) v = v * 16 + index("0123456789abcdef", substr(k, j, 1)) - 1
		if (int(v / 8) % 2) n++ } } END { print n + 0 }' "$1"
}

# copied_frames COMP_ERR ZC: frame lines with zero_copy=ZC, and how many
# of them copied bytes: "LINES COPYING".
copied_frames() {
	awk -v zc="zero_copy=$2" '/ frame seq=/ { for (i = 1; i <= NF; i++) {
		if ($i == zc) z = 1; if ($i ~ /^copied=/) c = substr($i, 8) }
		if (z) { n++; if (c + 0 > 0) k++ } z = 0 } END { print n + 0, k + 0 }' "$1"
}

# frame_cost COMP_ERR SKIP: from a --verbose compositor's frame lines
# after the first SKIP, "CPU_MS_PER_FRAME COPIED_BYTES_PER_FRAME FRAMES".
frame_cost() {
	awk -v f0="$2" '/ frame seq=/ { n++; if (n <= f0) next
		for (i = 1; i <= NF; i++) { split($i, a, "=")
			if (a[1] == "cpu_us") c += a[2]; if (a[1] == "copied") b += a[2] }
		f++ }
		END { if (f) printf "%.3f %.0f %d\n", c / 1000 / f, b / f, f; else print "0 0 0" }' "$1"
}

# stop_clients: end every client started with still_client.
stop_clients() {
	for _p in $CLIENT_PIDS; do kill "$_p" 2>/dev/null; done
	for _p in $CLIENT_PIDS; do wait "$_p" 2>/dev/null; done
	CLIENT_PIDS=
}

# stop_compositor: end the compositor started with start_compositor.
stop_compositor() {
	kill "$COMP" 2>/dev/null
	wait "$COMP" 2>/dev/null
}
