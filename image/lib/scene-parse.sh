# scene-parse.sh: reads one screenshot scene file,
# tests/screenshots/NAME.scene (the format is documented in
# tests/screenshots/README.md). POSIX sh: sourced
# by the VM's scenes scenario (busybox ash), by scripts/render-scenes and,
# through scene_fields, by scripts/test and scripts/update-references.
#
# scene_parse FILE sets
#   SCENE_FILE SCENE_NAME SCENE_DESCRIPTION
#   SCENE_STEPS        one line per client, in file order:
#                      "LINE client WORD..." or "LINE refused WORD..."
#   SCENE_CAPTURE      "last-client-frame" or "frame N"
#   SCENE_SIZES        "WxH WxH ..."
#   SCENE_TOL_CHANNEL SCENE_TOL_PIXELS   (per-channel tolerance, pixels)
# and returns 0, or prints every error as "FILE:LINE: reason" on stderr and
# returns 1. Nothing in a scene file is ever evaluated by the shell.

SCENE_KEYS="description client refused-client capture sizes tolerance"

_scene_err() { # _scene_err LINE REASON...
	_sp_line=$1
	shift
	echo "$SCENE_FILE:$_sp_line: $*" >&2
	_sp_errors=$((_sp_errors + 1))
}

_scene_trim() { # _scene_trim TEXT: without leading and trailing blanks
	_st=$1
	_st=${_st#"${_st%%[! 	]*}"}
	_st=${_st%"${_st##*[! 	]}"}
	echo "$_st"
}

_scene_uint() { # _scene_uint TEXT: a decimal number without sign or leading 0
	case $1 in
	0) return 0 ;;
	'' | 0* | *[!0-9]*) return 1 ;;
	esac
	# At most 9 digits, so that shell arithmetic can never overflow.
	[ ${#1} -le 9 ]
}

_scene_once() { # _scene_once LINE KEY VAR: KEY may appear once
	eval "_so_prev=\${$3:-}"
	if [ -n "$_so_prev" ]; then
		_scene_err "$1" "'$2:' given twice (first on line $_so_prev)"
		return 1
	fi
	eval "$3=\$1"
}

# A client line is split into words at blanks and run as they are: no
# quoting, variables, globs, redirections or pipes. Refuse the characters
# that would suggest otherwise rather than pass them on literally.
_scene_command() { # _scene_command LINE KEY VALUE
	case $3 in
	*[\'\"\\\$\`\;\|\&\<\>\(\)\*\?\[\]\{\}~]*)
		_scene_err "$1" "$2: shell syntax (quotes, \$, globs, ;|&<>) is not" \
			"interpreted: write the program and its arguments, separated by blanks"
		return 1 ;;
	esac
	_sc_wlseal=0
	_sc_frames=0
	_sc_exit=0
	set -f
	# shellcheck disable=SC2086
	set -- "$1" "$2" $3
	set +f
	_sc_line=$1
	_sc_key=$2
	shift 2
	for _sc_w in "$@"; do
		case ${_sc_w##*/} in wlseal-client) _sc_wlseal=1 ;; esac
		case $_sc_w in
		--frames=*) _scene_uint "${_sc_w#--frames=}" && [ "${_sc_w#--frames=}" != 0 ] &&
			_sc_frames=1 ;;
		--exit) _sc_exit=1 ;;
		esac
	done
	# The runner waits until a wlseal-client's last frame is on screen
	# (WLSEAL-CLIENT-LAST), which it only prints with --frames=N.
	if [ "$_sc_key" = client ] && [ $_sc_wlseal = 1 ] && [ $_sc_frames = 0 ]; then
		_scene_err "$_sc_line" "client: wlseal-client needs --frames=N (N > 0):" \
			"the scene waits until its last frame is on screen"
		return 1
	fi
	# A refused client is waited for; one wrongly accepted must end too.
	if [ "$_sc_key" = refused-client ] && [ $_sc_wlseal = 1 ] && [ $_sc_exit = 0 ]; then
		_scene_err "$_sc_line" "refused-client: give wlseal-client --exit, so that" \
			"it ends even when the compositor wrongly accepts it"
		return 1
	fi
	if [ "$_sc_key" = client ]; then
		_sp_last_client_wlseal=$_sc_wlseal
	fi
}

_scene_sizes() { # _scene_sizes LINE VALUE
	_ss_seen=" "
	for _ss in $2; do
		_ss_w=${_ss%%x*}
		_ss_h=${_ss#*x}
		if [ "$_ss_w" = "$_ss" ] || ! _scene_uint "$_ss_w" || ! _scene_uint "$_ss_h" ||
			[ "$_ss_w" = 0 ] || [ "$_ss_h" = 0 ]; then
			_scene_err "$1" "sizes: '$_ss' is not WIDTHxHEIGHT (e.g. 1024x768)"
			return 1
		fi
		case $_ss_seen in *" $_ss "*)
			_scene_err "$1" "sizes: $_ss listed twice"
			return 1 ;;
		esac
		_ss_seen="$_ss_seen$_ss "
	done
	SCENE_SIZES=$(_scene_trim "$_ss_seen")
}

_scene_tolerance() { # _scene_tolerance LINE VALUE
	set -f
	# shellcheck disable=SC2086
	set -- "$1" $2
	set +f
	if [ $# != 3 ] || ! _scene_uint "$2" || ! _scene_uint "$3" || [ "$2" -gt 255 ]; then
		_scene_err "$1" "tolerance: expected two numbers, the per-channel" \
			"difference allowed (0-255) and the differing pixels allowed, e.g. '0 0'"
		return 1
	fi
	SCENE_TOL_CHANNEL=$2
	SCENE_TOL_PIXELS=$3
}

_scene_capture() { # _scene_capture LINE VALUE
	case $2 in
	last-client-frame) SCENE_CAPTURE=$2 ;;
	"frame "*)
		_sca_n=$(_scene_trim "${2#frame }")
		if ! _scene_uint "$_sca_n" || [ "$_sca_n" = 0 ]; then
			_scene_err "$1" "capture: frame '$_sca_n' is not a frame number (1, 2, ...)"
			return 1
		fi
		SCENE_CAPTURE="frame $_sca_n" ;;
	*)
		_scene_err "$1" "capture: expected 'last-client-frame' or 'frame N', not '$2'"
		return 1 ;;
	esac
}

