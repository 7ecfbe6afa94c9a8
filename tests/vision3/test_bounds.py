"""Nothing a frame shows makes the reader take unbounded time: the work is bounded by the frame's size and
by counts (``vision.finder.MAX_OBJECTS``, ``vision.learned.MAX_SECOND_OPINIONS``, ``MAX_POLY``,
``MAX_TURNED``), never by
the number of pip-like things in it. The speed targets themselves are measured by
``benchmarks/vision_eval.py`` (time per frame at 640x480, 2028x1520 and 12 MP), not here; the wall-clock
bound below is ten times the target and only catches a return of the old behaviour (a mesh basket took
over 60 s per 512x384 frame with Vision I's rules).
"""

import time

import cv2
import numpy as np
import pytest

from vision import faces, learned, read_table, synth
from vision.faces import CLASSES, FaceReading
from vision.finder import MAX_INPUT_PIXELS, MAX_OBJECTS, Found, _input_size


def mesh(w, h, pitch=9, hole=0.35, angle=20):
    """A mesh basket: dark round holes on a light grid, turned by ``angle`` degrees (a drawing)."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    u, v = xx * c + yy * s, -xx * s + yy * c
    d = np.hypot((u % pitch) - pitch / 2, (v % pitch) - pitch / 2)
    img = np.full((h, w, 3), 200, np.uint8)
    img[d < hole * pitch] = (30, 30, 30)
    return img


@pytest.mark.parametrize(("w", "h"), [(512, 384), (2028, 1520), (4000, 3000)])
def test_a_mesh_basket_is_read_in_bounded_time(w, h):
    frame = mesh(w, h)
    t0 = time.process_time()
    reading = read_table(frame)
    spent = time.process_time() - t0
    assert len(reading.dice) + len(reading.tokens) <= MAX_OBJECTS
    assert spent < 10.0, spent        # target: well under 1 s (benchmarks/vision_eval.py)


def test_the_finder_input_is_capped_whatever_the_scale():
    for scale in (0.01, 0.5, 1.0, 4.0, 50.0):
        iw, ih = _input_size(4000, 3000, scale)
        assert iw * ih <= MAX_INPUT_PIXELS * 1.1
        assert iw % 32 == 0 and ih % 32 == 0


def _crowd():
    """A felt tray of 352 drawn dice (more than ``MAX_OBJECTS`` and ``MAX_TURNED``)."""
    img = synth.tray(1600, 1200, kind="felt")
    rng = np.random.default_rng(3)
    for i in range(22):
        for j in range(16):
            synth.draw_die(img, 40 + 70 * i + rng.uniform(-5, 5), 40 + 72 * j, 44, int(rng.integers(1, 7)),
                           angle=float(rng.uniform(0, 90)))
    return img


def test_hundreds_of_dice_are_capped_and_second_opinions_too(monkeypatch):
    img = _crowd()
    calls = []
    real = learned.pip_count
    monkeypatch.setattr(learned, "pip_count", lambda frame, f: calls.append(1) or real(frame, f))
    reading = read_table(img)
    assert 0 < len(reading.dice) <= MAX_OBJECTS
    assert len(calls) <= learned.MAX_SECOND_OPINIONS
    sure = [d for d in reading.dice if d.confidence >= learned.SURE]
    assert len(sure) <= learned.MAX_SECOND_OPINIONS     # what the counter did not check is asked


def _readings(probabilities):
    """Face readings of a d6 value ("1" .. "6" in turn) at each given probability, the rest on "none"
    (under ``NONE_DROP``)."""
    out = []
    for k, p in enumerate(probabilities):
        v = np.zeros(len(CLASSES))
        v[CLASSES.index(str(1 + k % 6))] = p
        v[CLASSES.index("none")] = 1.0 - p
        out.append(FaceReading(v, np.ones(64) / 8.0))
    return out


@pytest.mark.parametrize("timed", [False, True], ids=["counts", "by the clock"])
def test_the_worst_frame_gives_the_pip_counter_a_bounded_number_of_crops(monkeypatch, timed):
    """The worst case for the second opinion: the finder's full ``MAX_OBJECTS``, every one a d6 read at
    ``SURE`` or more, large and crowded. The counter reads ``MAX_SECOND_OPINIONS`` crops of ``PIP_WORK``
    px (``MAX_TIMED_OPINIONS`` when the frame is read by a clock, here one whose time never runs out), no
    more, the least sure ones; readings under ``SURE`` (asked anyway) never reach it; the rest of the sure
    ones are capped at ``OVER_BUDGET``."""
    most = learned.MAX_TIMED_OPINIONS if timed else learned.MAX_SECOND_OPINIONS
    frame = synth.tray(4000, 3000, kind="wood")
    found = [Found(60 + 300 * (i % 13), 60 + 260 * (i // 13), 250, 250, 0.9) for i in range(MAX_OBJECTS)]
    rng = np.random.default_rng(5)
    probabilities = rng.uniform(learned.SURE, 1.0, MAX_OBJECTS)
    probabilities[::10] = rng.uniform(0.55, learned.SURE - 0.01, len(probabilities[::10]))  # not sure
    monkeypatch.setattr(learned, "find_objects", lambda frame, model: found)
    each = _readings(probabilities)
    where = {(round(f.cx, 3), round(f.cy, 3)): i for i, f in enumerate(found)}

    def index(f):
        """the object's place in ``found``, read at its box's centre or moved up to its top
        (``learned.read_tops``)"""
        at = (round(f.cx, 3), round(f.cy, 3))
        return where[at] if at in where else where[(at[0], round(f.cy + learned.TOP_READ * f.h, 3))]

    def read(frame, objects, model, **_):
        return [each[index(f)] for f in objects]

    monkeypatch.setattr(learned, "read_faces", read)
    crops, counted = [], []
    real_crop = learned.crop
    monkeypatch.setattr(learned, "crop", lambda *a, **k: crops.append(real_crop(*a, **k)) or crops[-1])
    real_count = learned.pip_count
    monkeypatch.setattr(learned, "pip_count", lambda frame, f: counted.append(found.index(f))
                        or real_count(frame, f))
    dice, _ = learned.read_view(frame, used=(lambda: 0.0) if timed else None)
    assert len(counted) == len(crops) == most
    assert all(c.shape == (learned.PIP_WORK, learned.PIP_WORK, 3) for c in crops)
    sure = sorted((p, i) for i, p in enumerate(probabilities) if p >= learned.SURE)
    assert len(sure) > most
    assert sorted(counted) == sorted(i for _, i in sure[:most])
    assert all(probabilities[i] >= learned.SURE for i in counted)
    by_place = {d[0]: d[3] for d in dice}
    for i, f in enumerate(found):
        conf = by_place[f.box(frame.shape)]
        assert conf <= probabilities[i] + 1e-9                      # never raised
        if probabilities[i] < learned.SURE:
            # asked anyway: left as read, reported through the card's bar (``learned._reported``)
            assert conf == pytest.approx(learned._reported(probabilities[i], faces.sure_from()))
        elif i not in counted:
            assert conf <= learned.OVER_BUDGET                      # unchecked: asked


def test_noise_and_flat_frames_give_valid_empty_or_bounded_readings():
    rng = np.random.default_rng(0)
    for frame in (np.zeros((480, 640, 3), np.uint8), np.full((1520, 2028, 3), 255, np.uint8),
                  rng.integers(0, 256, (1520, 2028, 3), dtype=np.uint8)):
        reading = read_table(frame)
        assert reading.width == frame.shape[1]
        assert len(reading.dice) <= MAX_OBJECTS
    blank = read_table(cv2.GaussianBlur(np.full((480, 640, 3), 120, np.uint8), (5, 5), 0))
    assert blank.dice == () and blank.tokens == ()


def test_dice_inside_the_boxes_of_dice_at_every_scale_are_read_in_bounded_time(photos):
    """The hardest frame for the finder's frame rules tried so far (``vision_eval.nested_frame``, which
    ``--time-only`` times): aws's 84-dice photo filling a 1536x1152 frame with copies at three other scales
    pasted over it, so that dice of many sizes lie in the middle of other objects' boxes
    (``vision.finder.HOLDS`` checks each box's contents). 0.85 s on one idle core; the bound here is ten
    times the issue's 1 s only to catch a return of quadratic work."""
    import importlib.util
    from pathlib import Path

    from vision.data import photo_set

    spec = importlib.util.spec_from_file_location(
        "vision_eval", Path(__file__).resolve().parents[2] / "benchmarks" / "vision_eval.py")
    assert spec is not None and spec.loader is not None
    vision_eval = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(vision_eval)
    frame = vision_eval.nested_frame(max(photo_set("aws"), key=lambda p: len(p.dice)))
    assert frame.shape == (1152, 1536, 3)
    t0 = time.process_time()
    reading = read_table(frame)
    spent = time.process_time() - t0
    assert 0 < len(reading.dice) + len(reading.tokens) <= MAX_OBJECTS
    assert spent < 10.0, spent


def test_past_most_the_screen_reading_stays_and_is_marked(monkeypatch):
    monkeypatch.setattr(faces, "PIP_ONE_TURN", 1.01)    # the cap is tested here: every pip face is turnable
    img = _crowd()
    found = learned.find_objects(img, model="finder")
    assert len(found) > 40
    read = []
    real = faces.read_crops
    monkeypatch.setattr(faces, "read_crops",
                        lambda crops, **k: read.append((len(crops), k)) or real(crops, **k))
    one_turn = real([faces.crop(img, f, size=faces.crop_side()) for f in found], turns=1, ensemble=False)
    whole = faces.read_faces(img, found, screen=learned.SCREEN)
    read.clear()
    capped = faces.read_faces(img, found, screen=learned.SCREEN, most=12)
    assert [n for n, k in read if k.get("turns", 4) > 1] == [12]       # twelve crops read at every turn
    past = [i for i, r in enumerate(capped) if not r.whole]
    screened = [i for i, r in enumerate(whole) if r.p("none") < learned.SCREEN]
    assert len(past) == len(screened) - 12
    kept = sorted(set(screened) - set(past))
    # the twelve read at every turn are those the one-turn look found least likely "none"; the others keep
    # that look
    assert max(one_turn[i].p("none") for i in kept) <= min(one_turn[i].p("none") for i in past) + 1e-9
    for i in past:
        np.testing.assert_allclose(capped[i].probabilities, one_turn[i].probabilities, atol=1e-6)
    again = real([faces.crop(img, found[i], size=faces.crop_side()) for i in kept],
                 cut=faces.cutter(img, [found[i] for i in kept]))
    for i, r in zip(kept, again, strict=True):
        assert capped[i].whole
        np.testing.assert_allclose(capped[i].probabilities, r.probabilities, atol=1e-6)


def test_a_frame_past_most_tells_nothing_it_read_at_one_turn(monkeypatch):
    monkeypatch.setattr(learned, "MAX_TURNED", 10)
    monkeypatch.setattr(faces, "PIP_ONE_TURN", 1.01)    # the cap is tested here: every pip face is turnable
    monkeypatch.setattr(learned, "MAX_SECOND_OPINIONS", 200)   # let the pip counter confirm every checked die
    img = _crowd()
    unread = []
    real = faces.read_faces
    monkeypatch.setattr(learned, "read_faces", lambda *a, **k: unread.append(r := real(*a, **k)) or r)
    dice, tokens = learned.read_view(img)
    readings = unread[0]
    assert sum(not r.whole for r in readings) > 0
    sure = [d for d in dice if d[3] >= learned.SURE] + [t for t in tokens if t[2] >= learned.SURE]
    assert 0 < len(sure) <= 10
