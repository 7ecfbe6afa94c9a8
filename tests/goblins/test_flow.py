"""A whole game of Goblins: Epic Death driven through the table flow, as the session would."""

import json

import pytest

from companion.errors import IllegalAction, InvalidInput
from companion.games import find_game
from tests.helpers import FlowTable
from tests.readings import camera

FLOW = find_game("goblins")
SETUP = {
    "players": ["Arnaldo", "Bea"],
    "centre": 1,
    "terrains": ["Ladro di 1° livello|wood|5|2|-", "Lego-Las|walls|10|3|-", "Castello|centre|6|4|hero"],
    "heroes": ["Cavalleria|4|2"],
}


class Table(FlowTable):
    """The session's part, and the goblins' tosses."""

    def __init__(self):
        super().__init__(FLOW, SETUP)

    def toss(self, alive, dead):
        want = FLOW.expects(self.state)
        assert want.kind == "tokens" and want.zone == "toss" and want.count == alive + dead
        assert not FLOW.choices(self.state)
        scan = {
            "dice": [],
            "tokens": [
                {"bbox": [i, 0, 5, 5], "face": "alive", "confidence": 0.9, "zone": "toss"}
                for i in range(alive)
            ]
            + [
                {"bbox": [50 + i, 0, 5, 5], "face": "dead", "confidence": 0.9, "zone": "toss"}
                for i in range(dead)
            ],
        }
        action = FLOW.propose(self.state, camera(scan))
        assert action == {"type": "reading", "alive": alive, "dead": dead}
        return self.do(action)


def test_a_whole_game():
    t = Table()
    assert t.view["phase"] == "A" and not t.view["over"]
    # Arnaldo: two goblins instead of cards, the Cavalleria, the Ladro (Arnaldo's example)
    t.pick("Take 2 goblins").pick("Play Cavalleria").pick("Face Ladro")
    assert t.view["combat"]["modified_defence"] == 5 and t.view["combat"]["attack"] == 9
    assert t.view["toss"]["count"] == 5 and t.view["toss"]["player"] == "Arnaldo"
    t.toss(3, 2)
    assert t.view["players"][0]["vp"] == 2 and t.view["phase"] == "D"
    t.pick("End the turn")
    # Bea: the Ram, then Lego-Las: Ram toss, a lost combat, losses
    t.pick("Take 1 goblin").pick("Play Ariete").pick("Face Lego-Las")
    assert FLOW.expects(t.state).params["purpose"] == "ram"
    t.toss(1, 0)
    view = t.view
    assert (
        view["combat"]["modified_defence"] == 7 and view["awaiting"] == "toss"
    )  # 5 troops vs 7: no Epic Death
    t.toss(4, 1)  # five troops tossed, then the crew: attack 5 does not reach 7
    assert FLOW.expects(t.state).params["purpose"] == "crew"
    t.toss(0, 1)
    assert t.view["players"][1]["machines"][0]["crewed"] is False
    t.pick("Re-crew Ariete").pick("End the turn")
    # Arnaldo brawls with Bea: 9 + 0 against 3 + 1 crew
    t.pick("Take 0 goblins").pick("Brawl with Bea")
    assert t.view["players"][0]["cards"] == 1  # Bea's pile was empty: nothing taken
    t.toss(4, 0).toss(2, 1).toss(1, 0)
    t.pick("End the turn")
    # Bea: no combat; Arnaldo takes the Castello (it needs a hero: the Cavalleria)
    t.pick("Take 2 goblins").pick("no combat").pick("End the turn")
    t.pick("Take 0 goblins").pick("Face Castello")
    t.toss(5, 0)
    view = t.view
    assert view["over"] and view["phase"] == "over"
    assert view["outcome"]["winner_name"] == "Arnaldo" and view["players"][0]["vp"] == 6
    assert not FLOW.choices(t.state) and FLOW.expects(t.state) is None
    assert FLOW.view(t.replayed().state) == view  # the session rebuilds the state by replaying the log


def test_epic_death_and_the_cannon_through_the_flow():
    t = Table()
    t.pick("Take 0 goblins").pick("Play Cannone")  # 5 - 2 crew = 3 troops
    t.do({"type": "face", "terrain": "Drago|centre|16|4|-"})
    assert [c.label for c in FLOW.choices(t.state)] == ["Fire the Cannon", "Hold the Cannon's fire"]
    t.pick("Fire")
    t.toss(1, 1)  # 16 - 5 = 11, attack 2: 4 <= 11
    assert [c.label for c in FLOW.choices(t.state)] == ["Fight normally", "Try an Epic Death"]
    t.pick("Epic Death")
    assert FLOW.expects(t.state).count == 2
    t.toss(0, 2).toss(0, 2)
    assert t.view["over"] and t.view["players"][0]["vp"] == 4


