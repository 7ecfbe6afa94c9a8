"""Vision I's rule reader and the learned reader's pip counter give the readings recorded before
their thresholds were named (issue 17: every number in a comparison of ``vision/table.py`` and
``vision/pips.py`` became a named parameter, with no change of behaviour): the same dice, values and
boxes, confidences to ``FLOAT_SLACK`` (the last digits of a float32 network's output differ between
processors).

``rules_recorded.json`` holds, for a few real photos of each set and a few drawn frames, every die and
token ``read_table(reader="rules")`` reports (boxes, values, full-precision confidences) and the pip
faces ``group_faces(find_pips(crop))`` sees on the crops the learned reader's pip counter reads. A change
that is meant to change readings re-records it (``python3 -m tests.vision.test_rules_recorded
--record``) and says why in its commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from vision import read_table, synth
from vision.data import photo_set
from vision.faces import crop
from vision.finder import Found
from vision.learned import PIP_CROP, PIP_WORK
from vision.pips import find_pips, group_faces

RECORDED = Path(__file__).with_name("rules_recorded.json")
#: (set, every Nth photo, how many): a few photos of every real set, quick to read by the rules
CHOSEN = (("matteop65", 37, 8), ("chase", 41, 6), ("aws", 29, 6), ("nell", 31, 6), ("burks", 23, 5))
#: crops around these boxes (cx, cy, side) of the first photo of each set go to the pip counter
COUNTER_SPOTS = 6


def _drawn(seed: int) -> np.ndarray:
    kinds = ("felt", "wood", "white", "black")
    img = synth.tray(640, 480, kind=kinds[seed % len(kinds)])
    rng = np.random.default_rng(seed)
    for i in range(8):
        synth.draw_die(img, 70 + 70 * i, 120 + 200 * (i % 2) + rng.uniform(-20, 20), 30 + 6 * (i % 5),
                       int(rng.integers(1, 7)), angle=float(rng.uniform(0, 90)))
    return img


def _names() -> list[str]:
    out = []
    for name, step, n in CHOSEN:
        out += [f"{name}/{p.path.name}" for p in photo_set(name)[::step][:n]]
    return out + [f"drawn/{seed}" for seed in range(4)]


def _image(name: str) -> np.ndarray:
    kind, file = name.split("/")
    if kind == "drawn":
        return _drawn(int(file))
    return next(p for p in photo_set(kind) if p.path.name == file).load()


def _photos() -> list[tuple[str, np.ndarray]]:
    return [(name, _image(name)) for name in _names()]


def _reading(image: np.ndarray) -> dict[str, Any]:
    r = read_table(image, reader="rules")
    return {"dice": [[list(d.bbox), d.sides, d.value, float(d.confidence), bool(d.percentile)]
                     for d in r.dice],
            "tokens": [[list(t.bbox), t.face, float(t.confidence)] for t in r.tokens]}


def _counted(image: np.ndarray, dice: list[list[Any]]) -> list[list[Any]]:
    """The pip counter's faces on the crops of the first ``COUNTER_SPOTS`` dice read."""
    out = []
    for (x, y, w, h), *_ in dice[:COUNTER_SPOTS]:
        f = Found(x + w / 2, y + h / 2, float(w), float(h), 1.0)
        square = crop(image, f, scale=PIP_CROP, size=PIP_WORK)
        out.append([[f.value, float(f.confidence), [float(v) for v in f.box], len(f.pips)]
                    for f in group_faces(find_pips(square), square)])
    return out


def record() -> dict[str, Any]:
    out = {}
    for name, image in _photos():
        got = _reading(image)
        got["counted"] = _counted(image, got["dice"])
        out[name] = got
    return out


#: the recorded photos' names (one test each: a photo reads in a few seconds on a loaded machine)
NAMES = sorted(json.loads(RECORDED.read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def recorded() -> dict[str, Any]:
    return dict(json.loads(RECORDED.read_text(encoding="utf-8")))


def test_the_recorded_photos_are_the_chosen_ones(photos):
    assert sorted(_names()) == NAMES


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_the_rule_reader_reads_exactly_as_recorded(photos, recorded, name):
    image = _image(name)
    got = json.loads(json.dumps(_reading(image)))
    want = recorded[name]
    assert _same(got["dice"], want["dice"])
    assert _same(got["tokens"], want["tokens"])
    assert _same(json.loads(json.dumps(_counted(image, want["dice"]))), want["counted"])


#: confidences are compared to this: the networks behind the rules (Vision II's) compute in float32
#: through cv2.dnn, whose SIMD paths differ between processors (recorded on one machine, an AMD EPYC read
#: 0.9242091771626884 as 0.9242091735722586); a change of behaviour moves them far more
FLOAT_SLACK = 1e-6


def _same(got: Any, want: Any) -> bool:
    """``got`` equals ``want``: the same structure, ints, strings, booleans and None, floats within
    ``FLOAT_SLACK``."""
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(_same, got, want))
    if isinstance(want, float) and not isinstance(got, bool) and isinstance(got, int | float):
        return abs(got - want) <= FLOAT_SLACK
    return type(got) is type(want) and got == want


def test_the_comparison_tells_a_changed_reading():
    die = [[716, 713, 218, 221], 12, 3, 0.9242091771626884, False]
    assert _same([[716, 713, 218, 221], 12, 3, 0.9242091735722586, False], die)
    assert not _same([[716, 713, 218, 221], 12, 3, 0.9242, False], die)
    assert not _same([[716, 713, 218, 221], 12, 4, 0.9242091771626884, False], die)
    assert not _same([[716, 713, 218, 222], 12, 3, 0.9242091771626884, False], die)
    assert not _same([[716, 713, 218, 221], 12, None, 0.9242091771626884, False], die)
    assert not _same([[716, 713, 218, 221], 12, 3, 0.9242091771626884, True], die)
    assert not _same([die], [die, die])


if __name__ == "__main__" and "--record" in sys.argv:
    RECORDED.write_text(json.dumps(record(), indent=None, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {RECORDED}")
