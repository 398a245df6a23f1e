# scene-run.sh: puts a scene parsed by scene-parse.sh on screen. Shared by
# the VM (DRM backend, tests/vm/scenarios/scenes) and the host (headless
# backend, scripts/render-scenes), so both compose exactly the same thing.
# POSIX sh (busybox ash and dash).
#
# Needs: scenario.sh sourced first (frame_crc, stop_clients, CLIENT_PIDS);
# wlseal-compositor started with --print-frames (pid $COMP, stdout in
# $COMP_OUT, stderr in $COMP_ERR) on $WAYLAND_DISPLAY; wlseal-wait-line on
# $PATH; a scratch directory $SCENE_TMP. Optional: $SCENE_HOST_DIR, the
# host directory that stands for /host (the VM's run-vm --share mount),
# so a scene's own programs run on the host too.

_scene_nl='
'

# _scene_is_wlseal WORD...: the command runs wlseal-client (itself, or
# behind a wrapper such as wlseal-autoseal).
_scene_is_wlseal() {
	for _w in "$@"; do
		case ${_w##*/} in wlseal-client) return 0 ;; esac
	done
	return 1
}

# _scene_client LINE WORD...: a client that stays on screen. For
# wlseal-client, wait until its last frame is shown and set SEQ to the
# compositor frame that shows it; for other programs, wait until the
# compositor saw them connect (SEQ empty).
_scene_client() {
	_c_line=$1
	shift
	_c_out=$SCENE_TMP/client-$_c_line.out
	"$@" </dev/null >"$_c_out" 2>&1 &
	_c_pid=$!
	CLIENT_PIDS="$CLIENT_PIDS $_c_pid"
	SEQ=
	if _scene_is_wlseal "$@"; then
		_c_last=$(wlseal-wait-line --pid "$_c_pid" "$_c_out" WLSEAL-CLIENT-LAST 120) || {
			echo "# $SCENE_FILE:$_c_line: the client never showed its last frame:"
			sed 's/^/#   /' "$_c_out"
			return 1
		}
		SEQ=${_c_last##*seq=}
		SEQ=${SEQ%% *}
		return 0
	fi
	# The newline ends the match, so pid=12 does not match pid=123.
	wlseal-wait-line --pid "$_c_pid" "$COMP_ERR" "client connected pid=$_c_pid$_scene_nl" 60 \
		>/dev/null || {
		echo "# $SCENE_FILE:$_c_line: the client never connected:"
		sed 's/^/#   /' "$_c_out"
		return 1
	}
}

# _scene_refused LINE WORD...: a client the compositor must refuse: it
# must exit with a failure, and the compositor must have logged a refusal
# of that very process.
_scene_refused() {
	_r_line=$1
	shift
	_r_out=$SCENE_TMP/refused-$_r_line.out
	"$@" </dev/null >"$_r_out" 2>&1 &
	_r_pid=$!
	wait "$_r_pid"
	_r_rc=$?
	if [ "$_r_rc" = 0 ]; then
		echo "# $SCENE_FILE:$_r_line: the refused client exited 0: it was not refused"
		sed 's/^/#   /' "$_r_out"
		return 1
	fi
	# The compositor logs the refusal before it sends the error that
	# ends the client, so the line is there; the wait only covers the
	# pipe's buffering.
	_r_why=$(wlseal-wait-line "$COMP_ERR" "refused client pid=$_r_pid " 10) || {
		echo "# $SCENE_FILE:$_r_line: the client failed (exit $_r_rc), but the" \
			"compositor logged no refusal of pid $_r_pid:"
		sed 's/^/#   /' "$_r_out"
		return 1
	}
	echo "# $SCENE_FILE:$_r_line: refused as expected: ${_r_why#*: }"
}

# _scene_words WORD...: the words, /host/... mapped to $SCENE_HOST_DIR.
_scene_words() {
	_sw=
	for _w in "$@"; do
		case $_w in
		/host/*) [ -n "${SCENE_HOST_DIR:-}" ] && _w=$SCENE_HOST_DIR/${_w#/host/} ;;
		esac
		_sw="$_sw $_w"
	done
	echo "$_sw"
}

# scene_run: put the parsed scene on screen, its clients in file order
# (so later ones are stacked above earlier ones). Afterwards SCENE_SEQ is
# the compositor frame to capture and SCENE_CRC that frame's checksum.
scene_run() {
	SCENE_SEQ=
	SCENE_CRC=
	_r_lastseq=
	_r_steps=$SCENE_STEPS
	while [ -n "$_r_steps" ]; do
		_r_step=${_r_steps%%"$_scene_nl"*}
		_r_steps=${_r_steps#*"$_scene_nl"}
		# Split into words, as the parser checked: no globbing.
		set -f
		# shellcheck disable=SC2086
		set -- $_r_step
		_r_n=$1
		_r_kind=$2
		shift 2
		# shellcheck disable=SC2046
		set -- $(_scene_words "$@")
		set +f
		case $_r_kind in
		client)
			_scene_client "$_r_n" "$@" || return 1
			_r_lastseq=$SEQ ;;
		refused)
			_scene_refused "$_r_n" "$@" || return 1 ;;
		esac
	done
	case $SCENE_CAPTURE in
	last-client-frame)
		SCENE_SEQ=$_r_lastseq ;;
	"frame "*)
		SCENE_SEQ=${SCENE_CAPTURE#frame }
		wlseal-wait-line --pid "$COMP" "$COMP_OUT" "WLSEAL-FRAME $SCENE_SEQ " 120 >/dev/null || {
			echo "# $SCENE_FILE: the compositor never showed frame $SCENE_SEQ" \
				"(last: $(tail -n 1 "$COMP_OUT"))"
			return 1
		} ;;
	esac
	[ -n "$SCENE_SEQ" ] || { echo "# $SCENE_FILE: no frame to capture"; return 1; }
	# shellcheck disable=SC2034 # for the caller
	SCENE_CRC=$(frame_crc "$COMP_OUT" "$SCENE_SEQ") || {
		echo "# $SCENE_FILE: no WLSEAL-FRAME $SCENE_SEQ line"
		return 1
	}
}
