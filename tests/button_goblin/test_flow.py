"""The table flow, driven through FLOW.apply as the table session drives it."""

import json
import random

import pytest

from companion.button_goblin.core import scores
from companion.button_goblin.flow import FLOW
from companion.errors import IllegalAction, InvalidInput
from companion.games import find_game
from companion.reading import TableReading
from tests.readings import camera


def setup(first, second, a=None, b=None):
    return {"players": [{"name": "Anna", "button": first, **(a or {})},
                        {"name": "Bruno", "button": second, **(b or {})}]}


def read(state, values):
    """Confirm a reading: ``values`` maps slot keys to values; the rest of the slots get 1."""
    slots = FLOW.expects(state).slots
    unknown = set(values) - {s.key for s in slots}
    assert not unknown, unknown
    return FLOW.apply(state, {"type": "reading", "values": {s.key: values.get(s.key, 1) for s in slots}})


def check_view(state):
    view = FLOW.view(state)
    json.dumps(view)  # the page gets plain JSON
    assert {"game", "phase", "over"} <= set(view)
    return view


def test_registry_finds_the_flow():
    assert find_game("button-goblin") is FLOW


def test_setup_schema_lists_the_roster_and_flags_ve():
    schema = FLOW.setup_schema()
    json.dumps(schema)
    assert len(schema["buttons"]) == 76
    ve = next(f for f in schema["fields"] if f["key"] == "ve")
    assert ve["required_for"] == ["Antonio", "Alisa"]


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (setup("Antonio", "Madness"), "VE"),
        (setup("Madness", "Madness", b={"ve": "VA"}), "no VE die"),
        (setup("Nobody", "Madness"), "'Nobody'"),
        (setup("Lobo", "Madness", a={"swing": {"X": 30}}), "4..20"),
        (setup("Lobo", "Madness", a={"swing": {"Q": 8}}), "'Q'"),
        ({"players": [{"button": "Lobo"}]}, "two players"),
        (setup("Lobo", "Madness", a={"name": "An|na"}), "bad player name"),
    ],
)
def test_bad_setup_is_invalid_input(data, needle):
    with pytest.raises(InvalidInput, match=needle):
        FLOW.start(data)


def test_swing_choice_one_letter_at_a_time():
    state = FLOW.start(setup("Lobo", "Alisa", b={"ve": "VO"}))
    assert state.phase == "swing"
    first = FLOW.choices(state)
    assert {c.action["sizes"].get("X") for c in first} == {4, 6, 8, 10, 12, 20}
    assert all(c.action["player"] == 0 for c in first)
    state = FLOW.apply(state, {"type": "swing", "player": 0, "sizes": {"X": 8}})
    assert state.phase == "swing" and not state.swing_done[0]
    assert {next(iter(c.action["sizes"])) for c in FLOW.choices(state)} == {"W"}
    with pytest.raises(InvalidInput, match=r"4\.\.20"):
        FLOW.apply(state, {"type": "swing", "player": 0, "sizes": {"W": 21}})
    state = FLOW.apply(state, {"type": "swing", "player": 0, "sizes": {"W": 12, "Y": 6}})
    assert state.swing_done[0] and state.phase == "swing"
    state = FLOW.apply(state, {"type": "swing", "player": 1, "sizes": {"X": 7}})
    assert state.phase == "roll"
    view = check_view(state)
    assert [d["size"] for d in view["players"][0]["dice"]] == [0, 8, 8, 12, 6]
    assert [d["size"] for d in view["players"][1]["dice"]] == [4, 4, 8, 12, 7]
    assert view["players"][1]["dice"][0]["skills"] == ["VO"]  # VE chosen as poison


def test_roll_slots_one_per_physical_die():
    state = FLOW.start(setup("Lobo", "Manu", a={"swing": {"X": 8, "W": 12, "Y": 6}}, b={"swing": {"X": 20}}))
    slots = FLOW.expects(state).slots
    keys = [s.key for s in slots]
    assert "p0.0" not in keys  # the d0 always shows 0: nothing to read
    assert [k for k in keys if k.startswith("p1.2")] == ["p1.2a", "p1.2b"]
    assert {s.sides for s in slots if s.key.startswith("p1.2")} == {10}
    assert all(s.zone == s.key[:2] for s in slots)
    with pytest.raises(InvalidInput, match="not 11"):
        read(state, {"p1.2a": 11})
    with pytest.raises(InvalidInput, match="missing"):
        FLOW.apply(state, {"type": "reading", "values": {"p0.1": 3}})
    state = read(state, {"p1.2a": 7, "p1.2b": 9})
    assert state.position.players[1].dice[2].value == 16
    assert state.position.players[0].dice[0].value == 0


