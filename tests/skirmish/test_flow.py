"""A whole skirmish driven through the table flow, with camera readings in the scan's JSON shape."""

import json
from fractions import Fraction

import pytest

from companion.errors import IllegalAction, InvalidInput
from companion.games import find_game
from tests.helpers import FlowTable
from tests.readings import camera

FLOW = find_game("skirmish")
SETUP = {
    "bands": [
        {
            "name": "Elfi",
            "models": ["Lorien|T3|A3|S4|P20|eroe2|capitano", "Arciere|T4|A5|S5|P8", "Lancia|A4|S4|P6"],
        },
        {
            "name": "Orchi",
            "models": [
                "Grum|A3|S4|P20|eroe1|possente|capitano",
                "Lupo|A4|S5|P10|cavalleria",
                "Orco|A4|S5|P6",
            ],
        },
    ],
    "time_limit_min": 60,
}


def die(value, x, zone=None):
    return {"bbox": [x, 0, 10, 10], "sides": 6, "value": value, "confidence": 0.95, "zone": zone}


class Table(FlowTable):
    """The session's part, and the dice rolled for the skirmish."""

    def __init__(self):
        super().__init__(FLOW, SETUP)

    def roll(self, *values, zones=None):
        want = FLOW.expects(self.state)
        assert want.kind == "dice" and len(want.slots) == len(values)
        assert all(s.sides == 6 for s in want.slots)
        dice = [die(v, 10 * i, zones[i] if zones else None) for i, v in enumerate(values)]
        action = FLOW.propose(self.state, camera({"dice": dice, "tokens": []}))
        assert action is not None and list(action["values"].values()) == list(values)
        return self.do(action)


def test_a_whole_skirmish():
    t = Table()
    assert t.view["awaiting"]["kind"] == "deploy"
    t.roll(3, 3, zones=["p1", "p0"])  # a tie: roll again
    assert t.view["awaiting"]["kind"] == "deploy"
    t.roll(2, 5, zones=["p0", "p1"])
    assert t.view["deploys_first"] == 0 and t.view["awaiting"]["kind"] == "first"
    t.roll(6, 1, zones=["p0", "p1"])
    t.pick("Elfi plays first")
    # Elfi, Tiro 2: Lorien and the Arciere at the Orco (form), before the roll the odds
    t.pick("plays Tiro 2")
    t.do(
        {
            "type": "shoot",
            "target": 2,
            "shooters": [{"model": 0, "distance": 22, "moved": 4}, {"model": 1, "distance": 30, "moved": 8}],
        }
    )
    check = t.view["awaiting"]["check"]
    assert (check["target"], check["chance"], check["characteristic"]) == (2, "5/6", 3)
    assert [m["label"] for m in check["modifiers"]] == ["extra shooter"]
    t.roll(1)  # a failure Lorien may turn with one heroism point, after seeing the die
    assert t.view["held"] == {"dice": [1], "spend_at_least": 1, "points": 2}
    assert [c.label for c in FLOW.choices(t.state)] == [
        "Keep the roll (it fails)",
        "Spend 1 heroism point",
        "Spend 2 heroism points",
    ]
    t.pick("Spend 1")
    assert t.view["bands"][0]["models"][0]["heroism"] == 1
    assert t.view["awaiting"]["check"]["target"] == 6  # Salvezza 5, -1 for the second shooter
    t.roll(4)
    assert t.view["points"] == [6, 0] and t.view["awaiting"]["kind"] == "near"
    t.pick("Lupo was within 5 cm").pick("Done")
    assert t.view["awaiting"]["kind"] == "morale" and t.view["awaiting"]["model"] == 1
    t.roll(4)
    t.pick("End Tiro 2")
    # Orchi, Assalto 2: the Lupo charges the Arciere from 7 cm
    t.pick("plays Assalto 2")
    t.do({"type": "assault", "attacker": 1, "target": 1, "distance": 7})
    charge = t.view["awaiting"]
    assert charge["dice"] == 2 and Fraction(charge["check"]["chance"]) == Fraction(21, 36)
    t.roll(3, 5)
    assert t.view["awaiting"]["check"]["target"] == 3  # A4 +1 cavalry charging infantry
    t.roll(5)
    t.roll(2)  # the Arciere's save fails
    t.pick("Lorien was within 5 cm").pick("Lancia was within 5 cm").pick("Lorien was within 5 cm").pick(
        "Done"
    )
    assert [p["model"] for p in [t.view["awaiting"]]] == [2]  # only the Lancia tests morale
    t.roll(2)  # fails: flees 3d6
    assert t.view["awaiting"]["kind"] == "flee" and t.view["awaiting"]["dice"] == 3
    t.roll(6, 5, 4)
    t.pick("left the table")  # 1 of 3 Elfi left: below half, the rout test
    assert t.view["awaiting"]["kind"] == "rout" and t.view["awaiting"]["check"]["chance"] == "5/12"
    t.roll(3, 4)
    view = t.view
    assert (
        view["over"]
        and view["outcome"]["termination"] == "rout"
        and view["outcome"]["winner_name"] == "Orchi"
    )
    assert view["points"] == [6, 8]  # the fled Lancia gives nothing
    assert not FLOW.choices(t.state) and FLOW.expects(t.state) is None
    assert FLOW.view(t.replayed().state) == view


