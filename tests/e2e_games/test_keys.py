"""Every prompt and choice key the four games' flows use has an Italian message whose placeholders the
flow fills, in the words a page of that game has (its catalogue, the game's own words and the shared ones,
not another game's), and each game's words (web/static/games/<game>.<lang>.json) agree across languages."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.session import TableSession
from companion.store import Store
from tests.helpers import assert_translated, placeholders
from tests.web.conftest import play_step
from web.i18n import GAME_WORDS, catalogue, game_words, words_for

WEB = Path(__file__).resolve().parents[2] / "web"
SETUPS: dict[str, dict[str, Any]] = {
    "dadoteck": {"players": ["Anna", "Bruno", "Carla"]},
    "gobcon": {"players": ["Ada", "Bea", "Cleo"]},
    "goblins": {"players": ["Arnaldo", "Bice"], "terrains": ["Torre|walls|8|2|-", "Ponte|river|4|1|hero"],
                "heroes": ["Cavalleria|4|2"]},
    "skirmish": {"bands": [
        {"name": "Elfi", "models": [
            "Lor|T3|A3|S4|P20|eroe2|capitano", "Arc|T4|A4|S5|P10", "Ent|T4|A4|S5|P10"]},
        {"name": "Orchi", "models": ["Grok|T4|A3|S4|P15|capitano", "Orco|T5|A4|S5|P5", "Uruk|T5|A4|S5|P5"]}]},
}
PARTITA = {"type": "partita", "name": "Risiko", "category": "board",
           "payoff": {"king": 3, "green": 1, "black": 0, "darth": -1}}


@pytest.mark.parametrize("game", list(SETUPS))
def test_the_flows_message_keys_are_translated(tmp_path: Path, game: str) -> None:
    italian = words_for("it", game)
    seen: dict[str, set[str]] = {}
    for seed in range(3):
        with Store(tmp_path / f"{seed}.sqlite3") as store:
            session = TableSession(store)
            session.new_game(game, SETUPS[game])
            if game == "gobcon":
                session.correct(PARTITA)
            rng = random.Random(seed)
            for _ in range(120):
                snap = session.snapshot()
                if snap["expects"]:
                    seen.setdefault(snap["expects"]["prompt"], set()).update(snap["expects"]["params"])
                for choice in snap["choices"]:
                    seen.setdefault(choice["key"], set()).update(choice["params"])
                if snap["over"]:
                    break
                play_step(session, rng)
    assert_translated(seen, italian, 3)


GAMES = ("button-goblin", *SETUPS)


@pytest.mark.parametrize("game", GAMES)
def test_each_games_words_agree_and_belong_to_it_alone(game: str) -> None:
    italian, english = game_words("it", game), game_words("en", game)
    assert len(italian) > 30 and set(italian) == set(english)
    for key in italian:
        assert placeholders(italian[key]) == placeholders(english[key]), key
    # a word is in one place only: not in the page's catalogue (every page would carry it), nor another game's
    assert not set(italian) & set(catalogue("it")), set(italian) & set(catalogue("it"))
    for other in GAMES:
        if other != game:
            assert not set(italian) & set(game_words("it", other)), other
    files = sorted(path.name for path in GAME_WORDS.glob(f"{game}.*.json"))
    assert files == [f"{game}.en.json", f"{game}.it.json"]


def test_the_views_catalogues_agree() -> None:
    italian = json.loads((WEB / "static" / "games.it.json").read_text(encoding="utf-8"))
    english = json.loads((WEB / "static" / "games.en.json").read_text(encoding="utf-8"))
    assert set(italian) == set(english)
    for key in italian:
        assert placeholders(italian[key]) == placeholders(english[key]), key
    for game in GAMES:
        italian |= game_words("it", game)
    views = sorted((WEB / "static" / "games").glob("*.js"))
    used = "".join(path.read_text(encoding="utf-8") for path in views)
    for key in italian:  # the cores' log and refusals (goblins.*, skirmish.*) are named by the cores
        if key.startswith("games."):
            assert key in used or key.rsplit(".", 1)[0] + ".${" in used, f"{key} is never used"
