"""Check the table's hardware by hand, e.g. after wiring it.

    python3 -m hardware camera [NAME] [--snapshot FILE]   which camera, one frame (saved as FILE)
    python3 -m hardware buttons [--seconds N] [--led]     print each button event for N seconds

JSON on stdout; bad input exits 2 with one line on stderr saying what was wrong. On the Pi, stop the service
first (``sudo systemctl stop goblin-companion``): the camera and the pins can have only one user.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"hardware: {message}", file=sys.stderr)
        raise SystemExit(2)


def _camera(args: argparse.Namespace) -> int:
    import cv2

    from hardware.camera import open_camera
    from hardware.errors import CameraError, UnknownCamera

    try:
        choice = open_camera(args.name, replay_default=args.replay_default)
        with choice.source as source:
            frame = source.read()
    except (UnknownCamera, CameraError) as error:
        print(f"hardware: {error}", file=sys.stderr)
        return 2
    result: dict[str, object] = {
        "camera": choice.source.name,
        "reason": choice.reason,
        "height": frame.shape[0],
        "width": frame.shape[1],
    }
    if args.snapshot is not None:
        if not cv2.imwrite(str(args.snapshot), frame):
            print(f"hardware: cannot write snapshot {str(args.snapshot)!r}", file=sys.stderr)
            return 2
        result["snapshot"] = str(args.snapshot)
    print(json.dumps(result))
    return 0


def _buttons(args: argparse.Namespace) -> int:
    from hardware.buttons import TableButtons
    from hardware.errors import BadPins
    from hardware.led import StatusLED

    events: list[dict[str, object]] = []
    start = time.monotonic()

    def record(event: str) -> None:
        item = {"event": event, "t": round(time.monotonic() - start, 3)}
        events.append(item)
        print(json.dumps(item), flush=True)

    try:
        buttons = TableButtons(args.confirm, args.next, args.undo)
        led = StatusLED(args.led_pin) if args.led else None
    except BadPins as error:
        print(f"hardware: {error}", file=sys.stderr)
        return 2
    with buttons:
        buttons.when_event = record
        if led is not None:
            led.state = "pending"
        try:
            time.sleep(args.seconds)
        except KeyboardInterrupt:
            pass
        finally:
            if led is not None:
                led.close()
    print(json.dumps({"backend": buttons.backend, "events": len(events)}))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(prog="python3 -m hardware", description=__doc__.splitlines()[0] if __doc__ else None)
    commands = parser.add_subparsers(dest="command", required=True)
    camera = commands.add_parser("camera", help="open a camera and read one frame")
    camera.add_argument(
        "name", nargs="?", default=None, help="auto, picamera2[:N], opencv[:N|:PATH] or replay:PATH"
    )
    camera.add_argument("--snapshot", type=Path, default=None, help="save the frame here (.jpg or .png)")
    camera.add_argument("--replay-default", default=None, help="photos for auto when there is no camera")
    buttons = commands.add_parser("buttons", help="print button events as they happen")
    buttons.add_argument("--seconds", type=float, default=60.0)
    buttons.add_argument("--confirm", default="17")
    buttons.add_argument("--next", default="27")
    buttons.add_argument("--undo", default="22")
    buttons.add_argument("--led", action="store_true", help="blink the LED meanwhile")
    buttons.add_argument("--led-pin", default="23")
    args = parser.parse_args(argv)
    if args.command == "camera":
        return _camera(args)
    return _buttons(args)


if __name__ == "__main__":
    sys.exit(main())
