"""Trays of numeral d6s (``tools/v3_data.numeral_d6_render``, ``train_faces.py --numeral-d6``): the face
reader's training renders of d6s that carry numerals, not pips, each die of class ``numeral`` (Vision II reads
its type and value). Training only; these tests hold what the trainer relies on."""

import numpy as np

from tests.vision3.training_tools import v3_data
from vision.faces import CLASSES
from vision.poly import synth


def test_numeral_d6_trays_are_numeral_d6s_boxed_inside_the_frame(monkeypatch):
    drawn = []
    real = synth.render

    def record(rng, *args, **kwargs):
        drawn.append((kwargs.get("kind"), kwargs.get("pips", False)))
        return real(rng, *args, **kwargs)

    monkeypatch.setattr(synth, "render", record)
    samples = [v3_data.numeral_d6_render(index) for index in range(6)]
    monkeypatch.undo()
    assert drawn and set(drawn) == {("d6", False)}          # every die a d6 with numerals
    assert sum(len(s.objects) for s in samples) == len(drawn)
    for s in samples:
        h, w = s.image.shape[:2]
        assert 1 <= len(s.objects) <= 8
        for cx, cy, bw, bh, label in s.objects:
            assert CLASSES[label] == "numeral"
            assert cx - bw / 2 >= 0 and cx + bw / 2 <= w and cy - bh / 2 >= 0 and cy + bh / 2 <= h
    assert not np.array_equal(samples[0].image, samples[1].image)
    # the same index draws the same tray (a training run can be repeated)
    assert np.array_equal(v3_data.numeral_d6_render(2).image, v3_data.numeral_d6_render(2).image)


def test_another_seed_draws_other_trays_of_the_same_kind():
    # benchmarks/pair_confusions.py measures on the tuning seed's trays: the trainer's stay what they were
    default = v3_data.numeral_d6_render(3)
    assert np.array_equal(default.image, v3_data.numeral_d6_render(3, seed=v3_data.NUMERAL_D6_SEED).image)
    other = v3_data.numeral_d6_render(3, seed=424242)
    assert not np.array_equal(default.image, other.image)
    assert other.objects and all(CLASSES[label] == "numeral" for *_, label in other.objects)
