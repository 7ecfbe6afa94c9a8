"""``benchmarks/face_turns.py`` measures ``vision.faces.PIP_ONE_TURN`` against reading every pip face at
every turn: its two arms must be those two readers (counted in network passes, not in milliseconds, which a
unit test does not judge), read the same dice, and leave the shipped bar in place."""

import pytest

from tests.helpers import benchmark
from vision import faces, finder

face_turns = benchmark("face_turns")


def test_the_arms_read_the_same_dice_and_the_rule_saves_passes(monkeypatch):
    passes = []
    real = finder._forward
    monkeypatch.setattr(finder, "_forward", lambda net, crops: passes.append(len(crops)) or real(net, crops))
    shipped = faces.PIP_ONE_TURN
    got = face_turns.measure(rounds=1, reads=1)
    assert shipped == faces.PIP_ONE_TURN                   # put back
    assert [r["same_dice"] for r in got] == [True, True]
    assert all(r["every face turned"] > 0 and r["sure faces read once"] > 0 for r in got)
    # per arm and frame: one untimed read and one timed; the one-die frame's sure die costs eight passes of
    # the face readers with the rule off and one with it on
    frame = face_turns.frames()[0][1]
    counts = {}
    for arm, bar in face_turns.ARMS:
        monkeypatch.setattr(faces, "PIP_ONE_TURN", bar)
        passes.clear()
        face_turns._dice(frame)
        counts[arm] = sum(passes)
    assert counts["every face turned"] - counts["sure faces read once"] == 7


@pytest.mark.parametrize("bad", [["--rounds", "0"], ["--reads", "-1"]])
def test_rounds_and_reads_must_be_positive(bad, capsys):
    with pytest.raises(SystemExit) as e:
        face_turns.main(bad)
    assert e.value.code == 2 and "at least 1" in capsys.readouterr().err
