"""The table's own die finder: a finder fitted on this table's confirmed photos
(``tools/fit_table_finder.py``, where torch is) and installed here; the table then reads with it instead
of the shipped one.

``goblin-companion finder install FILE [--config FILE]`` checks the file (at most ``MAX_BYTES``, read by
``cv2.dnn``, the finder's five maps at a quarter of its input, and it finds the dice of the bundled demo
photos) and keeps it, with its card (``FILE.json`` when there is one, else the card the fit tool keeps
in the file itself: ``embedded_card``), under ``<state dir>/models``;
``finder info`` says which finder the table reads with; ``finder compare`` reads the table's latest photos
with it and with the shipped one (below); ``finder forget`` goes back to the shipped one.
Each prints one JSON line; bad input is one stderr line and exit status 2, and the finder in use stays.

The installed file is named by its content (``finder-<sha256[:12]>.onnx``), so a new one is a new path
and the readers' network cache (by path) never serves the old one.

A fit is checked on photos held back from its own set, which look like the rest of the set; it can still
miss dice the shipped finder found where play looks otherwise (docs/vision.md). So the table checks it in
play: each confirmed photo of the table's set says which finder read it, and its dice are what the players
confirmed (the dice the camera missed added, its phantoms removed). ``finder compare`` (and the settings
page) reads the latest photos the table's finder read with both finders, counts each one's missed dice and
phantoms against the confirmed dice, and says whether the shipped finder would have done better ("worse":
go back, ``finder forget``). Both read the same photos, so a darker evening does not pass for a worse
finder. The last comparison is kept beside the finder and ``finder info`` shows it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from companion.config import load_config
from companion.dataset import FOLDER as DATASET
from companion.dataset import TableDataset, boxes
from companion.errors import GoblinError, IllegalAction, InvalidInput
from companion.jsoncli import Parser
from companion.tuner import Background, lower_priority

log = logging.getLogger("companion.tablefinder")

FOLDER: Final = "models"
#: a finder file bigger than this is refused (the issue's budget for all models is 10 MB; ours is 0.5 MB)
MAX_BYTES: Final = 10_000_000
#: an installed finder must find at least this share of the demo photos' labelled dice (the shipped one
#: finds them all): a file that is a network but no die finder is refused
DEMO_FOUND: Final = 0.75
#: ``finder_tag`` of the shipped finder
SHIPPED: Final = "shipped"
#: the latest photos read by the table's finder that ``compare`` reads again (twice each: about 30 ms a
#: reading here, a few times that on a Pi 4)
MOST_COMPARED: Final = 40
#: photos ``compare`` needs before it gives a verdict
FEWEST_COMPARED: Final = 10
#: the table's finder is "worse" when it misses (or invents) more dice than the shipped one on the same
#: photos, by this many per photo and at least ``MARGIN_DICE`` dice; "better" when neither and the two
#: together are as many fewer
MARGIN_PER_PHOTO: Final = 0.1
MARGIN_DICE: Final = 3
#: while ``serve`` runs, the table compares by itself after this many photos confirmed with its finder (in
#: a thread at ``companion.tuner.NICENESS``: the camera's readings come first)
AUTO_COMPARE_EVERY: Final = 20
#: the comparison's name in the table set's marks (``companion.dataset.MARKS``): counted across restarts
AUTO_JOB: Final = "compare"


#: the key under which ``tools/fit_table_finder.py`` keeps the fit's card in the ONNX file's metadata
CARD_KEY: Final = "goblin.card"
#: an embedded card longer than this is not read
MAX_CARD_BYTES: Final = 64_000


def embedded_card(data: bytes) -> dict[str, Any] | None:
    """The fit's card kept in an ONNX file's metadata (``ModelProto.metadata_props``, an entry with key
    ``CARD_KEY``), or None; anything malformed is None (``vision.onnxfile.metadata`` reads the protobuf's
    top level only: the Pi has no ``onnx`` package, and ``cv2.dnn`` does not give the metadata)."""
    from vision.onnxfile import metadata

    try:
        text = metadata(data, CARD_KEY, MAX_CARD_BYTES)
        card = json.loads(text) if text is not None else None
    except (ValueError, UnicodeDecodeError):   # json.JSONDecodeError is a ValueError
        return None
    return card if isinstance(card, dict) else None


class CompareRunning(IllegalAction):
    """A comparison is under way; this one was not started."""

    code = "compare-running"


class CompareStopped(IllegalAction):
    """The companion is stopping: a comparison ends at its next photo, and none starts."""

    code = "compare-stopped"


def installed(state_dir: Path) -> Path | None:
    """The table's finder under ``state_dir``, or None (the shipped one is read)."""
    found = sorted((Path(state_dir) / FOLDER).glob("finder-*.onnx"))
    return found[-1] if found else None


