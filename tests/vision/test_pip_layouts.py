"""The pip-layout step of vision.pips on pip lists placed by hand (no image needed)."""

from vision.pips import Face, Pip, _grown, _read_group, missing_corners


def pip(x: float, y: float, r: float = 4.0, roundness: float = 0.9) -> Pip:
    return Pip(x, y, r, 150.0, (220.0, 220.0, 220.0), True, roundness)


def grid(points: list[tuple[float, float]], a: float = 10.0, x: float = 100.0, y: float = 100.0) -> list[Pip]:
    return [pip(x + a * u, y + a * v) for u, v in points]


CORNERS = [(-1, -1), (1, -1), (-1, 1), (1, 1)]


def test_a_face_is_grown_to_the_layout_its_left_out_pips_complete():
    # a 5 whose centre pip was not among the most top-like pips: grown back to a 5
    four = grid(CORNERS)
    centre = pip(100, 100, roundness=0.7)
    assert len(_grown(four, [centre])) == 5
    # a 6 read as a 4 (a 2x2 block) plus the third row beside it
    six = grid([(-1, -1), (0, -1), (-1, 1), (0, 1)], a=10) + grid([(1, -1), (1, 1)], a=10)
    assert _read_group(_grown(six[:4], six[4:])).value == 6
    # pips of a side face (smaller, flatter, elsewhere) are not taken
    side = [pip(100 + 25, 100 + d, r=2.5, roundness=0.4) for d in (-8, 0, 8)]
    assert _grown(four, side) == four
    # a pip that completes no layout is not taken
    assert _grown(four, [pip(100, 88)]) == four


def test_the_missing_corners_of_a_two_are_on_its_other_diagonal():
    two = _read_group([pip(90, 90), pip(110, 110)])
    assert two.value == 2
    got = sorted((round(x), round(y)) for x, y in missing_corners(two))
    assert got == [(90, 110), (110, 90)]
    four = _read_group(grid(CORNERS))
    assert four.value == 4 and missing_corners(four) == []
    assert missing_corners(Face((pip(5, 5),), 1, 0.8, (0.0, 0.0, 10.0, 10.0))) == []