def test_all_equal_dice_are_rolled_again():
    state = FLOW.start(setup("Madness", "Madness"))
    state = read(state, {})
    assert state.phase == "roll" and state.tied_rolls == 1
    assert FLOW.expects(state).prompt == "roll.tie"


def _play_round(state, reroll_value=1):
    """Play until the round ends: the first choice each time, re-rolled dice showing reroll_value."""
    number = state.round_number
    actions = []
    for _ in range(200):
        if state.round_number != number or state.phase == "over":
            return state, actions
        if state.phase == "reroll":
            action = {"type": "reading", "values": {s.key: reroll_value for s in FLOW.expects(state).slots}}
        else:
            action = dict(FLOW.choices(state)[0].action)
        check_view(state)
        state = FLOW.apply(state, action)
        actions.append(action)
    raise AssertionError("the round did not end")


def test_a_whole_round_attack_reroll_pass_score():
    state = FLOW.start(setup("Madness", "Luperto"))
    state = read(state, {"p0.0": 2, "p0.1": 5, "p0.2": 9, "p0.3": 12, "p0.4": 15, "p0.5": 20,
                         "p1.0": 3, "p1.1": 4, "p1.2": 7, "p1.3": 18, "p1.4": 19})
    view = check_view(state)
    assert view["initiative"]["player"] == 0 and "2 against 3" in view["initiative"]["reason"]
    assert view["turn"] == {"player": 0, "name": "Anna"}
    labels = [c.label for c in FLOW.choices(state)]
    assert "Power: your d20 #6 (20) takes their d20 #5 (19)" in labels
    assert "Skill: your d20 #1 (2) + d20 #2 (5) takes their d10 (7)" in labels
    with pytest.raises(IllegalAction, match="may not pass"):
        FLOW.apply(state, {"type": "pass"})
    with pytest.raises(IllegalAction, match="sum to 7, not 18"):
        FLOW.apply(state, {"type": "attack", "kind": "skill", "attackers": [0, 1], "targets": [3]})
    state = FLOW.apply(state, {"type": "attack", "kind": "skill", "attackers": [0, 1], "targets": [2]})
    assert state.phase == "reroll"
    assert [s.key for s in FLOW.expects(state).slots] == ["p0.0", "p0.1"]  # only the attackers
    view = check_view(state)
    assert [d["reroll"] for d in view["players"][0]["dice"]] == [True, True, False, False, False, False]
    assert view["players"][0]["captured"][0]["size"] == 10
    state = read(state, {"p0.0": 11, "p0.1": 1})
    assert state.phase == "play" and state.position.to_move == 1
    before = state.position
    state, _ = _play_round(state)
    assert state.round_number == 2 and state.phase == "roll"
    result = state.history[0]
    assert result.winner == (None if result.scores[0] == result.scores[1] else
                             int(result.scores[1] > result.scores[0]))
    assert before.players[0].captured  # the capture from the first attack counted
    view = check_view(state)
    assert view["last_round"]["scores"] == list(result.scores)
    assert view["last_round"]["notation"].endswith("; passes 2")
    assert view["rounds_won"] == [int(result.winner == 0), int(result.winner == 1)]


def test_pass_only_when_no_attack_and_round_scores():
    state = FLOW.start(setup("Madness", "Madness"))
    # Anna's six d20s all show 1 (six in all); Bruno's all show more than 6: Anna can capture nothing
    state = read(state, {"p1.0": 7, "p1.1": 8, "p1.2": 9, "p1.3": 10, "p1.4": 11, "p1.5": 12})
    assert state.position.to_move == 0
    choices = FLOW.choices(state)
    assert [c.action for c in choices] == [{"type": "pass"}]
    assert check_view(state)["must_pass"] is True
    state = FLOW.apply(state, {"type": "pass"})
    assert state.position.to_move == 1 and state.phase == "play"
    assert all(c.group != "pass" for c in FLOW.choices(state))
    expected = scores(state.position)
    assert check_view(state)["scores"] == list(expected)