def with_finder(path: Path | str | None) -> tuple[str, ...]:
    """``vision.read_table``'s models with the finder in ``path`` (None: the shipped models)."""
    from vision.learned import MODELS

    return MODELS if path is None else (str(path), *MODELS[1:])


def finder_tag(model: str) -> str:
    """How the table's set names the finder in ``model`` (a path or a shipped model's name): the hash prefix
    of an installed table finder (its file's name), else ``SHIPPED``."""
    path = Path(model)
    if path.parent.name == FOLDER and path.stem.startswith("finder-"):
        return path.stem.removeprefix("finder-")
    return SHIPPED


class TableModels:
    """``() -> models`` for ``vision.read_table``: the table's finder when one is installed, else the shipped
    models; the folder is listed again only when it changed (once per frame is a ``stat``)."""

    def __init__(self, state_dir: Path) -> None:
        self.folder = Path(state_dir) / FOLDER
        self._seen: tuple[int, ...] | None = None
        self._models: tuple[str, ...] = ()

    def __call__(self) -> tuple[str, ...]:
        try:
            st = self.folder.stat()
            key: tuple[int, ...] = (st.st_mtime_ns, st.st_ino)
        except OSError:
            key = ()
        if key != self._seen:   # vision is imported then (with_finder), not when serve starts
            self._models = with_finder(installed(self.folder.parent) if key else None)
            self._seen = key
        return self._models

    def finder(self) -> str:
        """``finder_tag`` of the finder read now."""
        return finder_tag(self()[0])


def judge(rows: Sequence[tuple[int, int, int, int, int]]) -> dict[str, Any]:
    """The verdict of ``compare`` from one row per photo: (confirmed dice, missed by the table's finder,
    its phantoms, missed by the shipped finder, its phantoms). ``"early"`` under ``FEWEST_COMPARED`` photos;
    ``"worse"`` when the table's finder misses more dice, or invents more, by ``MARGIN_PER_PHOTO`` and
    ``MARGIN_DICE`` (fewer phantoms do not make up for dice lost: a missed die needs its type, value and
    place, and losing dice is how a fit was seen to fail); ``"better"`` when neither and the two together
    are as many fewer; else ``"same"``."""
    n = len(rows)
    dice = sum(r[0] for r in rows)

    def side(missed: int, phantoms: int) -> dict[str, Any]:
        return {"found_pct": round(100 * (dice - missed) / max(1, dice), 2), "missed": missed,
                "phantoms": phantoms, "phantom_per_photo": round(phantoms / max(1, n), 3)}

    table = side(sum(r[1] for r in rows), sum(r[2] for r in rows))
    shipped = side(sum(r[3] for r in rows), sum(r[4] for r in rows))
    extra = [table[k] - shipped[k] for k in ("missed", "phantoms")]

    def beyond(more: int) -> bool:
        return more > MARGIN_PER_PHOTO * n and more >= MARGIN_DICE

    verdict = ("early" if n < FEWEST_COMPARED else "worse" if any(beyond(e) for e in extra)
               else "better" if beyond(-sum(extra)) else "same")
    return {"photos": n, "dice": dice, "table": table, "shipped": shipped, "verdict": verdict,
            "needed": FEWEST_COMPARED}


Read = Callable[[Any, tuple[str, ...]], Any]
"""``(frame, models) -> reading`` (its ``dice`` with their ``bbox``): how ``compare`` reads a photo."""


