"""The table's finder fitted here, on the table's own machine, without torch: ``goblin-companion finder fit``
and the settings page's *Adatta qui*.

The shipped finder is trained further on the table's confirmed photos (its set, ``companion.dataset``)
by ``vision.netfit`` (numpy), on the windows and loss ``tools/train_finder.py`` trains with, for a time
budget. One photo in ``HELD`` is held back, the same ones at every fit (``held_back``); the whole reader is
measured on those with the finder the table reads with now (the shipped one, or a table finder installed
before) and with the fitted one (``measure``: dice found, read right, phantoms per photo, and the players'
corrections), and the fit is installed (``companion.tablefinder.install``) only when it finds no fewer dice
and invents no more (``"better"``). Its card (the numbers, the seed, the steps) travels inside the file, as
the torch tool's does. What it rests on: docs/vision.md, "A finder fitted on the table".

Memory is bounded: the newest photos first, each shrunk so its dice are at most ``LARGEST_DIE`` px (the
windows never show a die bigger than 150 px: nothing is lost) and the photos kept while they fit in
``PIXEL_BUDGET``.
"""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Final, Protocol, TypeVar

from companion.dataset import boxes
from companion.errors import IllegalAction, InvalidInput

#: every HELD-th photo is held back to measure (the first of each five), as tools/fit_table_finder.py
HELD: Final = 5
#: the fewest photos that make a set worth fitting (two held back)
FEWEST: Final = 10
#: a set whose boxes are smaller than this share of the finder's (median) boxes part of each die: refused
#: (docs/vision.md: matteop65's pip-pattern boxes 0.58 lost dice; whole-die sets 1.04-1.15 gained)
SMALLEST_BOX_RATIO: Final = 0.8
#: a photo is shrunk until its largest die is at most this many px (the training windows show dice of
#: 10-150 px, so a bigger die is only shrunk again)
LARGEST_DIE: Final = 160
#: photos kept in memory for a fit, in bytes of pixels (the newest first): about 28 photos of the Pi HQ
#: camera at full size, many more where the dice allow shrinking. Thirty photos gave nearly all of the
#: gain measured on aws (docs/vision.md)
PIXEL_BUDGET: Final = 260_000_000
#: the longest fit asked for (the page offers the default)
MOST_MINUTES: Final = 180.0
DEFAULT_MINUTES: Final = 20.0
SEED: Final = 20264301
#: the last fit that was not installed, kept under ``<state dir>/fitting``
KEPT: Final = "left-out.onnx"
#: rendered trays of polyhedral dice drawn among the table's photos, one for every RENDERED_EVERY photos
#: taught (a quarter of the windows), between RENDERED_FEWEST and RENDERED_MOST: what the finder knew of
#: the other dice is kept while it learns the table's (docs/vision.md: a fit on aws's d6s alone found 98.5%
#: of rendered polyhedral dice against 99.8% before it; with the trays 99.5%)
RENDERED_EVERY: Final = 3
RENDERED_FEWEST: Final = 4
RENDERED_MOST: Final = 40


class FitRunning(IllegalAction):
    """A fit is under way; this one was not started."""

    code = "fit-running"


class FitStopped(IllegalAction):
    """The companion is stopping (or the fit was cancelled): nothing was installed."""

    code = "fit-stopped"


class SetRefused(InvalidInput):
    """The table's set is not one to fit on: ``code`` says why (``too-few-photos``, ``part-of-each-die``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def check_minutes(minutes: float) -> float:
    """``minutes`` when a fit may last that long, else ``InvalidInput`` saying how long it may."""
    if not 0 < minutes <= MOST_MINUTES:   # NaN fails too
        raise InvalidInput(f"a fit lasts more than 0 and at most {MOST_MINUTES:g} minutes, not {minutes:g}")
    return minutes


class Stop(Protocol):
    """What tells a fit to stop (a ``threading.Event``, or the page's and the companion's together)."""

    def is_set(self) -> bool: ...


@dataclass
class Photo:
    """A photo of the table's set as ``vision.windows.window`` reads it."""

    image: Any
    objects: list[tuple[float, float, float, float, int]] = field(default_factory=list)
    #: its file in the table's set (``images/000123.jpg``), which ``held_back`` keys on
    file: str = ""


