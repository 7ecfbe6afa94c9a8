"""``goblin-companion scan IMAGE... [--json] [--annotate DIR] [--calibration FILE] [--zones JSON]``
[``--tray JSON``] [``--percentile`` | ``--no-percentile``] [``--finder FILE``] [``--read-seconds S``].

Reads dice and tokens in photo files. Per image, one line on stdout: with ``--json`` the reading as JSON
(``file``, ``width``, ``height``, ``ms``, ``dice``, ``tokens``, and with ``--percentile`` also
``percentile``: each percentile d10 and plain d10 rolled together as one 1-100 result,
``vision.percentile``), else a short text summary. A file that
cannot be read (missing, empty, corrupt, not an image, too large, not a regular file) gets an error line
of its own (``{"file": ..., "error": ...}``) and the other files are still read; the exit status is then 2
(0 when every file was read). Usage errors (no image, a bad calibration or zones file) are one stderr
line and exit status 2, before any image is read. ``--finder FILE`` reads with that die finder (a table's
fitted one, to try it on photos before ``goblin-companion finder install``), checked as install checks it.
``--no-percentile`` reads as the live table does (``companion.serve.LIVE_PERCENTILE``): no percentile d10 is
on the table, so every 10-sided die is read among the plain d10's faces (``vision.read_table(percentile=)``).
Each photo is read as the live table reads a frame, within its time (``vision.read_table(clock=)``,
``--read-seconds S``, default ``vision.learned.FRAME_SECONDS``; ``auto``: that, or more on a machine measured
slower than the reference, as the live table's ``camera.read_seconds = "auto"``): what a crowded photo
leaves unread by then is reported at most 0.5 sure.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.config import TURNS
from companion.errors import GoblinError, InvalidInput
from companion.jsoncli import Parser, read_json
from hardware.imagefile import MAX_FILE_BYTES, MAX_PIXELS, ImageFileError, read_photo_file
from hardware.sources import turned

__all__ = ["MAX_FILE_BYTES", "MAX_PIXELS", "main", "read_image", "read_photo"]


def _parser() -> Parser:
    p = Parser(prog="goblin-companion scan", description="read dice and tokens in photos, print JSON")
    p.add_argument("images", nargs="+", metavar="IMAGE", help="photo files (JPEG, PNG, ...)")
    p.add_argument("--json", action="store_true", help="one JSON object per image (default: a text line)")
    p.add_argument("--annotate", metavar="DIR", help="write an annotated copy of each image into DIR")
    p.add_argument("--calibration", metavar="FILE", help="taught faces (tokens, icon dice) from teach mode")
    p.add_argument("--zones", metavar="JSON", help='zones file or inline JSON {"p0": [[x, y], ...], ...}')
    p.add_argument("--tray", metavar="JSON", help="the tray's outline, a file or inline JSON [[x, y], ...] "
                   "(fractions of the picture): only what lies inside is read")
    p.add_argument("--finder", metavar="FILE", help="read with this die finder (.onnx, e.g. one fitted on "
                   "the table by tools/fit_table_finder.py) instead of the shipped one")
    p.add_argument("--read-seconds", metavar="S", type=_seconds, default=None,
                   help="read each photo in about S seconds at most, as the live table's "
                        "camera.read_seconds (default 0.85; auto: 0.85, more on a machine measured slower, "
                        "up to 3.4): what a crowded photo leaves unread by then is reported at most 0.5 sure")
    p.add_argument("--turn", metavar="DEG", type=int, choices=TURNS, default=0,
                   help="turn each photo DEG degrees clockwise before it is read, as the live table's "
                        "camera.turn (0, 90, 180, 270): the table's far side at the top; boxes, width and "
                        "height are then the turned photo's")
    chance = p.add_mutually_exclusive_group()
    chance.add_argument("--percentile", action="store_true",
                        help="also read each percentile d10 and plain d10 rolled together as one 1-100 "
                             "result")
    chance.add_argument("--no-percentile", action="store_true",
                        help="no percentile d10 is on the table (none of the five games rolls one): read "
                             "every 10-sided die as a plain d10, as the live table does")
    return p


def _seconds(text: str) -> float | str:
    """``--read-seconds``: "auto" or a number of seconds over 0 (a bad one is a usage error, exit 2)."""
    if text == "auto":
        return text
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not seconds > 0:   # nan too
        raise argparse.ArgumentTypeError(f"a photo's time is auto or seconds over 0, not {text!r}")
    return seconds


def read_image(path: Path) -> Any:
    """Decode ``path`` to a BGR array, or raise ``InvalidInput`` saying why it cannot be read: the image of
    ``read_photo`` (a JPEG over :data:`MAX_PIXELS` decoded smaller), for the callers that need no boxes in
    the photo's own pixels (teach, tune)."""
    return read_photo(path)[0]


