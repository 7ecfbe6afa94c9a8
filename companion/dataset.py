"""Every confirmed reading teaches the table: the frame and the dice the players confirmed (or corrected),
kept under the state directory as a labelled set in the ``labels.json`` format of ``../shared/dice-photos``
(``{"source", "license", "kind", "label_origin", "caveats", "images": [{"file", "width", "height",
"dice": [{"sides", "value", "bbox"}], "note"}]}``), at most ``max_images`` photos (oldest dropped first).
Beyond that format, a die the players corrected is ``"manual": true`` and one they added (the camera missed
it) also ``"added": true``; a photo says which die finder read it (``"finder"``: ``"shipped"`` or the
table's own finder's hash prefix: ``companion.tablefinder.compare`` reads the photos the table's finder
read with both finders) and how many of the camera's dice the players removed as no die (``"removed"``,
when any).

``goblin-companion dataset export DIR`` copies it; ``goblin-companion tune`` (``tune``) adapts the face
reader to this table's dice from it and says what it measured before and after.
"""

from __future__ import annotations

import json
import logging
import math
import shutil
import threading
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO, Final

log = logging.getLogger("companion.dataset")

FOLDER: Final = "dataset"
LABELS: Final = "labels.json"
#: photos kept at most (a 2028x1520 JPEG at quality 90 is about 0.5 MB: 400 photos, 200 MB)
MAX_IMAGES: Final = 400
#: a frame bigger than this (encoded bytes) is not kept
MAX_FRAME_BYTES: Final = 8_000_000
#: dice per photo kept at most
MAX_DICE: Final = 200
#: beside labels.json: for each job that runs by itself (``tune``, the table finder's comparison), the newest
#: photo's number when its last finished run started, so that "every 50 confirmed photos" counts across
#: restarts: a table switched off after every evening, with fewer confirms than that in one, was never
#: tuned. Photos are numbered 1, 2, ... as they are confirmed and keep their numbers when older ones go
MARKS: Final = "marks.json"


def boxes(dice: Any) -> list[tuple[tuple[float, float, float, float], Any]]:
    """The boxed dice of one photo's ``"dice"`` as labels.json holds them, a hand-edited file taken as it
    comes: (x, y, w, h) and the die's ``"value"`` of each entry whose ``bbox`` is four finite numbers with
    a positive width and height, at most ``MAX_DICE`` entries read; anything else is left out."""
    out = []
    for d in dice[:MAX_DICE] if isinstance(dice, list) else []:
        box = d.get("bbox") if isinstance(d, Mapping) else None
        if not (isinstance(box, list) and len(box) == 4
                and all(isinstance(v, int | float) and not isinstance(v, bool) for v in box)):
            continue
        x, y, w, h = (float(v) for v in box)
        if all(math.isfinite(v) for v in (x, y, w, h)) and w > 0 and h > 0:
            out.append(((x, y, w, h), d.get("value")))
    return out


def _number(entry: Mapping[str, Any]) -> int:
    """A labels.json entry's photo number (``images/000123.jpg``: 123), 0 for a name that holds none."""
    stem = Path(str(entry.get("file", ""))).stem
    return int(stem) if stem.isascii() and stem.isdigit() else 0


def _newest(data: Mapping[str, Any]) -> int:
    """The highest photo number among labels.json's entries, 0 when none."""
    return max((_number(e) for e in data["images"] if isinstance(e, dict)), default=0)


def _header() -> dict[str, Any]:
    return {"source": "goblin-companion: this table's camera", "license": "the table owner's",
            "kind": "table", "label_origin": "dice confirmed or corrected by the players at the table",
            "caveats": "values are what the players confirmed; 'manual' marks a die they corrected, "
                       "'added' one they added (the camera missed it); a die the players did not need (not "
                       "part of the expected roll) may be unlabelled",
            "images": []}


