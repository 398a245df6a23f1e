#!/bin/sh
# Host test of image/lib/scene-parse.sh, under every POSIX shell here (dash
# and busybox ash, the guest's shell): every scene in tests/screenshots/ parses;
# each kind of mistake fails with FILE:LINE: and its reason; the values a
# scene runs with come out as written. Output is TAP.
# usage: test-scene-parse.sh SOURCE_ROOT
set -u
top=$1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }

shells=
for s in dash "busybox sh"; do
	# shellcheck disable=SC2086
	command -v ${s%% *} >/dev/null 2>&1 && shells="$shells${shells:+,}$s"
done
[ -n "$shells" ] || { echo "1..0 # SKIP no dash or busybox"; exit 77; }

# parse SHELL FILE: scene_fields' output, errors on stderr.
parse() {
	# shellcheck disable=SC2086
	$1 -c '. "$1/image/lib/scene-parse.sh" && scene_fields "$2"' sh "$top" "$2"
}

# bad NAME EXPECTED: $d/NAME.scene (already written) must fail, and its
# error output must contain EXPECTED (which starts with FILE:LINE:).
bad() {
	_name=$1
	_want=$2
	IFS=,
	for sh in $shells; do
		unset IFS
		if parse "$sh" "$d/$_name.scene" >"$d/out" 2>"$d/err"; then
			not_ok "$sh: $_name: accepted"
			continue
		fi
		if grep -qF -- "$d/$_want" "$d/err"; then
			ok "$sh: $_name: $(head -n 1 "$d/err" | sed "s|$d/||")"
		else
			not_ok "$sh: $_name: wanted '$_want', got: $(cat "$d/err")"
		fi
	done
	unset IFS
}

good='description: x
client: wlseal-client --frames=2
capture: last-client-frame
sizes: 800x600'

# Every scene of the repository parses.
IFS=,
for sh in $shells; do
	unset IFS
	for f in "$top"/tests/screenshots/*.scene; do
		if out=$(parse "$sh" "$f" 2>&1); then
			ok "$sh: $(basename "$f") parses"
		else
			not_ok "$sh: $(basename "$f"): $out"
		fi
	done
done
unset IFS

printf 'description: x\ncolour: red\n' >"$d/unknown.scene"
bad unknown "unknown.scene:2: unknown key 'colour' (keys: description client"
printf '# comment\n\ndescription: x\nclient wlseal-client --frames=2\n' >"$d/nocolon.scene"
bad nocolon "nocolon.scene:4: expected 'key: value'"
printf '%s\ncapture: frame 3\n' "$good" >"$d/twice.scene"
bad twice "twice.scene:5: 'capture:' given twice (first on line 3)"
printf 'description: x\nclient: wlseal-client --frames=2\ncapture: frame 3\nsizes: 800x600 1024x\n' \
	>"$d/size.scene"
bad size "size.scene:4: sizes: '1024x' is not WIDTHxHEIGHT"
printf 'description: x\nsizes: 800x600 800x600\n' >"$d/size2.scene"
bad size2 "size2.scene:2: sizes: 800x600 listed twice"
printf '%s\ntolerance: 3\n' "$good" >"$d/tol.scene"
bad tol "tol.scene:5: tolerance: expected two numbers"
printf '%s\ntolerance: 256 0\n' "$good" >"$d/tol2.scene"
bad tol2 "tol2.scene:5: tolerance: expected two numbers"
printf 'description: x\ncapture: frame x\n' >"$d/frame.scene"
bad frame "frame.scene:2: capture: frame 'x' is not a frame number"
printf 'description: x\ncapture: later\n' >"$d/capture.scene"
bad capture "capture.scene:2: capture: expected 'last-client-frame' or 'frame N', not 'later'"
printf 'description: x\nclient: wlseal-client --frames=2 "--size=1 2"\n' >"$d/quote.scene"
bad quote "quote.scene:2: client: shell syntax"
printf 'description: x\nclient: wlseal-client --frames=2 >/tmp/log\n' >"$d/redir.scene"
bad redir "redir.scene:2: client: shell syntax"
printf 'description: x\nclient: wlseal-client --size=320x240\n' >"$d/frames.scene"
bad frames "frames.scene:2: client: wlseal-client needs --frames=N"
printf 'description: x\nrefused-client: /usr/bin/wlseal-client --frames=2 --seals=none\n' \
	>"$d/exit.scene"
bad exit "exit.scene:2: refused-client: give wlseal-client --exit"
printf 'description: x\nclient: wlseal-client --frames=2\nsizes: 800x600\n' >"$d/nocapture.scene"
bad nocapture "nocapture.scene:3: end of file: no 'capture:' line"
printf 'description: x\ncapture: frame 2\nsizes: 800x600\n' >"$d/noclient.scene"
bad noclient "noclient.scene:3: end of file: no 'client:' line"
printf 'description:\n' >"$d/empty.scene"
bad empty "empty.scene:1: 'description:' needs a value"
printf 'description: x\ncapture: last-client-frame\nclient: wlseal-client --frames=2\nclient: weston-simple-shm\nsizes: 800x600\n' \
	>"$d/foreign.scene"
bad foreign "foreign.scene:2: capture: last-client-frame needs wlseal-client as the last 'client:'"
printf '%s\n' "$good" >"$d/Bad_Name.scene"
bad Bad_Name "Bad_Name.scene:1: scene name 'Bad_Name' (the file name)"

# What a scene runs with: CRLF endings, blanks around keys and values, a
# last line without newline, clients in file order with their lines.
printf 'description:  two clients \r\n  client : wlseal-client --frames=2\r\n# x\r\nrefused-client: /host/bin/c --exit\r\nclient: weston-simple-shm\r\ncapture: frame 7\r\nsizes: 640x480\t 320x200\r\ntolerance: 2 10' \
	>"$d/values.scene"
want="values|640x480 320x200|2|10|two clients|2 client wlseal-client --frames=2/4 refused /host/bin/c --exit/5 client weston-simple-shm/|frame 7"
IFS=,
for sh in $shells; do
	unset IFS
	# shellcheck disable=SC2016
	got=$($sh -c '. "$1/image/lib/scene-parse.sh" && scene_parse "$2" &&
		printf "%s|%s|%s|%s|%s|%s|%s" "$SCENE_NAME" "$SCENE_SIZES" "$SCENE_TOL_CHANNEL" \
			"$SCENE_TOL_PIXELS" "$SCENE_DESCRIPTION" "$(printf %s "$SCENE_STEPS" | tr "\n" /)" \
			"$SCENE_CAPTURE"' sh "$top" "$d/values.scene" 2>&1)
	if [ "$got" = "$want" ]; then
		ok "$sh: values as written"
	else
		not_ok "$sh: values: got '$got', wanted '$want'"
	fi
done
unset IFS

echo "1..$n"
[ "$failed" = 0 ]