def read_photo(path: Path) -> tuple[Any, tuple[int, int]]:
    """Decode ``path`` to a BGR array and the photo's own (width, height), or raise ``InvalidInput`` saying
    why it cannot be read.

    Bounded: only a regular file (not ``/dev/zero``, a FIFO or a folder), at most :data:`MAX_FILE_BYTES`
    read, and at most :data:`MAX_PIXELS` pixels, checked in the header before anything is decoded
    (``hardware.imagefile``); a JPEG over that (a phone's 48 MP photo) is decoded at a half, a quarter or an
    eighth of its size, as libjpeg can without ever holding the whole picture."""
    try:
        return read_photo_file(path, max_bytes=MAX_FILE_BYTES, max_pixels=MAX_PIXELS)
    except ImageFileError as error:
        raise InvalidInput(str(error)) from None


def _in_photo(items: list[dict[str, Any]], sx: float, sy: float) -> list[dict[str, Any]]:
    """``items`` (dice or tokens as JSON) with their boxes scaled from the decoded image to the photo."""
    out = []
    for item in items:
        x, y, w, h = item["bbox"]
        out.append({**item, "bbox": [round(x * sx), round(y * sy), round(w * sx), round(h * sy)]})
    return out


def _kind(die: dict[str, Any]) -> str:
    """How the text line names a die that is not a d6 ("d20=", "d%=" for a percentile d10; "" for a d6, as
    before): a lone "1" read off a d20 said nothing of what was read."""
    if die.get("percentile"):
        return "d%="
    sides = die.get("sides")
    return "" if sides in (6, None) else f"d{sides}="


def _summary(result: dict[str, Any]) -> str:
    if "error" in result:
        return f"{result['file']}: error: {result['error']}"
    dice = " ".join(f"{_kind(d)}{'?' if d['value'] is None else d['value']}"
                    f"({d['confidence']:.2f},{d['zone']})" for d in result["dice"])
    tokens = " ".join(f"{t['face'] or '?'}({t['confidence']:.2f},{t['zone']})" for t in result["tokens"])
    light = f"; light: {result['light']}" if "light" in result else ""
    return (f"{result['file']}: {result['width']}x{result['height']} {result['ms']} ms; "
            f"{len(result['dice'])} dice: {dice or '-'}; {len(result['tokens'])} tokens: {tokens or '-'}"
            + light)


def main(argv: Sequence[str]) -> int:
    try:
        args = _parser().parse_args(list(argv))
        import cv2

        from vision import Calibration, Zones, annotate, read_table
        from vision.percentile import percentile_rolls
        from vision.zones import tray_polygon

        models: dict[str, Any] = {}
        if args.finder:
            from companion.tablefinder import check_finder, with_finder

            check_finder(Path(args.finder))
            models["models"] = with_finder(args.finder)
        from vision.learned import FRAME_SECONDS, frame_seconds, slowness

        seconds = (FRAME_SECONDS if args.read_seconds is None
                   else frame_seconds(slowness(time.perf_counter)) if args.read_seconds == "auto"
                   else args.read_seconds)
        calibration = Calibration.load(args.calibration) if args.calibration else None
        zones = Zones.from_json(read_json(args.zones)) if args.zones else None
        tray = tray_polygon(read_json(args.tray)) if args.tray else None
        out_dir = Path(args.annotate) if args.annotate else None
        if out_dir is not None:
            try:
                out_dir.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise InvalidInput(
                    f"--annotate: cannot create {str(out_dir)!r}: {exc.strerror or exc}") from None
    except (GoblinError, ValueError) as exc:
        print(f"goblin-companion scan: {exc}", file=sys.stderr)
        return 2
    failed = 0
    for name in args.images:
        result: dict[str, Any] = {"file": name}
        try:
            image, (width, height) = read_photo(Path(name))
            if args.turn:
                image = turned(image, args.turn)
                width, height = (height, width) if args.turn in (90, 270) else (width, height)
            t0 = time.perf_counter()
            reading = read_table(image, calibration=calibration, zones=zones, tray=tray,
                                 percentile=not args.no_percentile, clock=time.perf_counter,
                                 seconds=seconds, **models)
            ms = round((time.perf_counter() - t0) * 1000, 1)
            body = reading.to_json()
            sx, sy = width / body["width"], height / body["height"]
            result.update(width=width, height=height, ms=ms, dice=_in_photo(body["dice"], sx, sy),
                          tokens=_in_photo(body["tokens"], sx, sy))
            if reading.light is not None:
                result["light"] = reading.light
            if (sx, sy) != (1, 1):   # a photo over MAX_PIXELS, decoded smaller
                result["read_at"] = [body["width"], body["height"]]
            if args.percentile:
                result["percentile"] = [{**j, "tens": _in_photo([j["tens"]], sx, sy)[0],
                                         "units": _in_photo([j["units"]], sx, sy)[0]}
                                        for j in (r.to_json() for r in percentile_rolls(reading.dice))]
            if out_dir is not None:
                target = out_dir / (Path(name).stem + ".annotated.jpg")
                if not cv2.imwrite(str(target), annotate(image, reading, tray=tray)):
                    raise InvalidInput(f"cannot write the annotated copy {str(target)!r}")
        except (GoblinError, ValueError) as exc:
            failed += 1
            result = {"file": name, "error": str(exc)}
        print(json.dumps(result) if args.json else _summary(result), flush=True)
    return 2 if failed else 0