def test_a_card_cycle_through_the_choices():
    t = Table()
    t.roll(1, 2, zones=["p0", "p1"]).roll(2, 1, zones=["p0", "p1"]).pick("Orchi plays first")
    for _ in range(5):
        for _side in (0, 1):
            labels = [c.label for c in FLOW.choices(t.state) if c.group == "card"]
            t.pick(labels[0]).pick("End ")
    assert t.view["turn"] == 2 and all(len(b["hand"]) == 5 for b in t.view["bands"])
    t.do({"type": "clock", "elapsed": 3600})
    assert t.view["over"] and t.view["outcome"]["winner"] is None  # no kills: a draw


def test_choices_offer_shots_and_assaults():
    t = Table()
    t.roll(1, 2, zones=["p0", "p1"]).roll(2, 1, zones=["p0", "p1"]).pick("Elfi plays first")
    t.pick("Tiro 3")
    labels = [c.label for c in FLOW.choices(t.state)]
    assert "Arciere shoots Orco in cover (nearest, within 30 cm, moved 8 cm or less)" in labels
    assert not any("Lancia shoots" in label for label in labels)  # no Tiro
    t.pick("Arciere shoots Orco in cover")
    assert t.view["awaiting"]["check"]["target"] == 5


def test_propose_and_bad_readings():
    t = Table()
    assert FLOW.propose(t.state, camera({"dice": [die(3, 0, "p0")]})) is None  # one band's die is missing
    assert FLOW.propose(t.state, camera({"dice": [die(3, 0, "p0"), die(None, 9, "p1")]})) is None
    with pytest.raises(InvalidInput, match="p1"):
        FLOW.apply(t.state, {"type": "reading", "values": {"p0": 3, "p1": 7}})
    with pytest.raises(IllegalAction):
        FLOW.apply(t.state, {"type": "end_card"})
    with pytest.raises(InvalidInput):
        FLOW.start({"bands": [SETUP["bands"][0]]})


def test_setup_schema_is_json():
    json.dumps(FLOW.setup_schema())


def test_the_choices_are_the_legal_view_worded_and_old_logs_still_replay():
    from companion.skirmish.rules import RULES

    t = Table()
    t.roll(1, 2, zones=["p0", "p1"]).roll(2, 1, zones=["p0", "p1"]).pick("Elfi plays first")
    t.pick("plays Tiro 2")
    t.do({"type": "shoot", "target": 2, "shooters": [{"model": 1, "distance": 20}]})
    t.roll(6).roll(1)  # the Orco dies: which friends stood near?
    legal = RULES.legal(t.state)
    assert all(RULES.event_from_json(t.state, c.action) in legal for c in FLOW.choices(t.state))
    assert [c.action for c in FLOW.choices(t.state)][-1] == {"type": "near", "models": []}
    # a match stored before the decisions were core events said "near_done"; it replays the same
    marked = FLOW.apply(t.state, {"type": "mark_near", "model": 1})
    assert FLOW.apply(marked, {"type": "near_done"}) == FLOW.apply(marked, {"type": "near", "models": [1]})