T = TypeVar("T")
Read = Callable[[Any, tuple[str, ...]], Any]
"""``(frame, models) -> reading``: how the held-back photos are read (default ``vision.read_table``)."""


def measure(photos: Sequence[Any], models: tuple[str, ...], read: Read | None = None) -> dict[str, Any]:
    """The whole reader with ``models`` on ``photos`` (each with ``image`` and ``objects``): share of the
    dice found, share of the valued ones read right, phantoms per photo (the benchmark's matching rule), and
    the median of a labelled box's side over the side of the box found for it (``box_ratio``)."""
    import numpy as np

    from vision import read_table
    from vision.data import match_boxes

    reader: Read = read or (lambda frame, m: read_table(frame, models=m))
    labelled = found = valued = valued_found = right = phantoms = 0
    ratios = []
    for s in photos:
        got = list(reader(s.image, models).dice)
        labels = [(cx - w / 2, cy - h / 2, w, h) for cx, cy, w, h, _ in s.objects]
        pairs = match_boxes(labels, [d.bbox for d in got])
        labelled += len(labels)
        found += len(pairs)
        phantoms += len(got) - len(pairs)
        values = {i: s.objects[i][4] for i in range(len(labels)) if s.objects[i][4] > 0}
        valued += len(values)
        valued_found += sum(i in values for i, _ in pairs)
        right += sum(got[j].value == values[i] for i, j in pairs if i in values)
        ratios += [max(labels[i][2:]) / max(1, *got[j].bbox[2:]) for i, j in pairs]
    wrong = valued_found - right
    return {"found_pct": round(100 * found / max(1, labelled), 2),
            "right_pct": round(100 * right / max(1, valued), 2),
            "phantom_per_photo": round(phantoms / max(1, len(photos)), 3), "dice": labelled,
            "box_ratio": round(float(np.median(ratios)), 2) if ratios else None,
            "missed": labelled - found, "phantoms": phantoms, "wrong_values": wrong,
            "corrections": labelled - found + phantoms + wrong}