def photo_row(frame: Any, labels: Sequence[Any], table: tuple[str, ...], shipped: tuple[str, ...],
              read: Read) -> tuple[int, int, int, int, int]:
    """``judge``'s row of one photo: its confirmed dice (``labels``, boxes x, y, w, h), then the dice
    missed and the phantoms when ``read`` with the ``table`` models and with the ``shipped`` ones (the
    benchmark's matching rule, ``vision.data.match_boxes``)."""
    from vision.data import match_boxes

    row = [len(labels)]
    for models in (table, shipped):
        got = [d.bbox for d in read(frame, models).dice]
        found = len(match_boxes(labels, got))
        row += [len(labels) - found, len(got) - found]
    return row[0], row[1], row[2], row[3], row[4]


def compare(state_dir: Path, *, most: int = MOST_COMPARED, stop: threading.Event | None = None,
            read: Read | None = None) -> dict[str, Any]:
    """Read the latest ``most`` confirmed photos the table's finder read with it and with the shipped finder
    (the whole reader; ``read``, default ``vision.read_table``: ``serve`` reads as its camera does, with
    the tray, zones and calibration in force) and ``judge`` them against the dice the players confirmed; the
    result is kept beside the finder (``info`` shows it). ``InvalidInput`` when the table reads with the
    shipped finder; ``CompareStopped`` at the next photo once ``stop`` is set (nothing kept)."""
    import cv2

    from vision import read_table

    reader: Read = read or (lambda frame, models: read_table(frame, models=models))

    path = installed(state_dir)
    if path is None:
        raise InvalidInput("the table reads with the shipped finder: there is nothing to compare")
    tag = finder_tag(str(path))
    dataset = TableDataset(Path(state_dir) / DATASET)
    photos = [(entry, src) for entry, src in dataset.photos(dataset.labels())
              if entry.get("finder") == tag][-max(1, most):]
    rows = []
    for entry, src in photos:
        if stop is not None and stop.is_set():
            raise CompareStopped("the companion is stopping: the comparison ended")
        frame = cv2.imread(str(src), cv2.IMREAD_COLOR)
        dice = entry.get("dice")
        if frame is None or not isinstance(dice, list):
            continue
        # at most the set's own cap (a hand-edited labels.json may hold anything): matching is labels x found
        labels = [box for box, _ in boxes(dice)]
        rows.append(photo_row(frame, labels, with_finder(path), with_finder(None), reader))
    result = judge(rows)
    _compared(path).write_text(json.dumps(result), encoding="utf-8")
    return result


def _compared(path: Path) -> Path:
    """Where the last ``compare`` of the finder in ``path`` is kept (``forget`` and ``install`` drop it)."""
    return path.with_name(path.stem + ".compared.json")


