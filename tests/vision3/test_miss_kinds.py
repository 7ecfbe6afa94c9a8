"""What a missed die is (benchmarks/vision_eval.miss_kinds, sixtieth session): cut by the frame's edge, inside
a box the reader matched to another die (one box round two dice lying together), or elsewhere."""

from tests.helpers import benchmark
from vision.reading import Die

vision_eval = benchmark("vision_eval")

SHAPE = (384, 512, 3)


def _die(box):
    return Die(bbox=box, sides=6, value=3, confidence=0.9, zone=None)


def test_two_dice_in_one_box_an_edge_die_and_a_lone_miss_are_told_apart():
    labels = [(100.0, 100.0, 30.0, 30.0),   # found
              (131.0, 100.0, 30.0, 30.0),   # lies against it: inside the box drawn round both
              (0.0, 200.0, 25.0, 30.0),     # cut by the left edge
              (300.0, 300.0, 30.0, 30.0)]   # never found
    dice = [_die((96, 98, 64, 34))]          # one box round the first two
    pairs = vision_eval.match(labels, dice)
    assert pairs == [(0, 0)]
    kinds = vision_eval.MISS_KINDS
    assert vision_eval.miss_kinds(labels, dice, pairs, SHAPE) == [kinds[1], kinds[0], kinds[2]]


def test_a_phantom_box_holding_a_missed_die_is_not_another_die():
    """Only boxes matched to a label count: a box the reader drew elsewhere, matched to nothing, that covers
    a missed die does not make it "inside a box matched to another die"."""
    labels = [(200.0, 150.0, 30.0, 30.0)]
    dice = [_die((150, 100, 20, 20))]         # too far to match, nowhere near the die's centre anyway
    pairs = vision_eval.match(labels, dice)
    assert pairs == []
    assert vision_eval.miss_kinds(labels, dice, pairs, SHAPE) == ["elsewhere"]


def test_the_far_edges_count_too_and_found_dice_are_not_counted():
    labels = [(490.0, 10.0, 22.0, 22.0), (40.0, 363.0, 20.0, 21.0), (250.0, 150.0, 30.0, 30.0)]
    dice = [_die((250, 150, 30, 30))]
    pairs = vision_eval.match(labels, dice)
    assert vision_eval.miss_kinds(labels, dice, pairs, SHAPE) == [vision_eval.MISS_KINDS[0]] * 2
