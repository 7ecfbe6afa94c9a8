"""benchmarks/camera_probe.py: its as-shot look counts what vision_eval counts, its looks move the boxes with
the pixels, and its enlargement puts the die where and as large as it says."""

import numpy as np

from tests.helpers import benchmark

camera_probe = benchmark("camera_probe")
vision_eval = benchmark("vision_eval")


def test_as_shot_counts_what_vision_eval_counts(photos):
    from vision import read_table
    from vision.data import photo_set

    (row,) = camera_probe.probe_camera("nell", 25, ["as-shot"])
    models = vision_eval.leave_out_models("nell")
    r = vision_eval.evaluate("nell", photo_set("nell")[::25], lambda im: read_table(im, models=models))
    assert row["photos"] == r["frames"] == 10
    assert row["dice"] == r["labelled"]
    assert row["found_pct"] == round(100 * r["found"] / r["labelled"], 2)
    assert row["phantom_per_photo"] == round(r["phantom"] / r["frames"], 3)


def test_the_looks_that_move_pixels_move_the_boxes():
    rng = np.random.default_rng(0)
    image = np.zeros((120, 200, 3), np.uint8)
    image[30:50, 140:170] = 255                          # a white box at x 140, y 30, 30 x 20
    box = (140.0, 30.0, 30.0, 20.0)
    for look in ("turned", "closer", "farther"):
        out, (moved,) = camera_probe.LOOKS[look](image, [box], rng)
        x, y, w, h = (round(v) for v in moved)
        inside = out[y + 2 : y + h - 2, x + 2 : x + w - 2]
        assert inside.size and inside.min() > 200, look
        assert out.sum() < 2 * inside.sum() + 1e6, look   # and little of it lies outside


def test_enlarged_centres_the_die_at_the_size_asked():
    image = np.zeros((400, 400, 3), np.uint8)
    image[150:190, 220:260] = 255                        # a 40 px die centred at (240, 170)
    frame = camera_probe.enlarged(image, 240, 170, 40, 0.5, (640, 480))
    ys, xs = np.nonzero(frame[:, :, 0] > 128)
    assert abs(xs.mean() - 320) < 2 and abs(ys.mean() - 240) < 2
    assert abs((xs.max() - xs.min() + 1) - 240) <= 3     # half the 480 px short side


def test_the_still_looks_are_the_mean_of_frames_each_with_its_own_noise():
    rng = np.random.default_rng(1)
    image = np.full((120, 160, 3), 128, np.uint8)
    for one, still in (("noisy", "noisy-still"), ("dim-noisy", "dim-noisy-still")):
        single, _ = camera_probe.LOOKS[one](image, [], rng)
        mean, _ = camera_probe.LOOKS[still](image, [], rng)
        assert abs(float(single.mean()) - float(mean.mean())) < 1.5, one        # the same exposure
        assert 0.4 < float(mean.std()) / float(single.std()) < 0.6, one         # noise halved: four frames
