"""An object neither the finder nor the face reader holds more likely than not to be a die is not put to
the players when the frame shows dice both believe; in a frame where none is believed only the likeliest
is (vision.learned._unbelieved_dropped)."""

from pathlib import Path

from vision import read_table
from vision.data import match_boxes, photo_set
from vision.learned import BELIEVED, EMBLEM_ASKED, _unbelieved_dropped

ROOT = Path(__file__).resolve().parents[2]
AWS_LEFT_OUT = (str(ROOT / "benchmarks" / "models" / "finder-no-aws.onnx"),
                str(ROOT / "benchmarks" / "models" / "faces-no-aws.onnx"), "types")


def _die(x, value, conf):
    return ((x, 0, 40, 40), 6, value, conf, False)


def test_beside_a_believed_die_only_what_one_stage_believes_is_kept():
    sure, found_only, read_only = _die(0, 3, 0.9), _die(50, 2, 0.3), _die(100, 5, 0.7)
    neither, at = _die(150, 1, 0.4), _die(200, 4, BELIEVED)      # a reading exactly at the bound is believed
    beliefs = {sure[0]: (0.8, 0.0), found_only[0]: (0.6, 0.0), read_only[0]: (0.3, 0.0),
               neither[0]: (0.45, 0.0), at[0]: (0.3, 0.0)}
    kept = _unbelieved_dropped([sure, found_only, read_only, neither, at], beliefs)
    assert kept == [sure, found_only, read_only, at]


def test_an_untaught_emblem_is_believed_by_its_probability_not_its_capped_confidence():
    sure = _die(0, 3, 0.9)
    emblem, fleck = _die(50, None, EMBLEM_ASKED), _die(100, None, EMBLEM_ASKED)
    beliefs = {sure[0]: (0.8, 0.0), emblem[0]: (0.4, 0.8), fleck[0]: (0.4, 0.45)}
    assert _unbelieved_dropped([sure, emblem, fleck], beliefs) == [sure, emblem]


def test_where_no_die_is_believed_the_finders_likeliest_is_still_asked():
    weak = [_die(0, 3, 0.3), _die(50, 2, 0.45), _die(100, 5, 0.2)]
    beliefs = {weak[0][0]: (0.3, 0.0), weak[1][0]: (0.25, 0.0), weak[2][0]: (0.41, 0.0)}
    assert _unbelieved_dropped(weak, beliefs) == [weak[2]]
    half = _die(150, 6, 0.3)       # found strongly, read weakly: kept, and so is the likeliest of the rest
    assert _unbelieved_dropped([*weak, half], {**beliefs, half[0]: (0.7, 0.0)}) == [weak[2], half]
    assert _unbelieved_dropped([], {}) == []


def test_the_granite_blotches_are_not_asked_and_the_dice_stay(photos):
    """aws Image_2, read by the models trained without aws: four dice on black granite with white veins.
    Before the rule thirteen blotches of the granite were reported (found at 0.2-0.4, read under 0.5); with
    it two, and four since the fourteenth session's type reader types two blotches read as numerals surely
    enough to be reported at 0.5 (docs/vision.md). Five since the twentieth session's two face readers: a
    blotch cut by the frame's left edge read "2" at 0.50, asked (aws as a whole: 0.452 -> 0.428 phantoms a
    photo). None of them is sure."""
    photo = next(p for p in photo_set("aws") if p.path.name == "Image_2.jpg")
    labels = [d.bbox for d in photo.dice]
    assert len(labels) == 4
    dice = read_table(photo.load(), models=AWS_LEFT_OUT).dice
    pairs = match_boxes(labels, [d.bbox for d in dice])
    assert len(pairs) == 4
    phantoms = [d for i, d in enumerate(dice) if i not in {j for _, j in pairs}]
    assert len(phantoms) <= 5, [(d.bbox, d.value, round(d.confidence, 2)) for d in dice]
    assert all(d.confidence < 0.8 for d in phantoms), [(d.bbox, d.value, d.confidence) for d in phantoms]


def test_an_empty_terrazzo_floor_is_not_a_page_of_questions(photos):
    """aws Image_138: the terrazzo floor with no die. Before the rule seventeen specks and blotches were
    reported, none believed by both stages; with it seven (four holes under 16 px read as a "1" or "4" at 0.5
    and more, capped at 0.5 by ``SMALLEST_SURE``, two blotches found at 0.5-0.6, and the likeliest of the
    rest)."""
    photo = next(p for p in photo_set("aws") if p.path.name == "Image_138.jpg")
    assert not photo.dice
    dice = read_table(photo.load(), models=AWS_LEFT_OUT).dice
    assert len(dice) <= 7, [(d.bbox, d.value, round(d.confidence, 2)) for d in dice]
