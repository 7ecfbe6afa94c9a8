"""Malformed input and the session's refusals reach the API with a message key the page translates.

The key is given where the error is raised (``companion.messages.Message``), not recovered from the English
``detail``: web/ never reads the English back. These tests drive every shape of malformed input the session
and the games' parsers name, through the API and through the parsers directly, and fail if one arrives
without a key, or with a key either catalogue lacks.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.button_goblin.roster import find_button
from companion.dadoteck import core as dadoteck_core
from companion.errors import GoblinError
from companion.gobcon import codec as gobcon_codec
from companion.gobcon import core as gobcon_core
from companion.messages import Message, error_message
from companion.session import TableSession
from companion.skirmish.core import Model
from tests.web.conftest import D6_SETUP, FIRST_ROLL, camera_reading
from web.i18n import all_words, words_for

I18N = Path(__file__).resolve().parents[2] / "web" / "i18n"
CATALOGUES = {lang: json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("it", "en")}
#: Every word of the games (static/games/<game>.<lang>.json and the shared games.<lang>.json): the page loads
#: a game's with its view, and the shared ones with the views or on the first error its catalogue lacks.
GAME_CATALOGUES = {lang: all_words(lang) for lang in ("it", "en")}

GOBLINS = {"game": "goblins", "setup": {"players": ["Ada", "Bea"]}}
GOBCON = {"game": "gobcon", "setup": {"players": ["Ada", "Bea"]}}
SKIRMISH = {"game": "skirmish", "setup": {"bands": [{"name": "Elfi", "models": ["Lor|T3|A3|S4|P20"]},
                                                    {"name": "Orchi", "models": ["Grok|T4|A3|S4|P15"]}]}}
BUTTON = {"game": "button-goblin", "setup": D6_SETUP}


def skirmish_band(model: str) -> dict[str, Any]:
    return {"game": "skirmish", "setup": {"bands": [{"name": "Elfi", "models": [model]},
                                                    {"name": "Orchi", "models": ["Grok|T4|A3|S4|P15"]}]}}


#: (message key, game to start first or None, whether the camera read FIRST_ROLL, request path, JSON body)
REQUESTS: list[tuple[str, dict[str, Any] | None, bool, str, dict[str, Any]]] = [
    # the games' parsers
    *[("error.input.players", None, False, "/api/new-game", {"game": game, "setup": {"players": ["Ada"]}})
      for game in ("gobcon", "goblins", "dadoteck")],
    ("error.input.unknown_game", None, False, "/api/new-game", {"game": "chess"}),
    ("error.input.name", None, False, "/api/new-game",
     {"game": "gobcon", "setup": {"players": ["A" * 41, "B"]}}),
    ("error.input.notation", None, False, "/api/new-game",
     {"game": "goblins", "setup": {"players": ["A", "B"], "terrains": ["Torre"]}}),
    ("error.input.notation", GOBLINS, False, "/api/correct", {"action": {"type": "play_hero", "hero": "H"}}),
    ("error.input.not_one_of", GOBLINS, False, "/api/correct",
     {"action": {"type": "face", "terrain": "T|moon|3|2|-"}}),
    ("error.input.unknown_event", GOBLINS, False, "/api/correct", {"action": {"type": "nope"}}),
    ("error.input.unknown_event", SKIRMISH, False, "/api/correct", {"action": {"type": "nope"}}),
    ("error.input.event_needs", GOBLINS, False, "/api/correct", {"action": {"type": "adjust", "player": 0}}),
    # a card form left blank on the page: which field is missing, not "hero must be a JSON object, got None"
    *[("error.input.event_needs", GOBLINS, False, "/api/correct", {"action": {"type": kind, field: ""}})
      for kind, field in (("play_hero", "hero"), ("play_machine", "machine"), ("face", "terrain"))],
    ("error.input.event_needs", GOBLINS, False, "/api/correct", {"action": {"type": "play_hero"}}),
    ("error.input.event_int", GOBLINS, False, "/api/correct",
     {"action": {"type": "adjust", "player": 0, "troops": "x"}}),
    ("error.input.event_int", SKIRMISH, False, "/api/correct", {"action": {"type": "roll", "dice": ["6"]}}),
    ("error.input.slot_value", SKIRMISH, False, "/api/correct",
     {"action": {"type": "reading", "values": {"p0": 7, "p1": 1}}}),
    ("error.input.no_button", None, False, "/api/new-game",
     {"game": "button-goblin", "setup": {"players": [{"button": "Nope"}, {}]}}),
    ("error.input.model_needs", None, False, "/api/new-game", skirmish_band("Orco|A4|S5")),
    ("error.input.model_token", None, False, "/api/new-game", skirmish_band("Orco|A4|S5|P6|volante")),
    # the session
    ("error.input.no_choice", BUTTON, False, "/api/select", {"index": 99}),
    ("error.input.no_die", BUTTON, True, "/api/fix-die", {"index": 99, "sides": 6, "value": 1}),
    ("error.input.die_sides", BUTTON, True, "/api/fix-die", {"index": 0, "sides": 7, "value": 1}),
    ("error.input.die_value", BUTTON, True, "/api/fix-die", {"index": 0, "sides": 10, "value": 11}),
    ("error.input.die_place", BUTTON, True, "/api/add-die", {"x": 2, "y": 0.5, "sides": 6, "value": 1}),
    ("error.session.no_game", None, False, "/api/confirm", {}),
    ("error.session.nothing_read", BUTTON, False, "/api/confirm", {}),
    ("error.session.no_choices_camera", BUTTON, False, "/api/next", {}),
    ("error.session.nothing_to_undo", BUTTON, False, "/api/undo", {}),
    ("error.session.nothing_to_fix", BUTTON, False, "/api/fix-die", {"index": 0, "remove": True}),
    ("error.session.stale_step", BUTTON, False, "/api/confirm", {"step": 3}),
    ("error.session.stale_position", BUTTON, False, "/api/confirm", {"position": "9:9:9"}),
]


def check_key(said: dict[str, Any]) -> None:
    """``said`` (``{"key", "params"}``) names a message both catalogues have, and so does every nested word
    that is a whole message of its own (an ``error.input.*``/``error.session.*`` one)."""
    for lang, messages in CATALOGUES.items():
        assert said["key"] in messages or said["key"] in GAME_CATALOGUES[lang], (lang, said)
    for value in said["params"].values():
        if isinstance(value, dict) and str(value.get("key", "")).startswith("error."):
            assert value["key"].startswith("error.what.") or value["key"] in CATALOGUES["it"], said


@pytest.mark.parametrize(("key", "game", "read", "path", "body"), REQUESTS,
                         ids=[f"{r[0]}-{n}" for n, r in enumerate(REQUESTS)])
def test_every_malformed_request_carries_its_key(
        client: FlaskClient, session: TableSession, key: str, game: dict[str, Any] | None, read: bool,
        path: str, body: dict[str, Any]) -> None:
    if game is not None:
        assert client.post("/api/new-game", json=game).status_code == 200
    if read:
        session.offer_reading(camera_reading(FIRST_ROLL))
    before = client.get("/api/state").json
    response = client.post(path, json=body)
    assert response.status_code in (400, 409), response.json
    answer = response.json
    assert answer.get("key") == key, answer
    check_key(answer)
    assert client.get("/api/state").json["step"] == before["step"]


def test_a_selected_choice_is_needed_to_confirm(client: FlaskClient, session: TableSession) -> None:
    client.post("/api/new-game", json=BUTTON)
    client.post("/api/correct", json={"action": {"type": "reading", "values": FIRST_ROLL}})
    answer = client.post("/api/confirm", json={}).json
    assert answer["key"] == "error.session.nothing_selected", answer
    check_key(answer)


def test_an_attack_with_a_bad_index_carries_its_key(client: FlaskClient) -> None:
    client.post("/api/new-game", json=BUTTON)
    client.post("/api/correct", json={"action": {"type": "reading", "values": FIRST_ROLL}})
    attack = {"type": "attack", "kind": "power", "attackers": ["a"], "targets": [0]}
    answer = client.post("/api/correct", json={"action": attack}).json
    assert answer["key"] == "error.input.int", answer
    check_key(answer)


def test_an_export_before_any_game_carries_its_key(client: FlaskClient) -> None:
    answer = client.get("/api/export").json
    assert answer["key"] == "error.session.no_game_yet", answer
    check_key(answer)


class Finished:
    """A stand-in game that is over at once: nothing to read, nothing to choose."""

    game = "finished"
    title = "Finished"

    def setup_schema(self) -> dict[str, Any]:
        return {}

    def start(self, setup: Any) -> int:
        return 0

    def apply(self, state: int, action: Any) -> int:
        return state

    def expects(self, state: int) -> None:
        return None

    def propose(self, state: int, reading: Any) -> None:
        return None

    def choices(self, state: int) -> list[Any]:
        return []

    def view(self, state: int) -> dict[str, Any]:
        return {"over": True}


def test_the_refusals_no_page_request_reaches_carry_their_keys(session: TableSession) -> None:
    """NEXT on a game with nothing to choose, and the export of a game the log lacks."""
    over = TableSession(session.store, flows=lambda name: Finished())
    over.new_game("finished", {})
    for call, key in ((over.next_choice, "error.session.no_choices"),
                      (lambda: over.export(999), "error.session.no_such_game")):
        with pytest.raises(GoblinError) as raised:
            call()
        said = error_message(raised.value)
        assert said is not None and said.key == key, raised.value
        check_key(said.to_json())


#: Parsers the command lines share with the table, called directly: shapes the API rarely reaches.
PARSERS: list[tuple[str, Callable[[], object]]] = [
    ("error.input.players", lambda: dadoteck_core.new_game(["Solo"])),
    ("error.input.unknown_event",
     lambda: dadoteck_core.event_from_json({"type": "nap"}, ("A", "B"))),
    ("error.input.event_needs", lambda: dadoteck_core.event_from_json({"type": "roll"}, ("A", "B"))),
    ("error.input.event_needs", lambda: dadoteck_core.event_from_json({"type": "square"}, ("A", "B"))),
    ("error.input.event_int",
     lambda: dadoteck_core.event_from_json({"type": "roll", "player": 0, "value": "x"}, ("A", "B"))),
    ("error.input.die_value", lambda: gobcon_core.face_of_pips(7)),
    ("error.input.unknown", lambda: gobcon_codec.category("bogus")),
    ("error.input.unknown_event", lambda: gobcon_codec.event_from_json({"type": "nap"}, ("A", "B"))),
    ("error.input.event_needs", lambda: gobcon_codec.event_from_json({"type": "partita"}, ("A", "B"))),
    ("error.input.model", lambda: Model.parse(3)),  # type: ignore[arg-type]
    ("error.input.no_button", lambda: find_button("Nobody")),
]


@pytest.mark.parametrize(("key", "call"), PARSERS, ids=[f"{k}-{n}" for n, (k, _) in enumerate(PARSERS)])
def test_every_parser_shape_is_raised_with_its_key(key: str, call: Callable[[], object]) -> None:
    with pytest.raises(GoblinError) as raised:
        call()
    said = error_message(raised.value)
    assert isinstance(said, Message), raised.value
    assert said.key == key and str(said) == str(raised.value)
    check_key(said.to_json())


def test_every_shape_of_the_catalogue_is_raised_somewhere() -> None:
    """A key of the catalogue's malformed-input and refusal shapes that no parser or session raises any
    more is a translation nobody sees: drop it, or raise it again."""
    api_own = {"error.input.json", "error.input.not_object", "error.input.needs_int", "error.input.not_int",
               "error.input.position", "error.input.game", "error.input.setup", "error.input.action",
               "error.input.remove", "error.input.archive", "error.input.game_id"}  # web/api.py's own checks,
    # tested in test_api.py and test_matches.py
    shapes = {k for k in CATALOGUES["en"] if k.startswith(("error.input.", "error.session."))} - api_own
    tested = {r[0] for r in REQUESTS} | {k for k, _ in PARSERS} | {  # and the tests above
        "error.input.int", "error.session.nothing_selected", "error.session.no_game_yet",
        "error.session.no_choices", "error.session.no_such_game",
        "error.session.game_in_progress", "error.session.not_resumable",  # (test_matches.py)
        "error.input.no_room"}  # (test_add_die.py)
    assert sorted(shapes - tested) == []


# ------------------------------------------------------------------ refusals keyed by the rules cores' flows

DADOTECK = {"game": "dadoteck", "setup": {"players": ["Ada", "Bea"]}}
#: Few English words that must not reach the Italian page in a refusal (whole words).
ENGLISH = re.compile(r"\b(illegal|attack|must|whole|number|least|missing|shows|pass|die|dice|not|value)\b")


def italian(said: dict[str, Any]) -> str:
    """``said`` as the Italian page shows it: its catalogue, then the games' one; parameters that are
    messages of their own translated in place (like app.js's ``t``)."""
    messages = {**GAME_CATALOGUES["it"], **CATALOGUES["it"]}
    assert said["key"] in messages, said

    def show(value: Any) -> str:
        if isinstance(value, dict) and "key" in value:
            return italian(value) if value["key"] in messages else str(value["text"])
        return ", ".join(map(show, value)) if isinstance(value, list) else str(value)

    names = {name for _, name, _, _ in string.Formatter().parse(messages[said["key"]]) if name}
    assert names <= set(said["params"]), said
    return messages[said["key"]].format(**{k: show(v) for k, v in said["params"].items()})


#: (key, nested reason key or None, game, camera reading first, request path, body)
REFUSED: list[tuple[str, str | None, dict[str, Any], bool, str, dict[str, Any]]] = [
    ("bg.illegal.attack", "bg.illegal.less", BUTTON, False, "/api/correct",
     {"action": {"type": "attack", "kind": "power", "attackers": [1], "targets": [2]}}),
    ("bg.illegal.attack", "bg.illegal.one_target", BUTTON, False, "/api/correct",
     {"action": {"type": "attack", "kind": "power", "attackers": [2], "targets": [0, 3]}}),
    ("bg.illegal.attack", "bg.illegal.needs_skill", BUTTON, False, "/api/correct",
     {"action": {"type": "attack", "kind": "speed", "attackers": [2], "targets": [0]}}),
    ("bg.illegal.attack", "bg.illegal.attackers_sum", BUTTON, False, "/api/correct",
     {"action": {"type": "attack", "kind": "skill", "attackers": [1, 3], "targets": [2]}}),
    ("bg.illegal.attack", "bg.illegal.no_die", BUTTON, False, "/api/correct",
     {"action": {"type": "attack", "kind": "power", "attackers": [9], "targets": [0]}}),
    ("bg.illegal.must_attack", None, BUTTON, False, "/api/correct", {"action": {"type": "pass"}}),
    ("bg.illegal.not_now", None, BUTTON, False, "/api/correct",
     {"action": {"type": "swing", "player": 0, "sizes": {"X": 8}}}),
    ("bg.input.slot_range", None, BUTTON, True, "/api/correct",
     {"action": {"type": "reading", "values": {**FIRST_ROLL, "p0.1": 7}}}),
    ("bg.input.missing", None, BUTTON, True, "/api/correct",
     {"action": {"type": "reading", "values": {"p0.1": 2}}}),
    ("error.input.whole", None, GOBCON, False, "/api/correct",
     {"action": {"type": "modifier", "player": 0, "steps": "x"}}),
    ("error.input.at_least", None, SKIRMISH, False, "/api/correct",
     {"action": {"type": "clock", "elapsed": -1}}),
    ("error.input.slot_whole", None, DADOTECK, False, "/api/correct",
     {"action": {"type": "reading", "values": {"p0": "x"}}}),
]


@pytest.mark.parametrize(("key", "reason", "game", "fresh", "path", "body"), REFUSED,
                         ids=[f"{r[0]}-{r[1]}-{n}" for n, r in enumerate(REFUSED)])
def test_the_cores_refusals_carry_their_keys_in_italian(
        client: FlaskClient, key: str, reason: str | None, game: dict[str, Any], fresh: bool, path: str,
        body: dict[str, Any]) -> None:
    """A refusal the page can trigger arrives with its key, both catalogues have it, the Italian page
    shows no English word, and the table did not move."""
    assert client.post("/api/new-game", json=game).status_code == 200
    if game is BUTTON and not fresh:  # the dice are read: the player to move chooses an attack
        reading = {"action": {"type": "reading", "values": FIRST_ROLL}}
        assert client.post("/api/correct", json=reading).status_code == 200
    before = client.get("/api/state").json
    response = client.post(path, json=body)
    answer = response.json
    assert response.status_code in (400, 409) and answer.get("key") == key, answer
    check_key(answer)
    if reason is not None:
        assert answer["params"]["reason"]["key"] == reason, answer
    shown = italian(answer)
    assert not ENGLISH.search(shown), shown
    assert client.get("/api/state").json["step"] == before["step"]


def test_every_refusal_of_button_goblin_is_in_both_game_catalogues() -> None:
    from companion.button_goblin.core import ATTACK_KINDS, REFUSALS, SKILL_NAMES

    for lang in ("it", "en"):
        messages = words_for(lang, "button-goblin")  # what a Button Goblin page has
        for key, english in REFUSALS.items():
            assert key in messages, (lang, key)
            names = {n for _, n, _, _ in string.Formatter().parse(english) if n}
            assert {n for _, n, _, _ in string.Formatter().parse(messages[key]) if n} == names, (lang, key)
        for name in (*ATTACK_KINDS, *SKILL_NAMES.values()):
            assert f"bg.word.{name}" in messages, (lang, name)


def test_both_languages_have_the_same_keys() -> None:
    """The English page shows words, not raw keys or schema text, wherever the Italian one does."""
    for pair in (CATALOGUES, GAME_CATALOGUES):
        assert sorted(set(pair["it"]) - set(pair["en"])) == []
        assert sorted(set(pair["en"]) - set(pair["it"])) == []
