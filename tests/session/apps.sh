#!/bin/sh
# tests/session/apps.sh: real applications in the VM, run by
# tests/session/sessions.py apps through
#   run-vm --host-root --share DIR --compositor-args --verbose --run ./apps.sh
# Each application starts unmodified on wlseal (DRM backend, secure
# policy); the compositor's log says whether its window was mapped or its
# pool refused. For each, one line for the host:
#   APP NAME pid=P mapped at X,Y size WxH   (then a screenshot app-NAME)
#   APP NAME pid=P refused: REASON
#   APP NAME pid=P neither: ...             (a failure)
# and at the end the text typed on the virtio keyboard into foot, read
# back from the file foot's shell wrote. Exit 0 when every application did
# what EXPECT says.
. /usr/share/wlseal/scenario.sh
L=$WLSEAL_LOG
failed=0
PIDS=

# app NAME EXPECT CMD...: EXPECT is runs or refused.
app() {
	_name=$1 _expect=$2
	shift 2
	"$@" >"/tmp/$_name.out" 2>&1 &
	_pid=$!
	PIDS="$PIDS $_pid"
	_i=0
	_got=
	# Bounded wait (120 s under TCG) for either verdict line of this pid.
	while [ "$_i" -lt 1200 ]; do
		_line=$(grep -m 1 -E "(mapped pid=$_pid toplevel|refused client pid=$_pid )" "$L")
		[ -n "$_line" ] && break
		kill -0 "$_pid" 2>/dev/null || break
		_i=$((_i + 1))
		sleep 0.1
	done
	case $_line in
	*"mapped pid=$_pid"*)
		_geo=$(echo "$_line" | sed -n 's/.* at \(-*[0-9]*,-*[0-9]*\) size \([0-9]*x[0-9]*\).*/at \1 size \2/p')
		echo "APP $_name pid=$_pid mapped $_geo"
		_got=runs ;;
	*"refused client pid=$_pid"*)
		echo "APP $_name pid=$_pid refused: ${_line#*refused client pid=$_pid }"
		_got=refused ;;
	*)
		echo "APP $_name pid=$_pid neither mapped nor refused; its output:"
		sed 's/^/#   /' "/tmp/$_name.out" | tail -n 15
		_got=none ;;
	esac
	if [ "$_got" != "$_expect" ]; then
		echo "# $_name: expected $_expect, got $_got"
		failed=1
		return 1
	fi
	if [ "$_got" = runs ]; then
		# The new window is on top: its rectangle is visible in a frame
		# composed after it was mapped: the next frame (bounded wait),
		# then a shot without the checksum comparison, since animating
		# clients (mpv, simple-shm) never let the display settle.
		next_frame "$WLSEAL_FRAMES"
		wlseal-shot --no-check "app-$_name" >/dev/null || { echo "# $_name: no screenshot"; failed=1; }
	fi
}

app mpv runs wlseal-host-run mpv --no-config --vo=wlshm --ao=null --loop \
	--geometry=480x270+0+0 --no-osc av://lavfi:testsrc=size=480x270:rate=10
app gtk4-demo refused wlseal-host-run gtk4-demo
app gtk4-demo-autoseal runs wlseal-host-run --autoseal gtk4-demo
app weston-subsurfaces refused wlseal-host-run weston-subsurfaces
app weston-subsurfaces-autoseal runs wlseal-host-run --autoseal weston-subsurfaces
app weston-simple-shm runs weston-simple-shm
# foot (the image's own, with the image's busybox as its shell) last: the
# newest toplevel has the keyboard focus.
app foot runs foot -o font=monospace:size=10 sh

# Everything that ran is still running.
for p in $PIDS; do
	line=$(grep -m 1 "mapped pid=$p toplevel" "$L") || continue
	kill -0 "$p" 2>/dev/null || { echo "# pid $p ($line) is gone"; failed=1; }
done

# Typing into foot, the way a person at the QEMU window types: QEMU's
# virtio keyboard, evdev, the compositor, foot, its shell.
if wlseal-type --enter "echo typed-in-the-vm >/tmp/typed"; then
	_i=0
	while [ ! -s /tmp/typed ] && [ "$_i" -lt 300 ]; do
		_i=$((_i + 1))
		sleep 0.1
	done
	echo "TYPED $(cat /tmp/typed 2>/dev/null)"
	if [ "$(cat /tmp/typed 2>/dev/null)" != typed-in-the-vm ]; then
		failed=1
		# Where the keys went: the compositor's focus and key lines.
		echo "# $(grep -c ' key [0-9]* pressed' "$L") key presses in the compositor's log"
		grep -E 'keyboard focus|input' "$L" | sed 's/^/# compositor: /'
	fi
else
	echo "TYPED (wlseal-type failed)"
	failed=1
fi
wlseal-shot --no-check apps-all >/dev/null
grep -E 'refused client|mapped pid' "$L" | sed 's/^/# compositor: /'
for p in $PIDS; do kill "$p" 2>/dev/null; done
exit "$failed"