def test_focus_offered_to_the_player_without_initiative_and_barred_in_first_attack():
    state = FLOW.start(setup("Luperto", "Leia"))
    state = read(state, {"p0.0": 2, "p0.1": 5, "p0.2": 6, "p0.3": 7, "p0.4": 8,
                         "p1.0": 3, "p1.1": 4, "p1.2": 5, "p1.3": 9, "p1.4": 10})
    assert state.phase == "focus" and state.focus_player == 1
    view = check_view(state)
    assert view["initiative"]["player"] == 0 and view["focus"]["name"] == "Bruno"
    choices = FLOW.choices(state)
    assert {"type": "decline", "player": 1} in [c.action for c in choices]
    assert {"type": "focus", "player": 1, "dice": {"1": 1}} in [c.action for c in choices]
    with pytest.raises(IllegalAction, match="only to win initiative"):
        FLOW.apply(state, {"type": "focus", "player": 1, "dice": {"3": 8}})  # 3 still loses to 2
    with pytest.raises(IllegalAction, match="who may use focus"):
        FLOW.apply(state, {"type": "decline", "player": 0})
    won = FLOW.apply(state, {"type": "focus", "player": 1, "dice": {"1": 1}})
    assert won.phase == "play" and won.position.to_move == 1  # Luperto has no focus dice to answer
    view = check_view(won)
    assert view["initiative"]["player"] == 1 and "focus" in view["initiative"]["reason"]
    assert view["players"][1]["dice"][1]["barred"] is True
    assert not any(1 in c.action.get("attackers", []) for c in FLOW.choices(won))
    declined = FLOW.apply(state, {"type": "decline", "player": 1})
    assert declined.phase == "play" and declined.position.to_move == 0


def test_berserk_reroll_asks_for_the_halved_die():
    state = FLOW.start(setup("Cippacometa", "Luperto", a={"swing": {"X": 12}}))
    state = read(state, {"p0.0": 1, "p0.1": 2, "p0.2": 3, "p0.3": 9, "p0.4": 12,
                         "p1.0": 4, "p1.1": 5, "p1.2": 10, "p1.3": 20, "p1.4": 20})
    state = FLOW.apply(state, {"type": "attack", "kind": "berserk", "attackers": [3], "targets": [0, 1]})
    slot, = FLOW.expects(state).slots
    assert slot.key == "p0.3" and slot.sides == 10
    state = read(state, {"p0.3": 10})
    assert state.position.players[0].dice[3].label == "d10"


def test_fire_variant_in_choices_applies():
    state = FLOW.start(setup("Raven", "Luperto", a={"swing": {"X": 4}}))
    state = read(state, {"p0.0": 4, "p0.1": 6, "p0.2": 1, "p0.3": 1, "p0.4": 1,
                         "p1.0": 2, "p1.1": 8, "p1.2": 10, "p1.3": 20, "p1.4": 20})
    fire = [c for c in FLOW.choices(state) if c.action["fire"]]
    assert fire and all("turning fire down" in c.label for c in fire)
    after = FLOW.apply(state, fire[0].action)
    lowered = {f["die"]: f["to"] for f in fire[0].action["fire"]}
    for i, to in lowered.items():
        assert after.position.players[0].dice[i].value == to


def test_wrong_phase_and_bad_actions():
    state = FLOW.start(setup("Madness", "Luperto"))
    with pytest.raises(IllegalAction, match="'roll'"):
        FLOW.apply(state, {"type": "pass"})
    with pytest.raises(InvalidInput, match="'dance'"):
        FLOW.apply(state, {"type": "dance"})
    with pytest.raises(InvalidInput, match="type"):
        FLOW.apply(state, {"kind": "power"})


