"""The lines Goblins: Epic Death and the skirmish rules write reach the Italian page in Italian.

The rules cores write their log and their refusals as ``companion.messages.Message``: English words (what
the command line prints) carrying a message key and parameters. These tests drive both games through the
session, collect every message the snapshot carries (log, prompts, choices, the test's label, nested
words) and every refusal the API answers, and check that each key is in the Italian catalogue with
parameters the flow gives, and that the Italian rendering (the page's ``t`` and ``fill``, reproduced
here) leaves no English sentence behind.
"""

from __future__ import annotations

import json
import random
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.goblins import core as goblins_core
from companion.messages import Message
from companion.session import TableSession
from companion.skirmish import core as skirmish_core
from companion.skirmish import flow as skirmish_flow
from companion.store import Store
from tests.e2e_games.test_keys import SETUPS
from tests.web.conftest import play_step
from web import create_app
from web.i18n import all_words

WEB = Path(__file__).resolve().parents[2] / "web"
# the page's catalogue and the games' words (each loaded with its game's view), as t reads them
ITALIAN: dict[str, str] = all_words("it")
ENGLISH: dict[str, str] = all_words("en")
TEMPLATES = {**goblins_core.MESSAGES, **skirmish_core.MESSAGES, **skirmish_flow.MESSAGES}
ENGLISH_WORDS = re.compile(
    r"\b(the|is|are|and|of|with|from|wins|dies|die|rolled|needs|success|failure|alive|dead|takes|tosses|"
    r"toss|defence|attack|crew|troops?|heroes|shoots?|assaults?|saves|roll|again|left|turn|card|cards|"
    r"plays|ends|flees|holds|nearest|range|cover|certain|impossible|chance|points|draw|victory|defeat)\b"
)
GOBLINS = {**SETUPS["goblins"],
           "terrains": ["Torre|walls|8|2|-", "Ponte|river|4|1|hero", "Forte|walls|9|2|machine",
                        "Piazza|centre|3|3|-"],
           "heroes": ["Cavalleria|4|2", "Troll|3|1"]}
SKIRMISH = {"bands": [
    {"name": "Elfi", "models": ["Lor|T3|A3|S4|P20|eroe2|capitano", "Arc|T4|A4|S5|P10",
                                "Cav|T4|A3|S5|P10|cavalleria|possente"]},
    {"name": "Orchi", "models": ["Grok|T4|A3|S4|P15|capitano|eroe1", "Orco|T5|A4|S5|P5",
                                 "Uruk|T5|A4|S5|P5"]}],
    "time_limit_min": 60}


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def render(message: dict[str, Any], catalogue: dict[str, str]) -> str:
    """The page's ``t(key, params, text)``: nested messages translated, the English words as fallback."""
    def value(v: Any) -> str:
        if isinstance(v, dict) and isinstance(v.get("key"), str) and "text" in v:
            return render(v, catalogue)
        if isinstance(v, list):
            return ", ".join(value(x) for x in v)
        return "" if v is None else str(v)

    params = message.get("params") or {}
    text = catalogue.get(message["key"]) if message.get("key") else None
    if text is None:
        return str(message["text"])
    filled = re.sub(r"\{(\w+)\}", lambda m: value(params[m[1]]) if m[1] in params else m[0], text)
    return str(message["text"]) if re.search(r"\{\w+\}", filled) else filled


def messages_in(value: Any) -> Iterator[dict[str, Any]]:
    """Every ``{key, params, text}`` object in a snapshot, nested ones included."""
    if isinstance(value, dict):
        if isinstance(value.get("key"), str) and "text" in value and "params" in value:
            yield value
        for v in value.values():
            yield from messages_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from messages_in(v)