def test_a_full_tie_is_broken_by_shouting():
    state = FLOW.start({"players": ["A", "B"]})
    for action in (
        {"type": "no_combat"},
        {"type": "end_turn"},
        {"type": "face", "terrain": "Siepe|wood|0|0|-"},
        {"type": "end_turn"},
        {"type": "face", "terrain": "Porta|centre|0|0|-"},
    ):
        state = FLOW.apply(state, action)
    view = FLOW.view(state)
    assert view["phase"] == "over" and view["over"] is False and view["outcome"]["tied"] == ["A", "B"]
    choices = FLOW.choices(state)
    assert [c.label for c in choices] == ["A shouted Goblin! first", "B shouted Goblin! first"]
    state = FLOW.apply(state, choices[1].action)
    assert FLOW.view(state)["over"] is True and FLOW.view(state)["outcome"]["winner_name"] == "B"


def test_propose_refuses_what_does_not_fit():
    t = Table()
    assert FLOW.propose(t.state, camera({"tokens": []})) is None  # nothing awaited
    t.pick("Face Ladro")
    four = [{"face": "alive", "zone": "toss"}] * 4
    assert FLOW.propose(t.state, camera({"tokens": four})) is None  # 5 expected
    assert FLOW.propose(t.state, camera({"tokens": [{"face": None, "zone": "toss"}] * 5})) is None
    tokens = [{"face": "dead", "zone": "toss"}] * 5 + [{"face": "alive", "zone": "reserve"}] * 3
    assert FLOW.propose(t.state, camera({"tokens": tokens})) == {"type": "reading", "alive": 0, "dead": 5}


def test_bad_actions_leave_the_state_unchanged():
    t = Table()
    before = t.state
    with pytest.raises(IllegalAction):
        FLOW.apply(t.state, {"type": "reading", "alive": 1, "dead": 0})
    with pytest.raises(InvalidInput):
        FLOW.apply(t.state, {"type": "reading", "alive": 1})
    with pytest.raises(InvalidInput):
        FLOW.start({"players": ["Solo"]})
    assert t.state is before


def test_setup_schema_is_json():
    schema = FLOW.setup_schema()
    json.dumps(schema)
    assert [f["key"] for f in schema["fields"]][:2] == ["players", "centre"]


def test_without_a_toss_zone_every_token_on_the_tray_counts():
    """The default zones are the players' halves (p0, p1): no "toss" zone. Then every token counts;
    before the fix no toss was ever proposed, so the players typed every count by hand."""
    t = Table()
    t.pick("Face Ladro")
    assert FLOW.expects(t.state).count == 5
    halves = [{"face": "alive", "zone": "p0"}] * 2 + [{"face": "dead", "zone": "p1"}] * 3
    assert FLOW.propose(t.state, camera({"tokens": halves, "zones": ["p0", "p1"]})) == {
        "type": "reading", "alive": 2, "dead": 3}
    # a reading that does not list the zones: no token lies in a toss zone, so there is none
    assert FLOW.propose(t.state, camera({"tokens": halves})) == {"type": "reading", "alive": 2, "dead": 3}
    # every token counts: one the camera cannot read leaves the count to the players
    unread = [*halves[:4], {"face": None, "zone": "p1"}]
    assert FLOW.propose(t.state, camera({"tokens": unread, "zones": ["p0", "p1"]})) is None


def test_with_a_toss_zone_only_its_tokens_count():
    t = Table()
    t.pick("Face Ladro")
    reserve = [{"face": "alive", "zone": "reserve"}] * 5
    # the toss zone is configured but empty: the reserve's five tokens are not a toss
    assert FLOW.propose(t.state, camera({"tokens": reserve, "zones": ["toss", "reserve"]})) is None
    tossed = [{"face": "dead", "zone": "toss"}] * 4 + [{"face": "alive", "zone": "toss"}]
    assert FLOW.propose(t.state, camera({"tokens": tossed + reserve, "zones": ["toss", "reserve"]})) == {
        "type": "reading", "alive": 1, "dead": 4}
