"""wlseal.pointer: the guest's pointer requests, 'WLSEAL-POINTER TAG
abs X Y', 'WLSEAL-POINTER TAG rel DX DY' and 'WLSEAL-POINTER TAG button
left|middle|right down|up', as QMP input-send-event events.

QEMU routes each event to the input device of its kind bound to the
console named by input-send-event's device (gpu0): abs to the virtio
tablet, rel to the virtio mouse (vm.qemu_command binds both)."""

ABS_MAX = 0x7fff    # QMP's abs axes: 0 .. 32767 over the display
BUTTONS = ("left", "middle", "right")


def abs_value(pixel, size):
    """The abs axis value that lands on output pixel PIXEL of SIZE pixels.

    The guest's compositor (compositor/input/input.c) maps a tablet value
    v of 0 .. 32767 to v * (size - 1) / 32767 and the client sees the
    whole pixel below it, so the smallest v at or past PIXEL is the one:
    it lands less than a pixel past it."""
    if size < 2 or not 0 <= pixel < size:
        raise ValueError(f"pixel {pixel} is outside the display's 0..{size - 1}")
    return -(-pixel * ABS_MAX // (size - 1))


def pointer_events(parts, width, height):
    """QMP events for a WLSEAL-POINTER line (PARTS, split) on a WIDTHxHEIGHT
    display; raises ValueError on a malformed line."""
    if len(parts) < 3:
        raise ValueError("expected WLSEAL-POINTER TAG abs|rel|button ...")
    kind, args = parts[2], parts[3:]
    try:
        if kind in ("abs", "rel") and len(args) == 2:
            a, b = int(args[0]), int(args[1])
            if kind == "abs":
                a, b = abs_value(a, width), abs_value(b, height)
            return [{"type": kind, "data": {"axis": "x", "value": a}},
                    {"type": kind, "data": {"axis": "y", "value": b}}]
    except ValueError as e:
        raise ValueError(f"WLSEAL-POINTER {' '.join(parts[1:])}: {e}") from None
    if kind == "button" and len(args) == 2 and args[0] in BUTTONS and args[1] in ("down", "up"):
        return [{"type": "btn", "data": {"button": args[0], "down": args[1] == "down"}}]
    raise ValueError(f"WLSEAL-POINTER {' '.join(parts[1:])}: expected abs X Y, rel DX DY "
                     f"or button {'|'.join(BUTTONS)} down|up")


def send_pointer(qmp, parts, width, height):
    """Handle a WLSEAL-POINTER line: send its events to gpu0's devices in
    one batch (one evdev report). Returns None, or what went wrong."""
    try:
        events = pointer_events(parts, width, height)
        # QMP's "device" names the console (gpu0), not the input device.
        qmp.command("input-send-event", device="gpu0", events=events)
    except (RuntimeError, OSError, ValueError) as e:
        return str(e)
    return None
