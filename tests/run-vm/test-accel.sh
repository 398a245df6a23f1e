#!/bin/sh
# Host test of scripts/run-vm's accelerator classification, with a fake
# qemu-system-x86_64 first in PATH that acts out the quirks real hosts have:
# abort under KVM ("failed to set MSR 0x10a" and an assertion), a guest that
# never talks, an error exit. --accel kvm must call each "KVM unusable on
# this host: <QEMU's message>" with exit status 3 within a bound; --accel
# auto must boot under TCG instead and cache the verdict; a multi-scenario
# boot must be split per scenario. Needs no KVM, no kernel, no image.
set -u
RUNVM=$1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }

mkdir "$d/bin" "$d/cache"
: >"$d/bzImage"
: >"$d/initrd"
: >"$d/kvm"
# The fake QEMU: FAKE_KVM says what happens under -accel kvm, FAKE_TCG
# what the guest does under TCG; every invocation is logged.
cat >"$d/bin/qemu-system-x86_64" <<'FAKE'
#!/bin/sh
accel=
prev=
for a in "$@"; do
	[ "$prev" = -accel ] && accel=$a
	prev=$a
done
echo "$accel $*" >>"$FAKE_LOG"
mode=${FAKE_TCG:-pass}
[ "$accel" = kvm ] && mode=${FAKE_KVM:-pass}
# probe-only: the probe boot (no -initrd) talks, the real boot aborts.
[ "$mode" = probe-only ] && case "$*" in *-initrd*) mode=msr-abort ;; *) mode=pass ;; esac
case $mode in
msr-abort)
	echo "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" >&2
	echo "qemu-system-x86_64: ../../target/i386/kvm/kvm.c:2893: kvm_buf_set_msrs: Assertion \`ret == cpu->kvm_msr_buf->nmsrs' failed." >&2
	kill -ABRT $$
	;;
hang) exec sleep 300 ;;
exit1)
	echo "qemu-system-x86_64: failed to initialize kvm: Operation not permitted" >&2
	exit 1
	;;
pass)
	echo "Linux version 6.1.0-wlseal (fake)"
	echo "WLSEAL-BOOT 6.1.0-wlseal"
	for s in $(echo "$*" | sed -n 's/.*wlseal\.scenario=\([^ ]*\).*/\1/p' | tr , ' '); do
		echo "WLSEAL-SCENARIO-BEGIN $s"
		case $s in
		bad) echo "WARNING: CPU: 0 PID: 1 at fake.c:1 fake_warning"; echo "WLSEAL-RESULT $s fail (1)"; st=3 ;;
		crash) echo "Kernel panic - not syncing: fake"; exit 0 ;;
		*) echo "ok 1 - $s"; echo "WLSEAL-RESULT $s pass" ;;
		esac
	done
	exit "${st:-1}"
	;;
esac
FAKE
chmod +x "$d/bin/qemu-system-x86_64"
export PATH="$d/bin:$PATH" WLSEAL_CACHE="$d/cache" FAKE_LOG="$d/qemu.log"

# run_vm ACCEL [ARGS...]: run-vm on the dummy kernel; sets RC, OUT, TOOK.
run_vm() {
	accel=$1
	shift
	start=$(date +%s)
	OUT=$("$RUNVM" --kernel "$d/bzImage" --initrd "$d/initrd" --kvm-device "$d/kvm" \
		--accel "$accel" --quiet --log "$d/serial.log" --screenshot-dir "$d/shots" \
		--first-output-timeout 3 --timeout 30 "$@" 2>&1)
	RC=$?
	TOOK=$(($(date +%s) - start))
}
expect_kvm_unusable() { # expect_kvm_unusable WHAT TEXT
	[ "$RC" = 3 ] || fail "$1: exit $RC, expected 3: $OUT"
	echo "$OUT" | grep -q "KVM unusable on this host: .*$2" ||
		fail "$1: no 'KVM unusable on this host: ...$2' in: $OUT"
	[ "$TOOK" -le 15 ] || fail "$1: took $TOOK s"
	ok "$1: $(echo "$OUT" | grep -o 'KVM unusable on this host: .*' | head -n 1 | cut -c1-110)"
}

FAKE_KVM=msr-abort run_vm kvm
expect_kvm_unusable "--accel kvm, QEMU aborts (MSR 0x10a)" "failed to set MSR 0x10a to 0x69.*SIGABRT"
FAKE_KVM=hang run_vm kvm
expect_kvm_unusable "--accel kvm, the guest never talks" "printed nothing in 3 s"
FAKE_KVM=exit1 run_vm kvm
expect_kvm_unusable "--accel kvm, QEMU exits 1" "failed to initialize kvm: Operation not permitted.*status 1"
FAKE_KVM=pass "$RUNVM" --kernel "$d/bzImage" --initrd "$d/initrd" --kvm-device "$d/none" \
	--accel kvm --quiet --log "$d/serial.log" >"$d/out" 2>&1
