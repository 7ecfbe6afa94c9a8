"""The finder's looks at a large frame halve it first (vision.finder._shrunk): OpenCV's area average at a
ratio that is not a whole number cost half the time of a Pi HQ camera frame. The halvings must give what a
direct average gives, be shared by the frame's looks, and find the same dice."""

import cv2
import numpy as np

from vision import finder
from vision.data import photo_set
from vision.finder import _shrunk, find_objects


def _big(photo, size):
    return cv2.resize(photo.load(), size, interpolation=cv2.INTER_CUBIC)


def test_halved_then_averaged_is_the_direct_average(photos):
    frame = _big(photo_set("matteop65")[0], (2028, 1520))
    for size in ((160, 128), (512, 384), (1024, 768)):
        got = _shrunk([frame], size).astype(np.int16)
        want = cv2.resize(frame, size, interpolation=cv2.INTER_AREA).astype(np.int16)
        assert got.shape == want.shape
        diff = np.abs(got - want)
        assert diff.mean() < 1.0 and diff.max() <= 24, (size, diff.mean(), diff.max())


def test_the_looks_of_one_frame_share_its_halvings():
    frame = np.zeros((3000, 4000, 3), np.uint8)
    levels = [frame]
    _shrunk(levels, (512, 384))
    assert [lv.shape[:2] for lv in levels] == [(3000, 4000), (1500, 2000), (750, 1000)]
    _shrunk(levels, (160, 128))
    assert [lv.shape[:2] for lv in levels][-2:] == [(375, 500), (187, 250)]
    assert len(levels) == 5
    again = levels[1]
    _shrunk(levels, (512, 384))
    assert levels[1] is again and len(levels) == 5, "nothing is halved twice"


def test_a_frame_smaller_than_twice_the_look_is_resized_once():
    frame = np.full((480, 640, 3), 7, np.uint8)
    levels = [frame]
    out = _shrunk(levels, (512, 384))
    assert out.shape == (384, 512, 3) and len(levels) == 1
    assert _shrunk([frame], (640, 480)) is frame, "a look at the frame's own size copies nothing"
    up = _shrunk([frame], (1024, 768))
    assert up.shape == (768, 1024, 3) and int(up[100, 100, 0]) == 7


def test_a_pi_hq_frame_finds_what_the_direct_average_finds(photos, monkeypatch):
    """Ten matteop65 photos enlarged to the Pi HQ camera's 2028x1520: the halved looks find the labelled
    dice the direct average found (the finder misses 2 of the 94 dice of 25 such photos either way)."""
    def hits() -> int:
        n = 0
        for photo in chosen:
            image = photo.load()
            k = 2028 / image.shape[1]
            found = find_objects(cv2.resize(image, (2028, 1520), interpolation=cv2.INTER_CUBIC))
            n += sum(any(abs(f.cx - (x + w / 2) * k) < w * k / 2 and abs(f.cy - (y + h / 2) * k) < h * k / 2
                         for f in found) for x, y, w, h in (d.bbox for d in photo.dice))
        return n

    chosen = [p for p in photo_set("matteop65") if len(p.dice) >= 3][:10]
    halved = hits()
    monkeypatch.setattr(finder, "_shrunk", lambda levels, size: cv2.resize(levels[0], size,
                                                                          interpolation=cv2.INTER_AREA))
    direct = hits()
    assert halved >= direct >= 30, (halved, direct)


def test_the_networks_input_is_opencvs_blob_to_the_bit(photos):
    """``finder.blob`` replaces ``cv2.dnn.blobFromImages`` (a sixth of its time): the same numbers, laid out
    contiguously (a strided array costs ``setInput`` a copy), for one frame and for a batch of crops."""
    frame = photo_set("matteop65")[0].load()
    crops = [np.ascontiguousarray(frame[y:y + 40, x:x + 40]) for x, y in ((0, 0), (31, 17), (200, 100))]
    for images in ([frame], crops, [np.ascontiguousarray(np.rot90(c)) for c in crops]):
        got = finder.blob(images)
        assert got.dtype == np.float32 and got.flags["C_CONTIGUOUS"]
        assert np.array_equal(got, cv2.dnn.blobFromImages(images, 1 / 255.0))
