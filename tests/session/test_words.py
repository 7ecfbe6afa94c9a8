"""Issue 16 point 10 at the session: the history says what a step did from the table before it (also
after a restart), the Goblins view has a status line, and Goblins cards take the rulebook's Italian words."""

from __future__ import annotations

import random
from pathlib import Path

from companion.games import find_game
from companion.goblins.core import Machine, Terrain
from companion.session import TableSession
from companion.store import Store
from tests.session.conftest import D6_SETUP, play_step


def test_an_attack_in_the_history_names_its_dice_as_they_were_even_after_a_restart(db: Path) -> None:
    rng = random.Random(3)
    with Store(db) as store:
        session = TableSession(store)
        session.new_game("button-goblin", D6_SETUP)
        snap = play_step(session, rng)
        while not any(c["action"].get("type") == "attack" for c in snap["choices"]):
            snap = play_step(session, rng)
        choice = next(c for c in snap["choices"] if c["action"].get("type") == "attack")
        mover = snap["view"]["turn"]["player"]
        dice = snap["view"]["players"][mover]["dice"]
        first = dice[choice["action"]["attackers"][0]]
        said = session.choose(choice["index"])["history"][-1]["said"]
        assert said["params"]["player"] == snap["view"]["players"][mover]["name"]
        assert said["params"]["kind"]["key"] == f"attack.name.{choice['action']['kind']}"
        assert f"({first['value']})" in said["params"]["attackers"]  # the value it had when it attacked
        history = session.snapshot()["history"]
    with Store(db) as store:
        assert TableSession(store).snapshot()["history"] == history  # rebuilt from the log alike


def test_the_goblins_view_says_who_does_what_unless_a_toss_is_awaited() -> None:
    flow = find_game("goblins")
    state = flow.start({"players": ["Ada", "Bea"]})
    prompt = flow.view(state)["prompts"][0]
    assert prompt["key"] == "goblins.prompt.A" and prompt["params"] == {"player": "Ada"}
    assert prompt["text"].startswith("Ada, phase A (Reinforcements)")
    toss = flow.apply(state, {"type": "face", "terrain": "Torre|mura|3|2|-"})
    if flow.expects(toss) is not None:
        assert flow.view(toss)["prompts"] == []


def test_goblins_cards_take_the_rulebooks_italian_words() -> None:
    assert Terrain.parse("Torre|mura|8|2|eroe") == Terrain.parse("Torre|walls|8|2|hero")
    assert Terrain.parse("Bosco|Bosco|3|1|macchina").kind == "wood"
    assert Machine.parse("Ariete|ariete|3|1|1") == Machine.parse("Ariete|ram|3|1|1")
    assert Machine.parse("C|cannone|5|2|2").kind == "cannon"
    assert Machine.parse("X|semplice|1|1|1").kind == "plain"
    assert Terrain.parse("Torre|mura|8|2|-").notation() == "Torre|walls|8|2|-"  # the log keeps English
