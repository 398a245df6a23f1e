# shellcheck shell=bash
# scripts/lib/compositor.sh: start and stop a headless wlseal-compositor
# (or another Wayland server) for host tests, suites and benchmarks. Bash,
# sourced, not run; safe under `set -euo pipefail`. One server at a time.
#
#   wlseal_runtime_dir [NAME]   a private XDG_RUNTIME_DIR (mktemp -d, mode
#                               700), exported; WAYLAND_SOCKET unset
#   wlseal_compositor_start [OPTIONS] [--] [ARGS...]
#                               wlseal-compositor --backend=headless
#                               --socket=SOCKET ARGS..., ready once its log
#                               has "ready WAYLAND_DISPLAY=SOCKET"
#   wlseal_server_start [OPTIONS] -- PROGRAM [ARGS...]
#                               any other server (weston, sway): ready once
#                               its socket exists, or once --ready CMD holds
#   wlseal_compositor_wait SECONDS CMD...
#                               poll CMD; false on timeout or when the
#                               server is gone
#   wlseal_compositor_alive     the server runs (a zombie does not)
#   wlseal_compositor_stop [SIGNAL]
#                               SIGNAL (default TERM), SIGKILL after 10 s,
#                               and its wait status in wlseal_comp_status
#   wlseal_compositor_cleanup   stop it and remove the runtime directory
#
# OPTIONS of both start functions:
#   --exe PATH       the compositor (default $WLSEAL_COMPOSITOR, else
#                    wlseal-compositor from PATH; compositor only)
#   --socket NAME    the socket name (default wlseal-PID of this shell)
#   --log FILE       the server's stderr (default RUNTIME_DIR/compositor.log)
#   --out FILE       its stdout (default: the log too)
#   --timeout SEC    whole seconds it may take to be ready (default 10)
#   --fd-limit N     run it under `ulimit -n N`
#   --ready CMD      readiness condition (wlseal_server_start only; CMD is
#                    run without arguments and may set wlseal_comp_socket
#                    when the server names its socket itself)
#
# Variables set:
#   wlseal_rt            the runtime directory (also $XDG_RUNTIME_DIR);
#                        the start functions make one when there is none
#   wlseal_comp_pid      the server's pid ("" once stopped)
#   wlseal_comp_socket   its socket; WAYLAND_DISPLAY is exported to it
#                        once the server is ready (not before: the server
#                        itself runs without WAYLAND_DISPLAY)
#   wlseal_comp_log      its log file
#   wlseal_comp_status   its wait status once it ended (128+N: signal N)
#   wlseal_comp_error    why a start failed
# A start returns 0 when the server is ready, 1 when it exited first or
# was not ready in time (then it has been killed; wlseal_comp_status and
# wlseal_comp_error say what happened).

# shellcheck disable=SC2034 # set for the scripts that source this file
wlseal_rt=
wlseal_comp_pid=
wlseal_comp_socket=
wlseal_comp_log=
wlseal_comp_status=
wlseal_comp_error=