def collect(snap: dict[str, Any], seen: dict[str, dict[str, Any]]) -> None:
    view = snap["view"] or {}
    for line in view.get("log", []):
        assert isinstance(line, dict) and line["key"], f"a log line without a key: {line!r}"
    shown = {"log": view.get("log"), "awaiting": view.get("awaiting"), "expects": snap["expects"]}
    for m in messages_in(shown):
        seen.setdefault(m["key"], m)
    if snap["expects"]:
        seen.setdefault(snap["expects"]["prompt"], {"key": snap["expects"]["prompt"],
                                                    "params": snap["expects"]["params"], "text": ""})
    # two choices never read the same in Italian (each option of a yes/no step has its own words)
    said = [render({"key": c["key"], "params": c["params"], "text": c["label"]}, ITALIAN)
            for c in snap["choices"]]
    assert len(set(said)) == len({c["label"] for c in snap["choices"]}), said  # two like machines read alike
    for choice in snap["choices"]:
        seen.setdefault(choice["key"], {"key": choice["key"], "params": choice["params"],
                                        "text": choice["label"]})


def scripted(game: str, snap: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """Now and then an action the page's forms send (charges, leaving a combat, a hero, a card effect)."""
    forms = {f["type"] for f in (snap["view"] or {}).get("forms", [])}
    roll = rng.random()
    if game == "skirmish" and "assault" in forms and roll < 0.4:
        return {"type": "assault", "attacker": rng.randrange(3), "target": rng.randrange(3),
                "distance": rng.choice([0, 3, 7]), "extra_contacts": rng.random() < 0.5}
    if game == "skirmish" and "disengage" in forms and roll < 0.5:
        return {"type": "disengage", "model": rng.randrange(3), "enemies": [rng.randrange(3)]}
    if game == "goblins" and "play_machine" in forms and roll < 0.3:
        return {"type": "play_machine", "machine": rng.choice(["Ariete|ram|3|1|1", "Cannone|cannon|5|1|1",
                                                               "Torre d'assedio|plain|2|2|2"])}
    if game == "goblins" and "adjust" in forms and roll < 0.33:
        return {"type": "adjust", "player": 0, "troops": 1}
    return None


def drive(tmp_path: Path, game: str, setup: dict[str, Any], seeds: int,
          steps: int) -> dict[str, dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}
    for seed in range(seeds):
        with Store(tmp_path / f"{game}-{seed}.sqlite3") as store:
            session = TableSession(store)
            session.new_game(game, setup)
            rng = random.Random(seed)
            for _ in range(steps):
                snap = session.snapshot()
                collect(snap, seen)
                if snap["over"]:
                    break
                action = scripted(game, snap, rng)
                if action is not None:
                    try:
                        session.correct(action, step=snap["step"])
                        continue
                    except ValueError:
                        pass  # a refusal: a random step instead
                play_step(session, rng)
            collect(session.snapshot(), seen)
    return seen


def test_every_message_a_core_can_write_is_in_italian() -> None:
    assert len(TEMPLATES) > 150
    for key, english in TEMPLATES.items():
        assert key in ITALIAN, key
        assert placeholders(ITALIAN[key]) <= placeholders(english), (key, ITALIAN[key])
        assert ITALIAN[key] != english, key
        if key in ENGLISH:
            assert placeholders(ENGLISH[key]) == placeholders(english), key


def check_seen(seen: dict[str, dict[str, Any]]) -> None:
    for key, message in seen.items():
        assert key in ITALIAN, key
        assert placeholders(ITALIAN[key]) <= set(message["params"]), (key, ITALIAN[key], message["params"])
        italian = render(message, ITALIAN)
        leak = ENGLISH_WORDS.search(re.sub(r"\{.*?\}|'[^']*'", "", italian))
        assert leak is None, (key, italian)
        if message["text"]:
            assert render(message, ENGLISH) == message["text"] or key in ENGLISH, key


def test_a_whole_goblins_game_speaks_italian(tmp_path: Path) -> None:
    seen = drive(tmp_path, "goblins", GOBLINS, seeds=12, steps=260)
    logged = {k for k in seen if k.startswith("goblins.log.")}
    for key in ("goblins.log.face", "goblins.log.brawl", "goblins.log.epic", "goblins.log.cannon_fires",
                "goblins.log.toss.ram", "goblins.log.conquest", "goblins.log.defeated", "goblins.log.victory",
                "goblins.log.toss.troops", "goblins.log.modified_defence"):
        assert key in logged, (key, sorted(logged))
    check_seen(seen)


def test_a_whole_skirmish_game_speaks_italian(tmp_path: Path) -> None:
    seen = drive(tmp_path, "skirmish", SKIRMISH, seeds=6, steps=400)
    for key in ("skirmish.log.success", "skirmish.log.failure", "skirmish.log.dies", "skirmish.check.morale",
                "skirmish.log.rout_test", "skirmish.check.shoot", "skirmish.check.save", "skirmish.log.check",
                "skirmish.check.charge", "skirmish.log.end_card", "skirmish.why.near_death"):
        assert key in seen, (key, sorted(seen))
    check_seen(seen)


# ------------------------------------------------------------------------------------------- refusals

@pytest.fixture
def client(tmp_path: Path) -> Iterator[FlaskClient]:
    with Store(tmp_path / "api.sqlite3") as store:
        yield create_app({"TESTING": True}, session=TableSession(store)).test_client()


def refusal(client: FlaskClient, action: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/correct", json={"action": action})
    assert response.status_code == 409, response.json
    body = response.json
    assert body is not None and body["key"] in ITALIAN, body
    italian = render({"key": body["key"], "params": body["params"], "text": body["detail"]}, ITALIAN)
    assert italian != body["detail"] and ENGLISH_WORDS.search(re.sub(r"\{.*?\}|'[^']*'", "", italian)) is None
    return body


def test_the_rules_refusals_reach_the_page_with_their_keys(client: FlaskClient) -> None:
    assert client.post("/api/new-game", json={"game": "goblins", "setup": GOBLINS}).status_code == 200
    body = refusal(client, {"type": "recrew", "machine": 0})
    assert body["key"] == "goblins.error.recrew_phase"
    assert body["detail"] == "machines are re-crewed in phase D"  # the English words, as before
    assert refusal(client, {"type": "reinforce", "goblins": 3})["params"] == {"goblins": 3}

    assert client.post("/api/new-game", json={"game": "skirmish", "setup": SKIRMISH}).status_code == 200
    body = refusal(client, {"type": "play_card", "card": "tiro2"})
    assert body["key"] == "skirmish.error.roll_awaited"
    assert body["params"]["kind"] == {"key": "skirmish.kind.deploy", "params": {}, "text": "deploy"}
    assert render({"key": body["key"], "params": body["params"], "text": body["detail"]}, ITALIAN).startswith(
        "Si aspetta il tiro «Schieramento»")


def test_a_shot_out_of_range_is_refused_in_italian(client: FlaskClient) -> None:
    assert client.post("/api/new-game", json={"game": "skirmish", "setup": SKIRMISH}).status_code == 200
    for values in ({"p0": 1, "p1": 2}, {"p0": 5, "p1": 2}):
        client.post("/api/correct", json={"action": {"type": "reading", "values": values}})
    for action in ({"type": "choose_first", "band": 0}, {"type": "play_card", "card": "tiro2"}):
        assert client.post("/api/correct", json={"action": action}).status_code == 200
    body = refusal(client, {"type": "shoot", "target": 1, "shooters": [{"model": 1, "distance": 31}]})
    assert body["key"] == "skirmish.error.range"
    assert render({"key": body["key"], "params": body["params"], "text": body["detail"]}, ITALIAN) == (
        "Arc è a 31 cm; la gittata è 30 cm")


def test_a_message_is_its_english_words() -> None:
    said = goblins_core._say("goblins.log.face", army="Arnaldo", terrain="Torre", defence=8)
    assert said == "Arnaldo faces Torre (defence 8)" and isinstance(said, str)
    assert json.dumps([said]) == '["Arnaldo faces Torre (defence 8)"]'  # the command line prints the words
    assert said.to_json()["key"] == "goblins.log.face" and isinstance(said, Message)
