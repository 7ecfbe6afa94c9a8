"""Percentile rolls: a percentile d10 and a plain d10 read as one 1-100 result (vision.percentile)."""

import pytest

from vision.percentile import percentile_rolls, percentile_value
from vision.reading import Die


def die(x, value, *, percentile=False, sides=10, zone="p0", confidence=0.95):
    return Die((x, 100, 40, 40), sides, value, confidence, zone, percentile)


@pytest.mark.parametrize(("tens", "units", "want"), [
    (0, 1, 1), (0, 10, 100), (90, 10, 90), (90, 9, 99), (40, 7, 47), (10, 10, 10), (0, 5, 5),
])
def test_tens_and_units_make_one_result(tens, units, want):
    assert percentile_value(tens, units) == want


@pytest.mark.parametrize(("tens", "units"), [(None, 3), (30, None), (35, 3), (100, 3), (30, 0), (30, 11)])
def test_an_unread_or_impossible_face_gives_no_result(tens, units):
    assert percentile_value(tens, units) is None


def test_each_percentile_die_pairs_with_the_nearest_plain_d10_of_its_zone():
    dice = [
        die(0, 30, percentile=True), die(60, 4),                      # a pair: 34
        die(400, 0, percentile=True), die(460, 10),                   # 00 + 0 = 100
        die(900, 70, percentile=True, zone="p1"), die(200, 2, zone="p1"),   # another zone: 72
        die(1200, 5, sides=6),                                        # a d6 never pairs
    ]
    got = percentile_rolls(dice)
    assert [r.value for r in got] == [34, 100, 72]
    assert [r.units.bbox[0] for r in got] == [60, 460, 200]


def test_dice_of_other_zones_do_not_pair_and_spares_stay_out():
    dice = [die(0, 30, percentile=True, zone="p0"), die(50, 4, zone="p1"), die(80, 6, zone="p1")]
    assert percentile_rolls(dice) == []


def test_a_pair_is_as_sure_as_its_less_sure_die_and_unread_asks():
    got = percentile_rolls([die(0, 50, percentile=True, confidence=0.9), die(50, None, confidence=0.4)])
    assert len(got) == 1 and got[0].value is None and got[0].confidence == 0.4
    assert got[0].to_json()["tens"]["percentile"] is True


def test_many_dice_pair_in_bounded_work():
    dice = [die(i * 50, 10 * (i % 10), percentile=True) for i in range(150)]
    dice += [die(i * 50 + 20, 1 + i % 10) for i in range(150)]
    got = percentile_rolls(dice)
    assert len(got) == 150
    assert all(r.units.bbox[0] - r.tens.bbox[0] == 20 for r in got)