# wlseal_alive PID: PID runs and is not a zombie (bash reaps its children
# itself, so a child that is gone is either absent from /proc or a zombie).
wlseal_alive() {
	local stat
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	stat=${stat##*) }
	[ "${stat%% *}" != Z ]
}

wlseal_runtime_dir() {
	wlseal_rt=$(mktemp -d "${TMPDIR:-/tmp}/${1:-wlseal}.XXXXXX") || return 1
	chmod 700 "$wlseal_rt"
	export XDG_RUNTIME_DIR=$wlseal_rt
	unset WAYLAND_SOCKET
}

wlseal_runtime_dir_remove() {
	[ -z "$wlseal_rt" ] || rm -rf "$wlseal_rt"
	wlseal_rt=
}

wlseal_compositor_alive() {
	[ -n "$wlseal_comp_pid" ] && wlseal_alive "$wlseal_comp_pid"
}

# _wlseal_reap: the ended server's wait status into wlseal_comp_status.
_wlseal_reap() {
	local st=0
	wait "$wlseal_comp_pid" 2>/dev/null || st=$?
	wlseal_comp_status=$st
	wlseal_comp_pid=
	return 0
}

wlseal_compositor_stop() {
	local sig=${1:-TERM} i
	[ -n "$wlseal_comp_pid" ] || return 0
	if wlseal_compositor_alive; then
		kill -"$sig" "$wlseal_comp_pid" 2>/dev/null || true
		for ((i = 0; i < 200; i++)); do
			wlseal_compositor_alive || break
			sleep 0.05
		done
		wlseal_compositor_alive && { kill -KILL "$wlseal_comp_pid" 2>/dev/null || true; }
	fi
	_wlseal_reap
}

wlseal_compositor_cleanup() {
	wlseal_compositor_stop KILL >/dev/null 2>&1 || true
	wlseal_runtime_dir_remove
}

wlseal_compositor_wait() {
	local limit=$1 i
	shift
	for ((i = 0; i < limit * 20; i++)); do
		"$@" && return 0
		wlseal_compositor_alive || return 1
		sleep 0.05
	done
	return 1
}

# Readiness conditions.
_wlseal_socket_exists() { [ -S "$wlseal_rt/$wlseal_comp_socket" ]; }
_wlseal_ready_line() { grep -q "ready WAYLAND_DISPLAY=$wlseal_comp_socket\$" "$wlseal_comp_log" 2>/dev/null; }

# _wlseal_exec FD_LIMIT PROGRAM ARGS...: in the background subshell, the
# server without a display of its own to connect to, under FD_LIMIT.
_wlseal_exec() {
	unset WAYLAND_DISPLAY WAYLAND_SOCKET
	[ -z "$1" ] || ulimit -n "$1" || exit 1
	shift
	exec "$@"
}

# _wlseal_start COMPOSITOR READY_DEFAULT ARGS...: the option parsing and
# the start both functions share (COMPOSITOR=1: the command is
# wlseal-compositor's, from --exe, with the headless backend and --socket).
_wlseal_start() {
	local compositor=$1 ready=$2 exe=${WLSEAL_COMPOSITOR:-wlseal-compositor}
	local out='' timeout=10 fd_limit='' i
	shift 2
	wlseal_comp_socket=wlseal-$$
	wlseal_comp_log=
	wlseal_comp_status=
	wlseal_comp_error=
	while [ $# -gt 0 ]; do
		case $1 in
		--exe) exe=$2; shift ;;
		--socket) wlseal_comp_socket=$2; shift ;;
		--log) wlseal_comp_log=$2; shift ;;
		--out) out=$2; shift ;;
		--timeout) timeout=$2; shift ;;
		--fd-limit) fd_limit=$2; shift ;;
		--ready) ready=$2; shift ;;
		--) shift; break ;;
		*) break ;;
		esac
		shift
	done
	if [ -n "$wlseal_comp_pid" ] && wlseal_compositor_alive; then
		wlseal_comp_error="a server (pid $wlseal_comp_pid) is still running"
		return 1
	fi
	[ -n "$wlseal_rt" ] || wlseal_runtime_dir wlseal || return 1
	export XDG_RUNTIME_DIR=$wlseal_rt
	: "${wlseal_comp_log:=$wlseal_rt/compositor.log}"
	: "${out:=$wlseal_comp_log}"
	if [ "$compositor" = 1 ]; then
		set -- "$exe" --backend=headless --socket="$wlseal_comp_socket" "$@"
	fi
	: >"$wlseal_comp_log"
	if [ "$out" = "$wlseal_comp_log" ]; then
		_wlseal_exec "$fd_limit" "$@" >>"$wlseal_comp_log" 2>&1 &
	else
		_wlseal_exec "$fd_limit" "$@" >"$out" 2>>"$wlseal_comp_log" &
	fi
	wlseal_comp_pid=$!
	# Poll the real condition; a server that ends first fails at once.
	for ((i = 0; i < timeout * 20; i++)); do
		if "$ready"; then
			export WAYLAND_DISPLAY=$wlseal_comp_socket
			return 0
		fi
		if ! wlseal_compositor_alive; then
			_wlseal_reap
			wlseal_comp_error="$(basename "$1") exited (wait status $wlseal_comp_status) before it was ready"
			return 1
		fi
		sleep 0.05
	done
	wlseal_compositor_stop KILL || true
	wlseal_comp_error="$(basename "$1") not ready after $timeout s"
	return 1
}

wlseal_compositor_start() { _wlseal_start 1 _wlseal_ready_line "$@"; }
wlseal_server_start() { _wlseal_start 0 _wlseal_socket_exists "$@"; }
