"""The rulebook's worked example ("Esempio di gioco")."""

from companion.button_goblin import Attack, apply, initiative, rerolls
from companion.button_goblin.core import describe


def test_lobo_wins_initiative_after_the_twos_cancel(example):
    who = initiative(example)
    assert who.player == 0
    assert "2 against 4" in who.reason
    assert example.to_move == 0


def test_the_18_cannot_be_captured(example):
    assert [a for a in example.legal if 4 in a.targets] == []


def test_the_13_falls_to_13_or_to_9_2_2(example):
    on_13 = {a.key for a in example.legal if a.targets == (3,)}
    assert on_13 == {("power", (4,), (3,)), ("skill", (4,), (3,)), ("skill", (0, 1, 3), (3,))}


def test_lobo_takes_the_13_with_9_2_2_and_rerolls_them(example):
    attack = Attack("skill", (0, 1, 3), (3,))
    after = apply(example, attack)
    assert rerolls(attack) == (0, 1, 3)
    assert [d.value for d in after.players[1].dice] == [2, 4, 5, 18]
    assert [d.value for d in after.players[0].captured] == [13]
    assert after.to_move == 1
    # the attacking dice still show their old values until the players read the new ones
    assert [d.value for d in after.players[0].dice] == [2, 2, 6, 9, 13]
    assert describe(example, attack) == \
        "Skill: your die #1 (2) + die #2 (2) + die #4 (9) takes their die #4 (13)"


def test_compact_example_round_trips(example):
    assert example.format() == "> Lobo: 2 2 6 9 13 | SdP: 2 4 5 13 18"
    assert repr(example) == "Position.parse('> Lobo: 2 2 6 9 13 | SdP: 2 4 5 13 18')"
