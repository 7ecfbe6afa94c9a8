"""``goblin-companion teach IMAGE... [--kind token|face] --label L [--calibration FILE] [--config FILE]
[--forget]``: teach the table's calibration from photos, as the page's "Insegna al tavolo" does.

Every token of each photo is an example of ``--label`` (``alive`` or ``dead``; the photos show tokens
with that face up); ``--kind face`` teaches every die of each photo as the value ``--label`` (``6``).
The calibration file is ``--calibration``, else the config's ``[camera] calibration``, else
``<state dir>/calibration.json`` (where ``serve`` reads it). ``--forget`` starts from no taught example
(alone: removes the file); the table's head that ``tune`` fitted stays.

One JSON line on stdout: ``{"calibration": FILE, "kind", "label", "learned": N, "files": [{"file",
"learned"}], "forgot": bool, "examples": N, "tokens": {...}, "faces": {...}}``. Any error (an image that
cannot be read or holds no token, a bad label, an unreadable calibration without ``--forget``) is one
stderr line and exit status 2, and the file is left as it was: all the photos are learned, or none.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.calibration import check_kind, check_label, learn, load_calibration, save_calibration, summary
from companion.config import load_config
from companion.errors import GoblinError, InvalidInput
from companion.jsoncli import Parser, json_command


def _parser() -> Parser:
    p = Parser(prog="goblin-companion teach",
               description="teach the table's calibration (goblin tokens alive/dead, die faces) from photos")
    p.add_argument("images", nargs="*", metavar="IMAGE", help="photos of tokens all showing one face")
    p.add_argument("--kind", default="token", help="token (default) or face")
    p.add_argument("--label", help="alive or dead for tokens; the value (e.g. 6) for a die face")
    p.add_argument("--calibration", metavar="FILE", help="the calibration file (default: the companion's, "
                                                         "<state dir>/calibration.json)")
    p.add_argument("--config", metavar="FILE", help="TOML settings (default: $GOBLIN_CONFIG)")
    p.add_argument("--forget", action="store_true", help="start from an empty calibration")
    return p


def main(argv: Sequence[str]) -> int:
    return json_command("goblin-companion teach", _parser(), argv, lambda args: run(
        args.images, kind=args.kind, label=args.label, forget=args.forget, calibration=args.calibration,
        config=args.config), ascii=True)


def run(images: Sequence[str], *, kind: str, label: str | None, forget: bool = False,
        calibration: str | None = None, config: str | None = None) -> dict[str, Any]:
    """Teach from ``images`` and save; the JSON line's content. InvalidInput on any error, nothing saved."""
    from companion.scan import read_image

    path = Path(calibration) if calibration else load_config(config).calibration_path()
    if not images and not forget:
        raise InvalidInput("no image given: teach IMAGE... --label alive|dead (or --forget alone to "
                           "remove the calibration)")
    checked = check_kind(kind)
    text = None
    if images:
        if label is None:
            raise InvalidInput("--label is needed: alive or dead for tokens, a value like 6 for a face")
        text = check_label(checked, label)
    from vision import Calibration

    if forget:
        try:   # the table's head (``tune``) is not a taught example: it stays when the file can be read
            old = load_calibration(path)
        except InvalidInput:
            old = None
        taught: Any = Calibration((), None if old is None else old.head)
    else:
        try:
            taught = load_calibration(path)
        except InvalidInput as error:
            raise InvalidInput(f"{error}; --forget starts a new calibration") from None
    if taught is None:
        taught = Calibration()
    files = []
    for name in images:
        assert text is not None
        frame = read_image(Path(name))
        try:
            taught, count = learn(taught, frame, kind=checked, label=text)
        except GoblinError as error:
            raise InvalidInput(f"{name!r}: {error}") from None
        files.append({"file": name, "learned": count})
    if images or taught.head is not None:
        save_calibration(taught, path)
    else:
        try:
            path.unlink(missing_ok=True)
        except OSError as error:
            raise InvalidInput(f"cannot remove {str(path)!r}: {error.strerror or error}") from None
    return {"calibration": str(path), "kind": checked, "label": text,
            "learned": sum(f["learned"] for f in files), "files": files, "forgot": forget, **summary(taught)}