def test_propose_matches_zone_and_sides_in_any_order():
    state = FLOW.start(setup("Jones", "Lalla", a={"swing": {"X": 4}}, b={"swing": {"X": 6}}))
    # Jones: 1 6 10 20 X=4 (the d1 needs no reading); Lalla: 6 8 12 X=6
    dice = [{"sides": 6, "value": 2, "zone": "p1"}, {"sides": 20, "value": 17, "zone": "p0"},
            {"sides": 6, "value": 5, "zone": "p0"}, {"sides": 4, "value": 3, "zone": "p0"},
            {"sides": 10, "value": 10, "zone": "p0"}, {"sides": 12, "value": 11, "zone": "p1"},
            {"sides": 8, "value": 8, "zone": "p1"}, {"sides": 6, "value": 6, "zone": "p1"}]
    for d in dice:
        d.update(bbox=[0, 0, 10, 10], confidence=0.9)
    action = FLOW.propose(state, camera({"dice": dice, "tokens": []}))
    assert action == {"type": "reading", "values": {"p0.1": 5, "p0.2": 10, "p0.3": 17, "p0.4": 3,
                                                    "p1.0": 2, "p1.1": 8, "p1.2": 11, "p1.3": 6}}
    assert FLOW.apply(state, action).phase in ("play", "focus")
    # the camera missed the sizes: still a consistent assignment by zone and order
    blind = [{**d, "sides": None} for d in dice]
    guess = FLOW.propose(state, camera({"dice": blind}))
    assert guess is not None and guess["values"]["p0.4"] in range(1, 5)
    assert FLOW.propose(state, camera({"dice": dice[:5]})) is None  # too few dice
    with pytest.raises(InvalidInput, match="a reading's \"dice\" is a list"):
        TableReading.from_json({"dice": "nonsense"})  # refused at the JSON edge, before any flow


def test_propose_in_a_reroll_ignores_the_dice_that_stayed():
    state = FLOW.start(setup("Madness", "Luperto"))
    state = read(state, {"p0.0": 2, "p0.1": 5, "p0.2": 9, "p0.3": 12, "p0.4": 15, "p0.5": 20,
                         "p1.0": 3, "p1.1": 4, "p1.2": 7, "p1.3": 18, "p1.4": 19})
    state = FLOW.apply(state, {"type": "attack", "kind": "power", "attackers": [4], "targets": [2]})
    seen = [{"sides": 20, "value": v, "zone": "p0"} for v in (2, 5, 9, 12, 6, 20)]
    seen += [{"sides": s, "value": v, "zone": "p1"} for s, v in ((4, 3), (8, 4), (20, 18), (20, 19))]
    assert FLOW.propose(state, camera({"dice": seen})) == {"type": "reading", "values": {"p0.4": 6}}
    assert FLOW.propose(state, camera({"dice": []})) is None


def test_same_actions_replay_to_the_same_state():
    rng = random.Random(7)
    data = setup("Lobo", "Fireandice", a={"swing": {"X": 8, "W": 12, "Y": 6}}, b={"swing": {"X": 10}})
    state = FLOW.start(data)
    actions = []
    for _ in range(60):
        if state.phase in ("roll", "reroll"):
            action = {"type": "reading", "values": {s.key: rng.randint(s.low, s.high)
                                                    for s in FLOW.expects(state).slots}}
        elif state.phase == "over":
            break
        else:
            action = dict(rng.choice(list(FLOW.choices(state))).action)
        state = FLOW.apply(state, action)
        actions.append(action)
    replayed = FLOW.start(data)
    for action in json.loads(json.dumps(actions)):
        replayed = FLOW.apply(replayed, action)
    assert replayed == state
    assert FLOW.view(replayed) == FLOW.view(state)


def test_a_whole_match_to_three_rounds_with_swing_between_rounds():
    rng = random.Random(11)
    state = FLOW.start(setup("Lobo", "SdP"))
    for _ in range(3000):
        check_view(state)
        if state.phase == "over":
            break
        if state.phase in ("roll", "reroll"):
            action = {"type": "reading", "values": {s.key: rng.randint(s.low, s.high)
                                                    for s in FLOW.expects(state).slots}}
        elif state.phase == "swing" and state.round_number > 1:
            keep = [c for c in FLOW.choices(state) if c.key == "swing.keep"]
            assert keep  # the sizes of the last round are offered
            action = dict(rng.choice(FLOW.choices(state)).action)
        else:
            action = dict(rng.choice(list(FLOW.choices(state))).action)
        state = FLOW.apply(state, action)
    view = check_view(state)
    assert view["over"] is True and view["phase"] == "over"
    assert max(view["rounds_won"]) == 3 and view["outcome"]["rounds_won"] == view["rounds_won"]
    assert FLOW.choices(state) == [] and FLOW.expects(state) is None
    with pytest.raises(IllegalAction, match="over"):
        FLOW.apply(state, {"type": "pass"})