def better(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """Whether a fit is kept: no fewer dice found and no more phantoms on the held-back photos."""
    return bool(after["found_pct"] >= before["found_pct"]
                and after["phantom_per_photo"] <= before["phantom_per_photo"])


def load_photos(entries: Sequence[tuple[Mapping[str, Any], Path]], budget: int = PIXEL_BUDGET,
                stop: Stop | None = None) -> list[Photo]:
    """The set's photos with their boxed dice, newest first, each shrunk to ``LARGEST_DIE`` and kept while
    their pixels fit in ``budget`` bytes; unreadable photos and photos with no boxed die are left out."""
    import cv2

    out: list[Photo] = []
    used = 0
    for entry, src in reversed(list(entries)):
        if stop is not None and stop.is_set():
            raise FitStopped("the fit was stopped while its photos were read: nothing was installed")
        objects = [(x + w / 2, y + h / 2, w, h, value if isinstance(value, int) and value > 0 else -1)
                   for (x, y, w, h), value in boxes(entry.get("dice"))]
        if not objects:
            continue
        image = cv2.imread(str(src), cv2.IMREAD_COLOR)
        if image is None:
            continue
        h, w = image.shape[:2]   # a die must lie in the photo and be no bigger than it
        objects = [o for o in objects if 0 <= o[0] < w and 0 <= o[1] < h and max(o[2], o[3]) <= max(w, h)]
        if not objects:
            continue
        largest = max(max(o[2], o[3]) for o in objects)
        if largest > LARGEST_DIE:
            f = LARGEST_DIE / largest
            image = cv2.resize(image, (max(1, round(image.shape[1] * f)), max(1, round(image.shape[0] * f))),
                               interpolation=cv2.INTER_AREA)
            objects = [(cx * f, cy * f, w * f, h * f, v) for cx, cy, w, h, v in objects]
        if used + image.nbytes > budget:
            break
        used += image.nbytes
        out.append(Photo(image, objects, str(entry.get("file", ""))))
    out.reverse()
    return out


def photo_number(file: str) -> int:
    """The number the table's set gave a photo (``images/000123.jpg`` -> 123); a name that is no number
    (a set copied in by hand) gets a fixed number from its text."""
    stem = PurePosixPath(file).stem
    return int(stem) if stem.isdigit() else zlib.crc32(file.encode("utf-8"))


def held_back(photos: Sequence[T], file: Callable[[T], str] = lambda p: str(getattr(p, "file", ""))
              ) -> tuple[list[T], list[T]]:
    """``(held, taught)``: the photos whose number (``photo_number`` of ``file(photo)``) is a multiple of
    ``HELD`` are held back to measure, the same photos at every fit, so a table finder fitted earlier never
    trained on the photos a new fit is judged against it on. Where that holds back fewer than two (a small
    set, or unlucky names), one photo in ``HELD`` by place, the first of each ``HELD`` (so also where that
    would hold back half or more). ``tools/fit_table_finder.py`` holds back the same way."""
    held = [p for p in photos if photo_number(file(p)) % HELD == 0]
    if len(held) < 2 or 2 * len(held) > len(photos):
        return list(photos[::HELD]), [p for i, p in enumerate(photos) if i % HELD]
    return held, [p for p in photos if photo_number(file(p)) % HELD]


@dataclass
class Progress:
    """Where a fit is: its phase (``reading``, ``measuring``, ``fitting``, ``checking``), steps done and
    the share of its time spent."""

    phase: str = "reading"
    steps: int = 0
    spent: float = 0.0
    minutes: float = DEFAULT_MINUTES

    def to_json(self) -> dict[str, Any]:
        return {"phase": self.phase, "steps": self.steps, "spent_pct": round(100 * self.spent, 1),
                "minutes": self.minutes}


def rendered_trays(taught: int, seed: int) -> list[Photo]:
    """Trays of six rendered polyhedral and pip dice (``vision.poly.synth.scene``, 640x480, dice of 48-110
    px), one for every ``RENDERED_EVERY`` photos ``taught``, drawn from ``seed``."""
    import numpy as np

    from vision.poly.synth import scene

    rng = np.random.default_rng([seed, 2])
    n = min(RENDERED_MOST, max(RENDERED_FEWEST, round(taught / RENDERED_EVERY)))
    trays = []
    for _ in range(n):
        s = scene(rng, count=6, width=640, height=480, sizes=(48, 110))
        drawn = [d.bbox for d in s.dice]   # not ``boxes``: that is the set's label reader, imported above
        trays.append(Photo(s.image, [(x + w / 2, y + h / 2, w, h, -1) for x, y, w, h in drawn]))
    return trays


def fit_here(state_dir: Path, entries: Sequence[tuple[Mapping[str, Any], Path]], *,
             minutes: float = DEFAULT_MINUTES, seed: int = SEED, any_boxes: bool = False,
             renders: bool = True, stop: Stop | None = None, read: Read | None = None,
             progress: Progress | None = None, clock: Callable[[], float] = time.monotonic) -> dict[str, Any]:
    """Fit the shipped finder on the set's photos (``entries``: labels.json entries with their files) for
    ``minutes`` and install it when ``better`` (``companion.tablefinder.install``), else keep it for
    ``install_kept``; the card, with ``"installed"`` (the path, or None) and ``"kept"`` (the path of the
    fit left out, or None), also kept as ``last_fit``. ``renders``: rendered trays of polyhedral dice
    among the photos taught (``rendered_trays``). ``SetRefused`` (an ``InvalidInput``) for a set too
    small or boxing part of each die, ``FitStopped`` once ``stop`` is set (nothing installed)."""
    import numpy as np

    from companion.tablefinder import CARD_KEY, TableModels, finder_tag, install, with_finder
    from vision import netfit
    from vision.finder import model_path
    from vision.onnxfile import with_metadata

    check_minutes(minutes)
    progress = progress or Progress()
    progress.minutes = minutes
    photos = load_photos(entries, stop=stop)
    if len(photos) < FEWEST:
        raise SetRefused("too-few-photos", f"the table's set holds {len(photos)} photos with boxed dice; a "
                         f"fit needs {FEWEST} or more (confirm more rolls with the camera)")
    held, taught = held_back(photos)
    trays = rendered_trays(len(taught), seed) if renders else []
    taught += trays
    start_file = model_path(with_finder(None)[0])
    current = TableModels(state_dir)()   # what the table reads with now: the fit must beat it
    progress.phase = "measuring"
    before = measure(held, current, read)
    if (before["box_ratio"] or 1.0) < SMALLEST_BOX_RATIO and not any_boxes:
        raise SetRefused("part-of-each-die", f"the set's boxes are {before['box_ratio']} of the finder's "
                         f"(median, on the {len(held)} held-back photos): they box part of each die, and a "
                         "finder fitted on them loses dice (docs/vision.md)")
    progress.phase = "fitting"
    start = clock()
    budget = minutes * 60

    def going(step: int) -> float | None:
        progress.steps = step
        progress.spent = min(1.0, (clock() - start) / budget)
        if stop is not None and stop.is_set():
            return None
        return None if progress.spent >= 1.0 else progress.spent

    data, said = netfit.fit(start_file.read_bytes(), taught, np.random.default_rng(seed), going)
    if stop is not None and stop.is_set():
        raise FitStopped("the fit was stopped: nothing was installed")
    progress.phase = "checking"
    folder = Path(state_dir) / "fitting"
    folder.mkdir(parents=True, exist_ok=True)
    trial = folder / "fitted.onnx"
    trial.write_bytes(data)
    after = measure(held, with_finder(trial), read)
    card = {"command": f"goblin-companion finder fit --minutes {minutes:g} --seed {seed}", "where": "here",
            "seed": seed, "steps": said["steps"], "minutes": round((clock() - start) / 60, 1),
            "loss_first": said["loss_first"], "loss_last": said["loss_last"], "start": start_file.name,
            "photos": len(photos), "held_back": len(held), "judged_against": finder_tag(current[0]),
            "rendered_trays": len(trays), "before": before, "after": after,
            "better": better(before, after)}
    trial.write_bytes(with_metadata(data, CARD_KEY, json.dumps(card)))
    kept = folder / KEPT
    kept.unlink(missing_ok=True)
    if card["better"]:
        card["installed"], card["kept"] = install(state_dir, trial)["installed"], None
        trial.unlink(missing_ok=True)
    else:   # kept, so the players can install it all the same (``install_kept``): twenty minutes not lost
        trial.replace(kept)
        card["installed"], card["kept"] = None, str(kept)
    (folder / "last-fit.json").write_text(json.dumps(card, indent=1), encoding="utf-8")
    return card


def install_kept(state_dir: Path) -> dict[str, Any]:
    """Install the last fit that was not installed (its held-back photos read it worse: a few photos
    decide that, and one die can tip it), as ``companion.tablefinder.install`` does; ``finder compare``
    then watches it in play. ``InvalidInput`` when there is none."""
    from companion.tablefinder import install

    folder = Path(state_dir) / "fitting"
    kept = folder / KEPT
    if not kept.is_file():
        raise InvalidInput("there is no fit left out to install (the last one was installed, or none ran)")
    done = install(state_dir, kept)
    kept.unlink(missing_ok=True)
    card = last_fit(state_dir)
    if card is not None:
        card["installed"], card["kept"] = done["installed"], None
        (folder / "last-fit.json").write_text(json.dumps(card, indent=1), encoding="utf-8")
    return done


def last_fit(state_dir: Path) -> dict[str, Any] | None:
    """The card of the last fit made here (installed or not), or None."""
    try:
        said = json.loads((Path(state_dir) / "fitting" / "last-fit.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return said if isinstance(said, dict) else None