RC=$? OUT=$(cat "$d/out") TOOK=0
expect_kvm_unusable "--accel kvm, no KVM device" "$d/none cannot be opened"

FAKE_KVM=pass run_vm kvm
[ "$RC" = 0 ] || fail "--accel kvm on a working KVM: exit $RC: $OUT"
ok "--accel kvm on a working KVM boots"

# auto: every quirk falls back to TCG, and the verdict is cached.
for quirk in msr-abort hang exit1; do
	rm -f "$d/cache/kvm-probe" "$FAKE_LOG"
	FAKE_KVM=$quirk run_vm auto
	[ "$RC" = 0 ] || fail "--accel auto, KVM $quirk: exit $RC: $OUT"
	echo "$OUT" | grep -q 'accelerator: tcg (KVM unusable on this host: ' ||
		fail "--accel auto, KVM $quirk: no fallback reason: $OUT"
	grep -q ' unusable ' "$d/cache/kvm-probe" || fail "--accel auto, KVM $quirk: verdict not cached"
	: >"$FAKE_LOG"
	FAKE_KVM=$quirk run_vm auto
	[ "$RC" = 0 ] || fail "--accel auto, KVM $quirk, cached: exit $RC: $OUT"
	! grep -q '^kvm ' "$FAKE_LOG" || fail "--accel auto, KVM $quirk: tried KVM again despite the cached verdict"
	ok "--accel auto, KVM $quirk: booted under TCG, verdict cached ($(cut -d' ' -f2- "$d/cache/kvm-probe" | cut -c1-60))"
done
# The probe boots but the real boot aborts: auto boots again under TCG.
rm -f "$d/cache/kvm-probe"
FAKE_KVM=probe-only run_vm auto
[ "$RC" = 0 ] || fail "--accel auto, probe fine, boot aborts: exit $RC: $OUT"
echo "$OUT" | grep -q 'booting again under tcg' || fail "--accel auto, probe fine, boot aborts: no second boot: $OUT"
grep -q ' unusable .*MSR 0x10a' "$d/cache/kvm-probe" || fail "--accel auto, probe fine, boot aborts: verdict not cached"
ok "--accel auto, the probe boots but the real boot aborts: booted again under TCG, verdict cached"
rm -f "$d/cache/kvm-probe"
FAKE_KVM=pass run_vm auto
echo "$OUT" | grep -q 'accelerator: kvm' || fail "--accel auto on a working KVM did not use it: $OUT"
ok "--accel auto on a working KVM uses it"

# TCG failing before the first line is a failure, not a KVM verdict.
FAKE_TCG=exit1 run_vm tcg
[ "$RC" = 1 ] && echo "$OUT" | grep -q "QEMU failed before the guest's first serial line" ||
	fail "--accel tcg, QEMU exits 1: exit $RC: $OUT"
ok "--accel tcg, QEMU exits 1: a failure naming the cause"

# Several scenarios in one boot: split per scenario, each its own verdict;
# a kernel report lands in the part of the scenario that printed it.
run_vm tcg --scenario first,bad,last,crash,never --split-dir "$d/split"
[ "$RC" = 1 ] || fail "multi-scenario boot: exit $RC, expected 1"
r() { awk -F '\t' -v n="$1" '$1 == n { print $2 ": " $4 }' "$d/split/results"; }
[ "$(r first)" = "pass: " ] || fail "first: $(r first)"
[ "$(r last)" = "pass: " ] || fail "last: $(r last)"
case $(r bad) in "fail: scenario failed (1)") ;; *) fail "bad: $(r bad)" ;; esac
case $(r crash) in "fail: no verdict: "*) ;; *) fail "crash: $(r crash)" ;; esac
case $(r never) in "fail: not run: the VM ended during crash") ;; *) fail "never: $(r never)" ;; esac
grep -q '^Linux version' "$d/split/first.serial" || fail "boot messages not in the first scenario's log"
grep -q WARNING "$d/split/bad.serial" || fail "the WARNING is not in bad's log"
! grep -q WARNING "$d/split/first.serial" "$d/split/last.serial" || fail "the WARNING leaked into another scenario's log"
grep -q 'Kernel panic' "$d/split/crash.serial" || fail "the panic is not in crash's log"
ok "five scenarios in one boot: split per scenario, the WARNING blamed on 'bad', the panic on 'crash'"
echo "1..$n"