def last_compared(path: Path) -> dict[str, Any] | None:
    """The last ``compare`` of the finder in ``path``, or None (never compared, or the file unreadable)."""
    try:
        said = json.loads(_compared(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return said if isinstance(said, dict) else None


def check_finder(path: Path) -> dict[str, Any]:
    """What ``install`` checks; ``InvalidInput`` saying what is wrong. Returns the demo dice it found."""
    import cv2
    import numpy as np

    from companion.demo import DEMO_DIR
    from vision.data import match_boxes
    from vision.finder import find_objects

    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InvalidInput(f"cannot read {str(path)!r}: {exc.strerror or exc}") from None
    if size > MAX_BYTES:
        raise InvalidInput(f"{path.name} is {size} bytes: a finder is at most {MAX_BYTES}")
    try:
        net = cv2.dnn.readNet(str(path))
        net.setInput(np.zeros((1, 3, 256, 320), np.float32))
        out = net.forward()
    except cv2.error as exc:
        said = str(exc).strip()[-160:]
        raise InvalidInput(f"{path.name} is not a network cv2.dnn can run: {said}") from None
    if tuple(out.shape) != (1, 5, 64, 80) or not np.isfinite(out).all():
        raise InvalidInput(f"{path.name} is no die finder: a 256x320 input gives maps of shape "
                           f"{tuple(out.shape)}, not (1, 5, 64, 80)")
    labels = json.loads((DEMO_DIR / "labels.json").read_text(encoding="utf-8"))["images"]
    dice = found = 0
    for entry in labels:
        frame = cv2.imread(str(DEMO_DIR / entry["file"]), cv2.IMREAD_COLOR)
        assert frame is not None, entry["file"]   # bundled with the package
        boxes = [f.box(frame.shape) for f in find_objects(frame, model=str(path))]
        dice += len(entry["dice"])
        found += len(match_boxes([tuple(d["bbox"]) for d in entry["dice"]], boxes))
    if found < DEMO_FOUND * dice:
        raise InvalidInput(f"{path.name} finds {found} of the demo photos' {dice} dice (at least "
                           f"{DEMO_FOUND:.0%} are needed): it is not installed")
    return {"demo_dice": dice, "demo_found": found}


def install(state_dir: Path, path: Path) -> dict[str, Any]:
    """Check ``path`` and keep it (and its card) as the table's finder, replacing the one before."""
    path = Path(path)
    checked = check_finder(path)
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    card_path = Path(str(path) + ".json")
    card: Any = embedded_card(data)   # a fit's card travels in the file (the page uploads the file alone)
    if card_path.is_file():
        try:
            card = json.loads(card_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InvalidInput(f"the card {card_path.name} is not JSON: {exc}") from None
    folder = Path(state_dir) / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"finder-{digest[:12]}.onnx"
    tmp = folder / (target.name + ".tmp")
    tmp.write_bytes(data)
    if card is not None:
        target.with_suffix(".json").write_text(json.dumps(card, indent=1), encoding="utf-8")
    os.replace(tmp, target)
    for old in folder.glob("finder-*"):
        if old.stem != target.stem:
            old.unlink(missing_ok=True)
    return {"installed": str(target), "sha256": digest, "bytes": len(data), **checked, "card": card}


def info(state_dir: Path) -> dict[str, Any]:
    """Which finder the table reads with; for its own, its card and the last ``compare`` (or None)."""
    path = installed(state_dir)
    if path is None:
        return {"finder": SHIPPED}
    card_path = path.with_suffix(".json")
    try:
        card = json.loads(card_path.read_text(encoding="utf-8")) if card_path.is_file() else None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        card = None
    return {"finder": "table", "path": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            "card": card, "compared": last_compared(path)}


def forget(state_dir: Path) -> dict[str, Any]:
    folder = Path(state_dir) / FOLDER
    gone = [p for p in folder.glob("finder-*")] if folder.is_dir() else []
    for p in gone:
        p.unlink(missing_ok=True)
    return {"finder": SHIPPED, "forgot": sum(p.suffix == ".onnx" for p in gone)}


class TableFinder(Background):
    """The settings page's side of the table's finder: which one is read, a fitted one installed from its
    bytes (the page's upload), compared with the shipped one, forgotten; the table's set as a zip to fit it
    from. While ``serve`` runs it also compares by itself (``note_confirmed``), one comparison at a time."""

    def __init__(self, state_dir: Path, dataset: Any, read: Read | None = None,
                 changed: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.state_dir = Path(state_dir)
        self.dataset = dataset
        self.read = read   # how ``compare`` reads a photo (default ``vision.read_table``)
        #: called after the table's finder changed (installed, fitted here, forgotten): ``serve`` fits the
        #: face head again (``companion.tuner.Tuner``), its crops being the new finder's
        self.changed = changed
        self._running = threading.Lock()   # held by the comparison or the fit under way
        self._job = ""   # which: "compare" or "fit"
        self._cancel = threading.Event()   # the page's "stop the fit"
        self._progress: Any = None   # companion.finderfit.Progress of the fit under way
        #: why the last fit started here ended without a card: {"code", "detail"}
        self._fit_error: dict[str, str] | None = None

    def state(self) -> dict[str, Any]:
        from companion.finderfit import DEFAULT_MINUTES, last_fit

        progress = self._progress
        return {**info(self.state_dir), "photos": len(self.dataset),
                "fit": progress.to_json() if progress is not None else None, "fit_minutes": DEFAULT_MINUTES,
                "last_fit": last_fit(self.state_dir), "fit_error": self._fit_error}

    def fit(self, minutes: float | None = None) -> dict[str, Any]:
        """Start fitting the shipped finder on the table's set, here, in the background
        (``companion.finderfit.fit_here``; installed when it reads the held-back photos no worse than the
        finder in use): the state, with the fit's progress. ``FitRunning`` / ``CompareRunning`` while a job
        is under way."""
        from companion.finderfit import DEFAULT_MINUTES, Progress, check_minutes

        minutes = check_minutes(DEFAULT_MINUTES if minutes is None else minutes)
        self._claim("fit")
        self._cancel.clear()
        self._fit_error = None
        self._progress = Progress(minutes=minutes)
        self._thread = threading.Thread(target=self._fit_run, args=(minutes,), name="goblin-fit", daemon=True)
        self._thread.start()
        return self.state()

    def install_fit(self) -> dict[str, Any]:
        """Install the last fit made here that was left out (``companion.finderfit.install_kept``): the
        state. ``FitRunning`` while a fit runs (its end decides what is left out)."""
        from companion.finderfit import install_kept

        self._claim("install")
        try:
            install_kept(self.state_dir)
        finally:
            self._job = ""
            self._running.release()
        self._changed()
        return self.state()

    def cancel_fit(self) -> dict[str, Any]:
        """Stop the fit under way at its next step (nothing installed): the state."""
        if self._job == "fit":
            self._cancel.set()
        return self.state()

    def _fit_run(self, minutes: float) -> None:
        from companion.finderfit import FitStopped, fit_here

        class Either:   # the page's stop or the companion's
            def is_set(_self) -> bool:
                return self._stop.is_set() or self._cancel.is_set()

        lower_priority()
        try:
            entries = list(self.dataset.photos(self.dataset.labels()))
            card = fit_here(self.state_dir, entries, minutes=minutes, stop=Either(), read=self.read,
                            progress=self._progress)
            log.info("a finder fitted here on %d photos: found %s -> %s%%, installed: %s", card["photos"],
                     card["before"]["found_pct"], card["after"]["found_pct"], bool(card["installed"]))
            if card["installed"]:
                self._changed()
        except FitStopped as exc:
            self._fit_error = {"code": FitStopped.code, "detail": str(exc)}
            log.info("the fit stopped: %s", exc)
        except GoblinError as exc:
            self._fit_error = {"code": str(getattr(exc, "code", "invalid-input")), "detail": str(exc)}
        except Exception as exc:  # a thread's error must not vanish; the table goes on
            self._fit_error = {"code": "failed", "detail": f"the fit failed: {exc}"}
            log.exception("fitting the finder here failed")
        finally:
            self._progress = None
            self._job = ""
            self._running.release()

    def install_bytes(self, data: bytes) -> dict[str, Any]:
        """``data`` checked and installed as ``install`` does (``InvalidInput`` saying what is wrong, and
        the finder in use stays): the state, with what was installed."""
        if len(data) > MAX_BYTES:
            raise InvalidInput(f"the file is {len(data)} bytes: a finder is at most {MAX_BYTES}")
        self.state_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="finder-", dir=self.state_dir) as folder:
            path = Path(folder) / "uploaded.onnx"
            path.write_bytes(data)
            done = install(self.state_dir, path)
        self._changed()
        return {**self.state(), "installed": done}

    def _changed(self) -> None:
        if self.changed is not None:
            try:
                self.changed()
            except Exception:  # the finder changed all the same; what follows it must not undo that
                log.exception("what follows a change of the table's finder failed")

    def compare(self) -> dict[str, Any]:
        """``compare`` the table's finder with the shipped one: the state, its ``"compared"`` just made.
        ``CompareRunning`` while another comparison is under way."""
        self._claim()
        try:
            through = self.dataset.newest()
            compare(self.state_dir, stop=self._stop, read=self.read)
            self.dataset.mark(AUTO_JOB, through)
        finally:
            self._job = ""
            self._running.release()
        return self.state()

    def _claim(self, job: str = "compare") -> None:
        from companion.finderfit import FitRunning

        if self._stop.is_set():
            raise CompareStopped("the companion is stopping: nothing starts")
        if not self._running.acquire(blocking=False):
            if self._job == "fit":
                raise FitRunning("the finder is being fitted to the table: wait for the fit, or stop it")
            raise CompareRunning("the finders are being compared already: wait for that comparison")
        self._job = job

    def note_confirmed(self) -> bool:
        """One more confirmed photo kept in the table's set: with the table's finder installed, once
        ``AUTO_COMPARE_EVERY`` photos it read have been confirmed since the last comparison (in this run of
        the companion or earlier ones) it is compared with the shipped one in the background (the page
        then says "worse" by itself). Whether a comparison started."""
        path = installed(self.state_dir)
        if path is None:
            return False
        if self.dataset.since(AUTO_JOB, finder=finder_tag(str(path))) < AUTO_COMPARE_EVERY:
            return False
        try:
            self._claim()
        except IllegalAction:   # a comparison or a fit under way, or the companion stopping
            return False
        self._thread = threading.Thread(target=self._run, args=(self.dataset.newest(),),
                                        name="goblin-compare", daemon=True)
        self._thread.start()
        return True

    def _run(self, through: int) -> None:
        """Compare; the set's photos up to number ``through`` are then marked compared, whether it went well
        or not (not when the companion stopped it: the next confirm compares again)."""
        lower_priority()
        try:
            said = compare(self.state_dir, stop=self._stop, read=self.read)
            log.info("the table's finder compared with the shipped one on %d photos: %s", said["photos"],
                     said["verdict"])
        except CompareStopped:
            log.info("comparing the finders stopped: the companion is stopping")
            through = -1
        except Exception:  # a thread's error must not vanish; the table goes on
            log.exception("comparing the table's finder with the shipped one failed")
        finally:
            self._job = ""
            self._running.release()
        if through >= 0:
            self.dataset.mark(AUTO_JOB, through)

    def warning(self) -> bool:
        """Whether the last comparison found the table's finder worse (the table page's banner): one small
        file read, no hashing."""
        path = installed(self.state_dir)
        said = last_compared(path) if path is not None else None
        return said is not None and said.get("verdict") == "worse"

    def forget(self) -> dict[str, Any]:
        if forget(self.state_dir)["forgot"]:
            self._changed()
        return self.state()


def read_as_configured(config: Any) -> Read:
    """``compare``'s reader for the command line: as ``serve``'s camera reads under ``config`` (its tray,
    zones and taught faces, as their files hold them now), with the models asked for."""
    from companion.calibration import load_calibration
    from companion.serve import vision_reader
    from companion.zones import ZoneKeeper

    keeper = ZoneKeeper(config.zones_path(), config.zones, config.camera.tray)
    taught = load_calibration(config.calibration_path())

    def read(frame: Any, models: tuple[str, ...]) -> Any:
        reader, _ = vision_reader(config, calibration=lambda: taught, zones=keeper.current, tray=keeper.tray,
                                  models=lambda: models)
        return reader(frame)

    return read


def fit_from_cli(state: Path, config: Any, minutes: float | None, seed: int | None,
                 any_boxes: bool) -> dict[str, Any]:
    """``finder fit``: the fit made in the foreground on the table's set, as the page's makes it."""
    from companion.finderfit import DEFAULT_MINUTES, SEED, fit_here

    dataset = TableDataset(Path(state) / DATASET)
    return fit_here(state, list(dataset.photos(dataset.labels())),
                    minutes=DEFAULT_MINUTES if minutes is None else minutes,
                    seed=SEED if seed is None else seed, any_boxes=any_boxes, read=read_as_configured(config))


def main(argv: Sequence[str]) -> int:
    p = Parser(prog="goblin-companion finder", description="the table's own die finder")
    p.add_argument("action", choices=["install", "info", "forget", "compare", "fit"])
    p.add_argument("file", nargs="?", metavar="FILE", help="the fitted finder (.onnx) to install")
    p.add_argument("--config", metavar="FILE", help="TOML settings (default: $GOBLIN_CONFIG)")
    p.add_argument("--minutes", type=float, default=None,
                   help="fit: how long the fit trains (default 20; the held-back photos are read after)")
    p.add_argument("--seed", type=int, default=None, help="fit: the seed of its windows")
    p.add_argument("--any-boxes", action="store_true",
                   help="fit: a set whose boxes are part of each die all the same (docs/vision.md)")
    try:
        args = p.parse_args(list(argv))
        config = load_config(args.config)
        state = config.state_path()
        if args.action == "install":
            if not args.file:
                raise InvalidInput("finder install needs a file: goblin-companion finder install FILE")
            result = install(state, Path(args.file))
        elif args.action == "info":
            result = info(state)
        elif args.action == "compare":
            result = compare(state, read=read_as_configured(config))
        elif args.action == "fit":
            result = fit_from_cli(state, config, args.minutes, args.seed, args.any_boxes)
        else:
            result = forget(state)
    except (GoblinError, ValueError, OSError) as exc:
        print(f"goblin-companion finder: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0
