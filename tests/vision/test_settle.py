"""Settle detection over synthetic frame streams: rolling, still, hands, shadows, noise, lasting changes; and
the mean of a still scene's frames, which the product reads."""

import numpy as np
import pytest

from vision import SettleState, settle_step, still_mean, synth
from vision.errors import InvalidVisionInput
from vision.settle import LASTING_FRAMES, STILL_AVERAGE, STILL_BYTES, STILL_FRAMES


def _run(frames, state=None):
    states = []
    for f in frames:
        state = settle_step(state, f)
        states.append(state)
    return states


def _table(dice, *, seed=0, noise=2.0, gain=1.0):
    img = synth.tray(kind="wood", seed=0)
    for x, y, v, a in dice:
        synth.draw_die(img, x, y, 50, v, angle=a)
    return synth.lighting(img, gain=gain, noise=noise, seed=seed)


def test_first_frame_is_moving_and_a_still_table_settles():
    frames = [_table([(200, 200, 3, 0)], seed=i) for i in range(STILL_FRAMES + 2)]
    states = _run(frames)
    assert states[0].moving and not states[0].settled
    assert all(not s.moving for s in states[1:])           # camera noise is not motion
    assert not states[STILL_FRAMES - 1].settled
    assert states[STILL_FRAMES].settled and states[-1].settled


def test_rolling_die_is_moving_then_settles_where_it_stops():
    path = [(100 + 40 * i, 150 + 15 * i, 1 + i % 6, 25 * i) for i in range(8)]
    frames = [_table([p], seed=i) for i, p in enumerate(path)]
    stop = path[-1]
    frames += [_table([stop], seed=100 + i) for i in range(STILL_FRAMES + 1)]
    states = _run(frames)
    assert all(s.moving and not s.settled for s in states[1:8])
    assert states[-1].settled and not states[-1].moving


def test_a_hand_held_still_is_not_settled_at_once():
    table = _table([(200, 200, 3, 0)])
    frames = [table] * (STILL_FRAMES + 1)
    states = _run(frames)
    assert states[-1].settled
    hand = table.copy()
    hand[150:480, 300:520] = (150, 170, 205)        # a skin-coloured arm from the bottom edge
    states = _run([hand] * (STILL_FRAMES + 2), states[-1])
    assert states[0].moving
    assert not any(s.settled for s in states)
    # the hand goes away: the table settles again
    states = _run([table] * (STILL_FRAMES + 1), states[-1])
    assert states[-1].settled


def test_a_lasting_change_at_the_border_becomes_the_baseline():
    """The bug of the previous attempt: a die left at the frame edge (or a shadow that stays) blocked
    settling for ever. Any still picture that lasts becomes the new baseline."""
    table = _table([(200, 200, 3, 0)])
    states = _run([table] * (STILL_FRAMES + 1))
    assert states[-1].settled
    edge = table.copy()
    edge[:, :160] = (edge[:, :160] * 0.45).astype(np.uint8)    # a shadow over the left border that stays
    synth.draw_die(edge, 610, 30, 50, 6)                          # and a die at the top-right corner
    states = _run([edge] * (LASTING_FRAMES + 2), states[-1])
    assert not states[STILL_FRAMES].settled
    assert states[-1].settled
    # from then on it is the baseline: a small later change settles at the normal pace
    moved = edge.copy()
    synth.draw_die(moved, 400, 300, 50, 2)
    states = _run([moved] * (STILL_FRAMES + 1), states[-1])
    assert states[0].moving and states[-1].settled


def test_global_lighting_change_is_not_motion():
    table = _table([(200, 200, 3, 0), (400, 300, 5, 30)])
    states = _run([table] * (STILL_FRAMES + 1))
    dimmer = synth.lighting(table, gain=0.8)
    states = _run([dimmer, dimmer], states[-1])
    assert not states[0].moving
    assert states[-1].settled


def test_state_is_a_value_and_size_change_starts_afresh():
    table = _table([])
    s1 = settle_step(None, table)
    s2 = settle_step(s1, table)
    assert isinstance(s2, SettleState) and s2.frames == 2 and s1.frames == 1
    s3 = settle_step(s2, table[:240, :320].copy())
    assert s3.frames == 1 and s3.moving


def _photo():
    import cv2

    from companion.demo import DEMO_DIR
    path = sorted(p for p in DEMO_DIR.iterdir() if p.suffix.lower() in (".jpg", ".png"))[0]
    return cv2.imread(str(path))


def _noisy(image, rng, sigma=12.0):
    return np.clip(image + rng.normal(0, sigma, image.shape), 0, 255).astype(np.uint8)


def test_the_mean_of_still_frames_is_that_frame_and_halves_sensor_noise():
    photo = _photo()
    assert np.array_equal(still_mean([photo.copy() for _ in range(STILL_AVERAGE)]), photo)  # to the bit
    rng = np.random.default_rng(7)
    frames = [_noisy(photo, rng) for _ in range(STILL_AVERAGE)]
    one = np.abs(frames[-1].astype(float) - photo).mean()
    mean = still_mean(frames)
    assert mean.dtype == np.uint8 and mean.shape == photo.shape
    assert np.abs(mean.astype(float) - photo).mean() < 0.6 * one        # a half in theory, clipping aside
    more = [_noisy(photo, rng) for _ in range(3)] + frames               # only the last STILL_AVERAGE count
    assert np.array_equal(still_mean(more), mean)


def test_the_mean_stops_at_a_frame_of_another_shape_and_reads_a_large_frame_alone():
    photo = _photo()
    rng = np.random.default_rng(8)
    frames = [_noisy(photo, rng) for _ in range(3)]
    turned = np.ascontiguousarray(np.rot90(frames[0]))
    assert np.array_equal(still_mean([frames[0], turned, frames[1], frames[2]]), still_mean(frames[1:]))
    side = int((STILL_BYTES / 2 / 3) ** 0.5) + 8                           # two do not fit in STILL_BYTES
    big = np.full((side, side, 3), 90, np.uint8)
    assert still_mean([big.copy(), big.copy(), big]) is big


def test_the_mean_refuses_no_frame_and_a_bad_frame():
    with pytest.raises(InvalidVisionInput, match="at least one frame"):
        still_mean([])
    with pytest.raises(InvalidVisionInput, match="uint8"):
        still_mean([np.zeros((64, 64, 3), np.float32)])
