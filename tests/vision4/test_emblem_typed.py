"""A polyhedral die the face reader (which learnt d6 faces) calls an emblem is shown to the type reader,
and read as a polyhedral die when that reader is sure it is not a d6 (``vision.learned._emblems_typed``);
a drawn logo stays an emblem to ask (tests/vision3/test_teach_found.py), and no real d6 set read
otherwise (docs/vision-poly.md)."""

import numpy as np
import pytest

from vision import learned, read_table
from vision.faces import read_faces
from vision.finder import find_objects
from vision.poly.synth import scene


def _near(box: tuple[float, float, float, float], x: float, y: float) -> bool:
    return abs(box[0] + box[2] / 2 - x) < 20 and abs(box[1] + box[3] / 2 - y) < 20


def _frame(seed: int) -> object:
    """One rendered frame of its own seed (seeds from 7171700 up are searched for cases, never reported)."""
    return scene(np.random.default_rng(seed), count=10, width=1280, height=960, profile="table")


@pytest.mark.parametrize(("seed", "kind", "value", "corner", "sides", "read"),
                         [(7172820, "d4", 1, (420, 483), 4, 1)])
def test_a_polyhedral_die_the_face_reader_calls_an_emblem_is_read_by_its_type(monkeypatch, seed, kind, value,
                                                                             corner, sides, read):
    """A d4 "1". The face reader's likeliest is "emblem", "numeral" next; the type reader says d4. (Frame 26
    of seed 717171, a d4 "2", was the case until the ringed reader of the sixty-second session, which calls
    it a numeral outright, as the 56 px readers of the fifty-third did frame 7's d10 "0"; then seed 7171832's
    barrel d4 "1" until the sixty-third session's finder, at whose box the reader calls it a numeral too.
    The frames of seeds 7171833-7172482, one each, gave seed 7172482's d4 "3", the case until the sixty-eighth
    session's finder (finder12), at whose box the reader no longer calls it an emblem; 7172085's d4 "4" was
    another, but with the rule off it was not reported at all, where this test wants the emblem the players
    are asked. Seeds 7172483-7172820 gave this one with finder12; 7172638's d4 "1" was called an emblem too,
    but the type reader was not sure enough that it is no d6.)"""
    s = _frame(seed)
    (truth,) = [d for d in s.dice if (d.kind, d.value, d.bbox[:2]) == (kind, value, corner)]
    tx, ty = truth.bbox[0] + truth.bbox[2] / 2, truth.bbox[1] + truth.bbox[3] / 2
    found = find_objects(s.image)
    (i,) = [i for i, f in enumerate(found) if _near(f.box(s.image.shape), tx, ty)]
    (r,) = read_faces(s.image, [found[i]])
    assert learned._label(r) == "emblem" and r.p("numeral") >= learned.EMBLEM_NUMERAL, "the premise"

    (die,) = [d for d in read_table(s.image).dice if _near(d.bbox, tx, ty)]
    assert (die.sides, die.value) == (sides, read)
    assert die.confidence <= learned.EMBLEM_TYPED_MOST

    monkeypatch.setattr(learned, "EMBLEM_TYPED", 1.01)   # the rule off: an emblem to ask, no value
    (die,) = [d for d in read_table(s.image).dice if _near(d.bbox, tx, ty)]
    assert (die.sides, die.value) == (6, None)