# _scene_line N TEXT: one line of the file.
_scene_line() {
	_sl_n=$1
	_sl=$(_scene_trim "$2")
	case $_sl in '' | '#'*) return 0 ;; esac
	case $_sl in
	*:*) ;;
	*)
		_scene_err "$_sl_n" "expected 'key: value' (keys: $SCENE_KEYS), not '$_sl'"
		return 1 ;;
	esac
	_sl_key=$(_scene_trim "${_sl%%:*}")
	_sl_val=$(_scene_trim "${_sl#*:}")
	case " $SCENE_KEYS " in
	*" $_sl_key "*) ;;
	*)
		_scene_err "$_sl_n" "unknown key '$_sl_key' (keys: $SCENE_KEYS)"
		return 1 ;;
	esac
	if [ -z "$_sl_val" ]; then
		_scene_err "$_sl_n" "'$_sl_key:' needs a value"
		return 1
	fi
	case $_sl_key in
	description)
		_scene_once "$_sl_n" description _sp_description_at || return 1
		SCENE_DESCRIPTION=$_sl_val ;;
	client | refused-client)
		_sl_kind=refused
		if [ "$_sl_key" = client ]; then
			_sp_clients=$((_sp_clients + 1))
			_sl_kind=client
		fi
		_scene_command "$_sl_n" "$_sl_key" "$_sl_val" || return 1
		SCENE_STEPS="$SCENE_STEPS$_sl_n $_sl_kind $_sl_val
" ;;
	capture)
		_scene_once "$_sl_n" capture _sp_capture_at || return 1
		_scene_capture "$_sl_n" "$_sl_val" ;;
	sizes)
		_scene_once "$_sl_n" sizes _sp_sizes_at || return 1
		_scene_sizes "$_sl_n" "$_sl_val" ;;
	tolerance)
		_scene_once "$_sl_n" tolerance _sp_tolerance_at || return 1
		_scene_tolerance "$_sl_n" "$_sl_val" ;;
	esac
}

scene_parse() { # scene_parse FILE
	SCENE_FILE=$1
	SCENE_NAME=${1##*/}
	SCENE_NAME=${SCENE_NAME%.scene}
	SCENE_DESCRIPTION=
	SCENE_STEPS=
	SCENE_CAPTURE=
	SCENE_SIZES=
	SCENE_TOL_CHANNEL=0
	SCENE_TOL_PIXELS=0
	_sp_errors=0
	_sp_clients=0
	_sp_last_client_wlseal=0
	_sp_description_at=
	_sp_capture_at=
	_sp_sizes_at=
	_sp_tolerance_at=
	if [ ! -f "$1" ] || [ ! -r "$1" ]; then
		echo "$1: no such scene file" >&2
		return 1
	fi
	case $1 in *.scene) ;; *)
		echo "$1: a scene file's name ends in .scene" >&2
		return 1 ;;
	esac
	case $SCENE_NAME in
	'' | -* | *[!a-z0-9-]*)
		_scene_err 1 "scene name '$SCENE_NAME' (the file name): use a-z, 0-9" \
			"and '-' only, not first" ;;
	esac
	_sp_n=0
	_sp_cr=$(printf '\r')
	while IFS= read -r _sp_text || [ -n "$_sp_text" ]; do
		_sp_n=$((_sp_n + 1))
		_scene_line "$_sp_n" "${_sp_text%"$_sp_cr"}"
	done <"$1"
	[ -n "$_sp_description_at" ] ||
		_scene_err "$_sp_n" "end of file: no 'description:' line"
	[ "$_sp_clients" -gt 0 ] ||
		_scene_err "$_sp_n" "end of file: no 'client:' line"
	[ -n "$_sp_sizes_at" ] ||
		_scene_err "$_sp_n" "end of file: no 'sizes:' line"
	if [ -z "$_sp_capture_at" ]; then
		_scene_err "$_sp_n" "end of file: no 'capture:' line"
	elif [ "$SCENE_CAPTURE" = last-client-frame ] && [ "$_sp_clients" -gt 0 ] &&
		[ "$_sp_last_client_wlseal" = 0 ]; then
		# Only wlseal-client says which frame shows its last picture.
		_scene_err "$_sp_capture_at" "capture: last-client-frame needs wlseal-client" \
			"as the last 'client:'; for other programs use 'capture: frame N'"
	fi
	[ "$_sp_errors" = 0 ]
}

# scene_has_size WxH: the parsed scene is captured at that size.
scene_has_size() {
	case " $SCENE_SIZES " in *" $1 "*) return 0 ;; esac
	return 1
}

# scene_fields FILE: parse it and print NAME, SIZES, the two tolerances and
# the description, tab-separated on one line (for the bash scripts).
scene_fields() {
	scene_parse "$1" || return 1
	printf '%s\t%s\t%s\t%s\t%s\n' "$SCENE_NAME" "$SCENE_SIZES" \
		"$SCENE_TOL_CHANNEL" "$SCENE_TOL_PIXELS" "$SCENE_DESCRIPTION"
}
