"""The focus figure (``vision.sharpness``) on real photos: it falls as the lens blurs the picture, whatever
the dice's contrast, and the camera's noise barely moves it; an empty picture has none; a 12 MP frame is
measured in its middle only."""

from itertools import pairwise

import cv2
import numpy as np
import pytest

from vision import InvalidVisionInput, sharpness
from vision.data import photo_set
from vision.focus import EDGES_NEEDED, MIDDLE_SIDE


def _real_photos():
    from companion.demo import DEMO_DIR

    demo = [cv2.imread(str(p)) for p in sorted(DEMO_DIR.glob("*.jpg"))[:2]]
    return demo + [p.load() for name in ("nell", "aws", "burks") for p in photo_set(name)[::97][:2]]


def _blurred(image, sigma):
    return cv2.GaussianBlur(image, (0, 0), sigma)


@pytest.fixture(scope="module")
def real(photos):
    return _real_photos()


def test_the_figure_falls_as_the_picture_blurs(real):
    for image in real:
        figures = [sharpness(image if s == 0 else _blurred(image, s)).sharpness for s in (0, 0.75, 1.5, 3.0)]
        assert all(f is not None for f in figures)
        for sharper, softer in pairwise(figures):
            assert softer < 0.95 * sharper, figures
        assert figures[0] > 1.9, figures  # a photo in focus, as its set was shot


def test_noise_and_contrast_barely_move_it(real):
    rng = np.random.default_rng(7)
    for image in real:
        sharp = sharpness(image).sharpness
        noisy = np.clip(image + rng.normal(0, 12, image.shape), 0, 255).astype(np.uint8)
        pale = (image * 0.5 + 64).astype(np.uint8)
        assert sharpness(noisy).sharpness == pytest.approx(sharp, rel=0.04)
        assert sharpness(pale).sharpness == pytest.approx(sharp, rel=0.04)
        # and a picture out of focus by 1.5 px stays below the sharp one with the noise on top
        blurred = np.clip(_blurred(image, 1.5) + rng.normal(0, 12, image.shape), 0, 255).astype(np.uint8)
        assert sharpness(blurred).sharpness < 0.85 * sharp


def test_a_picture_without_edges_has_no_figure():
    rng = np.random.default_rng(3)
    empty = np.clip(200 + rng.normal(0, 12, (480, 640, 3)), 0, 255).astype(np.uint8)  # noise alone
    focus = sharpness(empty)
    assert focus.sharpness is None and focus.edges < EDGES_NEEDED
    assert focus.to_json() == {"sharpness": None, "edges": focus.edges}


def test_a_large_frame_is_measured_in_its_middle(real):
    image = real[0]
    big = np.tile(image, (3000 // image.shape[0] + 1, 4000 // image.shape[1] + 1, 1))[:3000, :4000]
    y, x = (3000 - MIDDLE_SIDE) // 2, (4000 - MIDDLE_SIDE) // 2
    middle = np.ascontiguousarray(big[y:y + MIDDLE_SIDE, x:x + MIDDLE_SIDE])
    assert sharpness(big) == sharpness(middle)


@pytest.mark.parametrize("bad", [None, np.zeros((480, 640), np.uint8), np.zeros((480, 640, 3), np.float32),
                                 np.zeros((4, 4, 3), np.uint8)])
def test_what_is_not_a_frame_is_refused(bad):
    with pytest.raises(InvalidVisionInput):
        sharpness(bad)
