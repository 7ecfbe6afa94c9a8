"""Cubes dressed in real photographed faces (``tools/v3_data.face_pool``, ``realcube_render``): oblique pip
d6s for the face reader whose top and side faces are real faces of the training photos. Training only;
these tests hold what the trainer relies on: each die is labelled with the face that lies on top, the face
opposite it never shows, the top lies above the die's middle as a tilted camera sees it, and aws (whose
boxes take in the side faces) gives no face."""

import numpy as np

from tests.vision3.training_tools import v3_data

#: one flat colour a value
COLOURS = {1: (255, 0, 0), 2: (0, 255, 0), 3: (0, 0, 255), 4: (255, 255, 0), 5: (255, 0, 255),
           6: (0, 255, 255)}


def _flat_pool(dark: int = 0) -> v3_data.FacePool:
    """A face a value, each of one colour; the face of value ``dark`` black."""
    pool = v3_data.FacePool()
    for value, colour in COLOURS.items():
        face = np.zeros((v3_data.FACE_TEXTURE, v3_data.FACE_TEXTURE, 3), np.uint8)
        face[:] = (0, 0, 0) if value == dark else colour
        pool.add("nell", value, face)
    return pool


def _shows(other: v3_data.Sample, s: v3_data.Sample, box: tuple[int, int, int, int]) -> np.ndarray:
    x0, y0, x1, y1 = box
    return np.abs(other.image[y0:y1, x0:x1].astype(int) - s.image[y0:y1, x0:x1]).max(axis=2) > 30


def test_each_die_shows_its_top_and_never_the_face_under_it():
    # where a face of value k shows is where the tray changes when that face is painted black
    renders = {k: [v3_data.realcube_render(i, _flat_pool(dark=k)) for i in range(10)] for k in range(7)}
    dice = above = 0
    for index, s in enumerate(renders[0]):
        assert s is not None and s.source == "realcube"
        h, w = s.image.shape[:2]
        for cx, cy, bw, bh, value in s.objects:
            assert value in COLOURS
            x0, y0, x1, y1 = int(cx - bw / 2), int(cy - bh / 2), int(cx + bw / 2) + 1, int(cy + bh / 2) + 1
            assert min(x0, y0) >= 0 and x1 <= w + 1 and y1 <= h + 1

            area = (y1 - y0) * (x1 - x0)
            top = _shows(renders[value][index], s, (x0, y0, x1, y1))
            assert top.sum() > 0.15 * area, (index, value)
            assert _shows(renders[7 - value][index], s, (x0, y0, x1, y1)).sum() < 0.01 * area, (index, value)
            above += np.nonzero(top)[0].mean() <= (y1 - y0) / 2 + 1
            dice += 1
    assert dice >= 25
    assert above >= 0.9 * dice     # the camera leans toward the far side: a die's top is its upper part


def test_renders_replay_and_need_every_value():
    pool = _flat_pool()
    assert np.array_equal(v3_data.realcube_render(5, pool).image, v3_data.realcube_render(5, pool).image)
    partial = v3_data.FacePool()
    partial.add("nell", 1, np.zeros((v3_data.FACE_TEXTURE, v3_data.FACE_TEXTURE, 3), np.uint8))
    assert v3_data.realcube_render(0, partial) is None


def test_the_pool_takes_top_faces_from_overhead_sources_only():
    image = np.full((200, 200, 3), 90, np.uint8)
    boxed = [(100.0, 100.0, 40.0, 40.0, 3), (20.0, 20.0, 60.0, 60.0, 2), (150.0, 150.0, 30.0, 30.0, -1)]
    nell = v3_data.Sample("nell", "a.jpg", image, list(boxed))
    aws = v3_data.Sample("aws", "b.jpg", image, list(boxed))
    pool = v3_data.face_pool([nell, aws])
    # the die cut by the photo's edge and the unclear one are no face; aws's boxes hold side faces
    assert set(pool.faces) == {("nell", 3)}
    assert pool.faces[("nell", 3)][0].shape == (v3_data.FACE_TEXTURE, v3_data.FACE_TEXTURE, 3)
