# scenes.sh: the screenshot scenes, shared by the VM (DRM backend, image/
# scenarios/scenes) and the host (headless backend, scripts/render-scenes),
# so both compose exactly the same thing. POSIX sh (busybox and dash).
#
# Needs: scenario.sh sourced first (still_client, frame_crc, stop_clients);
# a running wlseal-compositor on $WAYLAND_DISPLAY started with
# --print-frames, its stdout in $COMP_OUT; wlseal-client and wlseal-wait-line
# on $PATH; a scratch directory $SCENE_TMP.

SCENES="one-window overlapping damage resize write-sealed refused"

# scene_describe NAME: one line for reports.
scene_describe() {
	case $1 in
	one-window) echo "one 320x240 client, frame 5" ;;
	overlapping) echo "three clients of different sizes, cascaded so they overlap" ;;
	damage) echo "a client that damages only its moving square, frame 40" ;;
	resize) echo "a client that resizes its window (grows the sealed pool in place), frame 45" ;;
	write-sealed) echo "an immutable buffer: memfd sealed SHRINK|GROW|WRITE, mapped privately" ;;
	refused) echo "a client with an unsealed pool is refused; its window never appears" ;;
	*) return 1 ;;
	esac
}

# client NAME ARGS...: a well-behaved client, on screen with its last frame.
client() {
	_name=$1
	shift
	still_client "$SCENE_TMP/$_name.out" "$@"
}

# refused_client NAME ARGS...: a client the compositor must refuse; waits
# for it to exit and checks it was disconnected with the refusal. (Give it
# --exit, so that a client wrongly accepted ends too, and
# --no-policy-extension, so that it takes the fatal core wl_shm path.)
refused_client() {
	_name=$1
	shift
	wlseal-client "$@" >"$SCENE_TMP/$_name.out" 2>&1
	_rc=$?
	if [ "$_rc" = 0 ]; then
		echo "# client $_name was not refused"
		return 1
	fi
	grep -q "missing F_SEAL_SHRINK" "$SCENE_TMP/$_name.out" || {
		echo "# client $_name failed, but not with the seal refusal:"
		sed 's/^/#   /' "$SCENE_TMP/$_name.out"
		return 1
	}
}

# scene_run NAME: put the scene on screen; afterwards SCENE_SEQ is the
# compositor frame that shows it and SCENE_CRC that frame's checksum.
scene_run() {
	SEQ=
	case $1 in
	one-window)
		client a --size=320x240 --frames=5 ;;
	overlapping)
		client a --size=400x300 --frames=3 &&
			client b --size=320x240 --frames=4 &&
			client c --size=240x180 --frames=5 ;;
	damage)
		client a --size=320x240 --frames=40 ;;
	resize)
		client a --size=320x240 --frames=45 --resize ;;
	write-sealed)
		client a --size=320x240 --frames=3 --seals=shrink,grow,write ;;
	refused)
		client a --size=320x240 --frames=2 &&
			refused_client b --size=200x200 --frames=2 --exit --seals=none \
				--no-policy-extension ;;
	*)
		echo "# unknown scene $1"
		return 1 ;;
	esac || return 1
	SCENE_SEQ=$SEQ
	SCENE_CRC=$(frame_crc "$COMP_OUT" "$SCENE_SEQ")
}