class TableDataset:
    """The table's own labelled set under ``root`` (``<state dir>/dataset``); thread-safe."""

    def __init__(self, root: Path, *, max_images: int = MAX_IMAGES, enabled: bool = True) -> None:
        if max_images < 1:
            raise ValueError(f"max_images must be at least 1, got {max_images}")
        self.root = Path(root)
        self.max_images = max_images
        self.enabled = enabled
        self._lock = threading.Lock()

    def labels(self) -> dict[str, Any]:
        path = self.root / LABELS
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return _header()
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            log.warning("dataset %s is unreadable (%s): starting a new one", path, err)
            return _header()
        if not isinstance(data, dict) or not isinstance(data.get("images"), list):
            return _header()
        # hand-edited: an entry that is no JSON object is no photo (and is dropped at the next add)
        data["images"] = [e for e in data["images"] if isinstance(e, dict)]
        return data

    def __len__(self) -> int:
        return len(self.labels()["images"])

    def counts(self) -> dict[str, int]:
        """How many photos and dice the set holds, how many of those dice the players added (the camera
        missed them) and how many of the camera's dice they removed as no die."""
        out = {"photos": 0, "dice": 0, "added": 0, "removed": 0}
        for entry in self.labels()["images"]:
            dice = entry.get("dice") if isinstance(entry.get("dice"), list) else []
            gone = entry.get("removed")
            out["photos"] += 1
            out["dice"] += len(dice)
            out["added"] += sum(isinstance(d, dict) and d.get("added") is True for d in dice)
            out["removed"] += gone if isinstance(gone, int) and not isinstance(gone, bool) and gone > 0 else 0
        return out

    def add(self, jpeg: bytes | None, reading: Mapping[str, Any], *, width: int, height: int,
            finder: str | None = None, removed: int = 0) -> str | None:
        """Keep one confirmed reading (``vision`` JSON: its dice with bbox, sides, value, ``manual`` and
        ``added``) and the frame it was read from (JPEG bytes, not annotated), with the ``finder`` that read
        it and how many of its dice the players ``removed``. Returns the file name, or ``None`` when nothing
        was kept (turned off, no frame, no die, or a frame too big)."""
        if not self.enabled or not jpeg or len(jpeg) > MAX_FRAME_BYTES:
            return None
        dice = []
        for d in list(reading.get("dice") or [])[:MAX_DICE]:
            if not isinstance(d, Mapping) or not isinstance(d.get("bbox"), list | tuple):
                continue
            bbox = [int(v) for v in d["bbox"][:4]]
            item: dict[str, Any] = {"sides": d.get("sides"), "value": d.get("value"), "bbox": bbox}
            for flag in ("manual", "added"):
                if d.get(flag):
                    item[flag] = True
            dice.append(item)
        if not dice:
            return None
        with self._lock:
            data = self.labels()
            images = self.root / "images"
            images.mkdir(parents=True, exist_ok=True)
            name = f"images/{_newest(data) + 1:06d}.jpg"
            (self.root / name).write_bytes(jpeg)
            entry: dict[str, Any] = {"file": name, "width": width, "height": height, "dice": dice,
                                     "note": "confirmed at the table"}
            if finder is not None:
                entry["finder"] = finder
            if removed:
                entry["removed"] = int(removed)
            data["images"].append(entry)
            while len(data["images"]) > self.max_images:
                old = data["images"].pop(0)
                (self.root / str(old.get("file", ""))).unlink(missing_ok=True)
            tmp = self.root / (LABELS + ".tmp")
            tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
            tmp.replace(self.root / LABELS)
            return name

    def progress(self, job: str, *, finder: str | None = None) -> tuple[int, bool]:
        """(``since(job)``, ``marked(job)``) from one reading of the set and its marks."""
        with self._lock:
            data, marked = self.labels(), self._marks().get(job)
        if not (isinstance(marked, int) and not isinstance(marked, bool) and 0 <= marked <= _newest(data)):
            marked = None   # never marked, or a mark of a set since emptied and numbered anew
        return sum(1 for e in data["images"] if _number(e) > (marked or 0)
                   and (finder is None or e.get("finder") == finder)), marked is not None

    def since(self, job: str, *, finder: str | None = None) -> int:
        """The set's photos confirmed since ``mark(job)`` was last called, whatever restarts of the companion
        lie between (all of them when it never was, or when the set was emptied and numbered anew since);
        with ``finder``, only those that finder read (their ``"finder"``)."""
        return self.progress(job, finder=finder)[0]

    def marked(self, job: str) -> bool:
        """Whether ``mark(job)`` was ever called on this set (and it was not emptied since)."""
        return self.progress(job)[1]

    def newest(self) -> int:
        """The newest photo's number (0: none kept)."""
        with self._lock:
            return _newest(self.labels())

    def mark(self, job: str, through: int) -> None:
        """``job`` ran on the photos up to number ``through`` (``newest()`` when it started): ``since(job)``
        counts the photos after it. A job marks when it ends, so one cut short (the companion switched off
        meanwhile) is run again at the next confirm. A mark that cannot be written (a full card) is logged:
        the job then only comes round sooner."""
        with self._lock:
            marks = {**self._marks(), job: int(through)}
            tmp = self.root / (MARKS + ".tmp")
            try:
                self.root.mkdir(parents=True, exist_ok=True)
                tmp.write_text(json.dumps(marks), encoding="utf-8")
                tmp.replace(self.root / MARKS)
            except OSError as err:
                log.warning("could not keep where %s ended in %s (%s)", job, self.root / MARKS, err)

    def _marks(self) -> dict[str, Any]:
        path = self.root / MARKS
        try:
            marks = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            log.warning("%s is unreadable (%s): the automatic jobs count from the next confirm", path, err)
            return {}
        return marks if isinstance(marks, dict) else {}

    def photos(self, data: Mapping[str, Any]) -> Iterator[tuple[dict[str, Any], Path]]:
        """Each entry of ``data`` (labels.json) with its photo's path, for the entries whose file lies in
        the set's own ``images`` folder (a hand-edited ``../`` is not followed)."""
        images = (self.root / "images").resolve()
        for entry in data["images"]:
            src = self.root / str(entry.get("file", ""))
            if src.resolve().parent == images:
                yield entry, src

    def write_zip(self, out: BinaryIO) -> int:
        """The set as a zip (``labels.json`` and its photos, stored: JPEGs do not shrink) written to ``out``;
        returns how many photos. The labels are read under the lock, the photos after it (a confirm is not
        held up); a photo dropped meanwhile is left out, with its labels."""
        with self._lock:
            data = self.labels()
        kept = []
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
            for entry, src in self.photos(data):
                try:
                    archive.write(src, str(entry["file"]))
                except OSError:
                    continue
                kept.append(entry)
            archive.writestr(LABELS, json.dumps({**data, "images": kept}, indent=1))
        return len(kept)

    def export(self, dest: Path) -> int:
        """Copy the set (labels.json and its photos) to ``dest``; returns how many photos."""
        with self._lock:
            data = self.labels()
            dest = Path(dest)
            (dest / "images").mkdir(parents=True, exist_ok=True)
            kept = []
            for entry, src in self.photos(data):
                if src.is_file():
                    shutil.copyfile(src, dest / entry["file"])
                    kept.append(entry)
            (dest / LABELS).write_text(json.dumps({**data, "images": kept}, indent=1), encoding="utf-8")
            return len(kept)
