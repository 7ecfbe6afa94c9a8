"""An emblem nobody taught is asked only when it is the size of a die (vision.learned._emblems_die_sized):
the flecks of a shag carpet read as emblems were a third to a half of the dice's side."""

import numpy as np

from vision import read_table, synth
from vision.learned import EMBLEM_ASKED, EMBLEM_SIZE, _emblems_die_sized


def die(x, side, value, conf):
    return ((x, 0, side, side), 6, value, conf, False)


def test_emblems_far_smaller_or_larger_than_the_sure_dice_are_not_asked():
    dice = [die(0, 40, 3, 0.95), die(50, 42, 5, 0.9), die(100, 40, None, EMBLEM_ASKED),
            die(150, 16, None, EMBLEM_ASKED), die(200, 90, None, EMBLEM_ASKED)]
    got = _emblems_die_sized(dice, asked={2, 3, 4}, sure_sides=[40.0, 42.0])
    assert got == dice[:3]


def test_the_bounds_are_the_factor_either_way():
    sides = [40.0]
    big, small = round(40 * EMBLEM_SIZE), round(40 / EMBLEM_SIZE)
    inside = [die(0, big - 1, None, 0.3), die(100, small + 1, None, 0.3)]
    assert _emblems_die_sized(inside, asked={0, 1}, sure_sides=sides) == inside
    outside = [die(0, big + 2, None, 0.3), die(100, small - 2, None, 0.3)]
    assert _emblems_die_sized(outside, asked={0, 1}, sure_sides=sides) == []


def test_without_a_sure_die_every_emblem_is_asked():
    dice = [die(0, 40, None, 0.3), die(100, 12, None, 0.3), die(200, 40, 4, 0.6)]
    assert _emblems_die_sized(dice, asked={0, 1}, sure_sides=[]) == dice


def test_a_die_that_is_not_an_asked_emblem_is_never_dropped():
    dice = [die(0, 40, 2, 0.95), die(100, 12, 1, 0.5), die(200, 120, None, 0.2)]
    assert _emblems_die_sized(dice, asked=set(), sure_sides=[40.0]) == dice


def test_an_emblem_die_among_pip_dice_of_its_set_is_still_asked():
    rng = np.random.default_rng(4)
    img = synth.tray(640, 480, kind="wood", seed=4)
    synth.draw_logo_die(img, 200, 300, 64, angle=float(rng.uniform(0, 90)), body=(235, 235, 235),
                        ink=(40, 40, 150))
    for x, y, v in ((120, 120, 3), (420, 150, 5), (500, 350, 2)):
        synth.draw_die(img, x, y, 64, v, angle=float(rng.uniform(0, 90)))
    dice = read_table(img).dice
    assert sorted(d.value for d in dice if d.value is not None) == [2, 3, 5]
    asked = [d for d in dice if d.value is None]
    assert len(asked) == 1 and asked[0].confidence <= EMBLEM_ASKED
