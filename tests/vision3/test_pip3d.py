"""Pip d6s drawn in 3D (``vision.poly.synth.render(pips=True)``, ``tools/v3_data.pip3d_render``): the face
reader's training renders of dice photographed off the vertical, whose side faces carry pips beside the top.
Training only; these tests hold what the trainer relies on: the layouts are a die's, a face's value is a
real die's (opposite faces add up to 7, so a side never shows the top's opposite), and each die is labelled
with its top."""

import cv2
import numpy as np
import pytest

from tests.vision3.training_tools import v3_data
from vision.faces import CLASSES
from vision.poly import synth


@pytest.mark.parametrize("value", range(1, 7))
def test_each_face_has_its_number_of_pips(value):
    glyph = synth._pip_glyph(value, 0.55, 0.08)
    count, _, _, centres = cv2.connectedComponentsWithStats((glyph > 0.5).astype(np.uint8))
    assert count - 1 == value
    # a die's layouts are symmetric through the face's centre
    assert np.allclose(centres[1:].mean(axis=0), (synth.GLYPH - 1) / 2, atol=1.0)


def _stamped(monkeypatch):
    seen = []
    real = synth._pip_glyph

    def record(value, spread, radius):
        seen.append(value)
        return real(value, spread, radius)

    monkeypatch.setattr(synth, "_pip_glyph", record)
    return seen


def test_a_tilted_die_shows_its_top_and_sides_never_the_opposite_face(monkeypatch):
    sides_seen = 0
    for seed in range(20):
        seen = _stamped(monkeypatch)
        r = synth.render(np.random.default_rng(seed), kind="d6", pips=True, size=160, tilt=45)
        assert r.value in seen, (seed, r.value, seen)
        assert 7 - r.value not in seen, (seed, r.value, seen)
        assert len(seen) == len(set(seen)), seen
        sides_seen += len(seen) > 1
    assert sides_seen >= 15


def test_a_see_through_die_carries_every_value_once(monkeypatch):
    checked = 0
    for seed in range(60):
        seen = _stamped(monkeypatch)
        synth.render(np.random.default_rng(seed), kind="d6", pips=True, profile="brands", tilt=30)
        if len(seen) == 6:     # translucent: the far faces are drawn too
            assert sorted(seen) == [1, 2, 3, 4, 5, 6]
            checked += 1
    assert checked >= 5


def test_pips_are_drawn_on_a_d6_only():
    with pytest.raises(ValueError, match="pips are drawn on a d6 only, not on 'd20'"):
        synth.render(np.random.default_rng(0), kind="d20", pips=True)


def test_pip3d_trays_label_each_die_with_its_top_value():
    for index in range(6):
        s = v3_data.pip3d_render(index)
        h, w = s.image.shape[:2]
        assert 1 <= len(s.objects) <= 8
        for cx, cy, bw, bh, label in s.objects:
            assert CLASSES[label] in ("1", "2", "3", "4", "5", "6")
            assert cx - bw / 2 >= 0 and cx + bw / 2 <= w and cy - bh / 2 >= 0 and cy + bh / 2 <= h
    # the same index draws the same tray (a training run can be repeated)
    assert np.array_equal(v3_data.pip3d_render(3).image, v3_data.pip3d_render(3).image)


def test_pip3d_top_boxes_centre_each_die_on_its_top_face():
    moved = 0
    for index in range(6):
        whole, top = v3_data.pip3d_render(index), v3_data.pip3d_render(index, top=True)
        assert np.array_equal(whole.image, top.image)
        assert len(whole.objects) == len(top.objects)
        for (cx, cy, bw, bh, label), (tx, ty, tw, th, tlabel) in zip(whole.objects, top.objects, strict=True):
            # the same die, the same size and class: only the centre moves, and it stays on the die
            assert (tw, th, tlabel) == (bw, bh, label)
            assert abs(tx - cx) <= bw / 2 and abs(ty - cy) <= bh / 2
            moved += np.hypot(tx - cx, ty - cy) > 0.05 * max(bw, bh)
    # the renders are tilted 0-60 degrees: most tops lie off their silhouette's centre
    assert moved >= 10
