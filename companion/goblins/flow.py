"""Goblins: Epic Death at the table: the flow between the rules core and the session.

The camera counts the goblin tokens of each toss (alive / skull) in the ``toss`` zone, or on the whole
tray when no ``toss`` zone is configured; the players confirm the count on the page or with CONFIRM.
Choices (NEXT cycles, CONFIRM applies) cover the phase steps, the Cannon, the Epic Death declaration,
the heroes to toss for, and the terrains, heroes and machines listed in the setup's catalogue; anything
else (a terrain not in the catalogue, action-card effects) is an action the page's forms send,
described under ``view(...)["forms"]``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from companion.errors import InvalidInput
from companion.flow import Action, Choice, Expectation, Flow, TableFlow
from companion.goblins.core import (
    CANNON,
    RAM,
    STARTING_TROOPS,
    ChooseHeroes,
    Face,
    Game,
    Hero,
    Machine,
    PlayHero,
    PlayMachine,
    Terrain,
    active_reduction,
    apply,
    epic_death_allowed,
    event_to_json,
    modified_defence,
    parse_event,
    ranking,
    requirements_met,
)
from companion.goblins.rules import RULES
from companion.messages import Message, message_json
from companion.reading import TableReading

JSON = Any

PURPOSE_TEXT = {
    "ram": "the Ram's crew (a dead crew removes the Ram)",
    "cannon": "two army goblins as the Cannon's ammunition (-5 per dead one)",
    "troops": "troop goblins for losses",
    "hero": "a symbolic goblin from the reserve for a hero (dead: the hero dies)",
    "crew": "a machine's crew for losses",
    "epic_troops": "Epic Death: every troop goblin",
    "epic_crew": "Epic Death: a machine's crew",
    "survivor_troops": "the goblins left alive, again for losses",
    "survivor_crew": "the crew left alive, again for losses",
}


@dataclass(frozen=True)
class Table:
    """The flow's state: the game and the card catalogue chosen at setup."""

    game: Game
    terrains: tuple[Terrain, ...] = ()
    heroes: tuple[Hero, ...] = ()
    machines: tuple[Machine, ...] = (RAM, CANNON)


def _catalogue(setup: Mapping[str, JSON], key: str, parse: Any, default: tuple[Any, ...]) -> tuple[Any, ...]:
    value = setup.get(key)
    if value is None:
        return default
    if not isinstance(value, list):
        raise InvalidInput(f"setup {key!r} must be a list, got {value!r}")
    return tuple(parse(v) for v in value)


def _label(game: Game, a: Mapping[str, JSON]) -> str:
    """The English label of a listed choice."""
    kind = a["type"]
    if kind == "fire_cannon":
        return "Fire the Cannon" if a["fire"] else "Hold the Cannon's fire"
    if kind == "declare":
        return "Try an Epic Death" if a["epic"] else "Fight normally"
    if kind == "shout":
        return f"{game.armies[a['player']].name} shouted Goblin! first"
    if kind == "reinforce":
        n = a["goblins"]
        return f"Take {n} goblin{'' if n == 1 else 's'}, draw {2 - n} card{'' if 2 - n == 1 else 's'}"
    if kind == "brawl":
        return f"Brawl with {game.armies[a['defender']].name}"
    if kind == "recrew":
        return f"Re-crew {game.armies[game.current].machines[a['machine']].name}"
    if kind == "no_combat":
        return "Empty space or no move: no combat"
    return "End the turn"


def _key(game: Game, a: Mapping[str, JSON]) -> tuple[str, dict[str, JSON]]:
    """The message key and params of a listed choice: each option of a yes/no step has its own key."""
    kind = a["type"]
    params = dict(a)
    if kind == "declare":
        return f"goblins.declare.{'epic' if a['epic'] else 'normal'}", params
    if kind == "fire_cannon":
        return f"goblins.fire_cannon.{'fire' if a['fire'] else 'hold'}", params
    if kind in ("brawl", "shout"):
        params["name"] = game.armies[a["defender" if kind == "brawl" else "player"]].name
        return f"goblins.{kind}_with" if kind == "brawl" else "goblins.shout", params
    if kind == "recrew":
        params["name"] = game.armies[game.current].machines[a["machine"]].name
    if kind == "reinforce":  # 0, 1 or 2 goblins: the rest of the two are cards drawn
        params["cards"] = 2 - a["goblins"]
        return f"goblins.reinforce.{a['goblins']}", params
    return f"goblins.{kind}", params


def _card_choice(event: Face | PlayHero | PlayMachine) -> Choice:
    """A catalogue card the legal view takes, in words."""
    if isinstance(event, Face):
        t = event.terrain
        return Choice(event_to_json(event), f"Face {t.name} (defence {t.defence}, {t.vp} VP)", "face",
                      "goblins.face", {"terrain": t.name, "defence": t.defence, "vp": t.vp})
    if isinstance(event, PlayHero):
        h = event.hero
        return Choice(event_to_json(event), f"Play {h.name} (attack {h.attack}, {h.cost} goblins)", "play",
                      "goblins.play_hero", {"hero": h.name, "attack": h.attack, "cost": h.cost})
    m = event.machine
    return Choice(event_to_json(event), f"Play {m.name} ({m.crew_size} crew)", "play", "goblins.play_machine",
                  {"machine": m.name, "crew": m.crew_size})


class GoblinsFlow(TableFlow[Table]):
    """The table flow of Goblins: Epic Death (``companion.flow.Flow``)."""

    form: ClassVar[Mapping[str, JSON]] = {
        "fields": [
            {
                "key": "players",
                "type": "names",
                "min": 2,
                "max": 6,
                "label": "Players, clockwise from the first",
            },
            {
                "key": "centre",
                "type": "int",
                "min": 1,
                "max": 12,
                "default": 1,
                "label": "City Centre terrains in play (the game ends when all are taken)",
            },
            {
                "key": "troops",
                "type": "int",
                "min": 0,
                "max": 20,
                "default": STARTING_TROOPS,
                "label": "Goblins each player starts with",
            },
            {
                "key": "terrains",
                "type": "notations",
                "optional": True,
                "example": "Lego-Las|walls|10|3|-",
                "label": "Terrain cards to pick from (name|kind|defence|VP|requirement)",
            },
            {
                "key": "heroes",
                "type": "notations",
                "optional": True,
                "example": "Cavalleria|4|2",
                "label": "Hero cards to pick from (name|attack|goblins spent)",
            },
            {
                "key": "machines",
                "type": "notations",
                "optional": True,
                "example": "Ariete|ram|3|1|1",
                "label": "Machine cards to pick from (name|ram/cannon/plain|reduction|crew|crew)",
            },
        ],
    }

    def start(self, setup: Mapping[str, JSON]) -> Table:
        if not isinstance(setup, Mapping):
            raise InvalidInput(f"the setup must be a JSON object, got {setup!r}")
        players = setup.get("players")
        if not isinstance(players, list):
            raise InvalidInput(f"setup 'players' must be a list of 2 to 6 names, got {players!r}")
        centre = setup.get("centre", 1)
        troops = setup.get("troops", STARTING_TROOPS)
        if isinstance(troops, bool) or not isinstance(troops, int) or troops < 0:
            raise InvalidInput(f"setup 'troops' must be a non-negative integer, got {troops!r}")
        return Table(
            Game.new(players, centre, troops),
            _catalogue(setup, "terrains", Terrain.from_json, ()),
            _catalogue(setup, "heroes", Hero.from_json, ()),
            _catalogue(setup, "machines", Machine.from_json, (RAM, CANNON)),
        )

    def apply(self, state: Table, action: Action) -> Table:
        if not isinstance(action, Mapping):
            raise InvalidInput(f"an action must be a JSON object, got {action!r}")
        if action.get("type") == "reading":
            if "alive" not in action or "dead" not in action:
                raise InvalidInput(f"a toss reading needs 'alive' and 'dead' counts, got {dict(action)!r}")
            event = parse_event({"type": "toss", "alive": action["alive"], "dead": action["dead"]})
        else:
            event = parse_event(action)
        return replace(state, game=apply(state.game, event))

    def expects(self, state: Table) -> Expectation | None:
        game = state.game
        toss = game.toss
        if toss is None:
            return None
        army = game.armies[toss.player]
        params: dict[str, JSON] = {
            "player": army.name,
            "count": toss.count,
            "purpose": toss.purpose,
            "why": PURPOSE_TEXT[toss.purpose],
        }
        if toss.machine is not None:
            params["machine"] = army.machines[toss.machine].name
        if toss.hero is not None:
            params["hero"] = army.heroes[toss.hero].name
        return Expectation(
            kind="tokens", prompt=f"goblins.toss.{toss.purpose}", zone="toss", count=toss.count, params=params
        )

    def propose(self, state: Table, reading: TableReading) -> Action | None:
        want = self.expects(state)
        if want is None:
            return None
        tokens = reading.tokens
        # With a toss zone, only its tokens count (the reserve lies elsewhere). Without one (the
        # default zones are the players' halves) every token on the tray counts. A reading that lists
        # its zones says which; one that does not has a toss zone when a token lies in it.
        if reading.zones is not None:
            zoned = want.zone in reading.zones
        else:
            zoned = any(t.zone == want.zone for t in tokens)
        alive = dead = 0
        for token in tokens:
            if zoned and token.zone not in (want.zone, None):
                continue
            face = token.face
            if face == "alive":
                alive += 1
            elif face == "dead":
                dead += 1
            else:
                return None  # a token the camera cannot read: the players count by hand
        if alive + dead != want.count:
            return None
        return {"type": "reading", "alive": alive, "dead": dead}

    def choices(self, state: Table) -> Sequence[Choice]:
        """``RULES.legal`` labelled, and the catalogue's cards (terrains to face, heroes and machines to
        play) that the legal view takes, as suggestions: the rules decide, the flow only words them."""
        game = state.game
        wait = game.awaiting
        if wait == "toss":
            return ()
        legal = RULES.legal(game)
        out: list[Choice] = []
        if wait == "choose_heroes":
            army = game.armies[game.current]
            for event in legal:
                if isinstance(event, ChooseHeroes):
                    names = ", ".join(army.heroes[i].name for i in event.heroes)
                    out.append(
                        Choice(event_to_json(event), f"Toss for {names}", "heroes", "goblins.choose_heroes",
                               {"heroes": names})
                    )
            return out
        for event in legal:
            action = event_to_json(event)
            kind = action["type"]
            out.append(Choice(action, _label(game, action), kind, *_key(game, action)))
        if wait is None and game.outcome is None:
            taken = Counter(t for a in game.armies for t in a.pile)
            cards: list[Face | PlayHero | PlayMachine] = []
            for t in state.terrains:
                if taken[t] > 0:  # a conquered card is no longer on the battlefield
                    taken[t] -= 1
                else:
                    cards.append(Face(t))
            cards += [PlayHero(h) for h in state.heroes] + [PlayMachine(m) for m in state.machines]
            out += [_card_choice(card) for card in cards if card in legal]
        return out

    def view(self, state: Table) -> Mapping[str, JSON]:
        game = state.game
        over = game.outcome is not None and game.outcome.winner is not None
        order = ranking(game.armies)
        players = []
        for i, a in enumerate(game.armies):
            players.append(
                {
                    "index": i,
                    "name": a.name,
                    "troops": a.troops,
                    "attack": a.attack,
                    "brawl_attack": a.brawl_attack,
                    "heroes": [h.to_json() for h in a.heroes],
                    "machines": [{**m.to_json(), "crewed": m.crewed} for m in a.machines],
                    "pile": [t.to_json() for t in a.pile],
                    "top": a.pile[-1].name if a.pile else None,
                    "vp": a.vp,
                    "cards": len(a.pile),
                    "rank": order.index(i) + 1,
                    "current": i == game.current,
                }
            )
        combat: JSON = None
        if game.combat is not None:
            c, army = game.combat, game.armies[game.current]
            reduction = active_reduction(army, c)
            combat = {
                "terrain": c.terrain.to_json(),
                "stage": c.stage,
                "step": c.step,
                "reduction": reduction,
                "modified_defence": modified_defence(c.terrain, reduction),
                "attack": army.attack,
                "requirements_met": requirements_met(army, c.terrain),
                "won": c.won,
                "epic": c.epic,
                "epic_death_allowed": epic_death_allowed(army, c.terrain, reduction),
            }
        want = self.expects(state)
        return {
            "game": self.game,
            "title": self.title,
            "prompts": [] if want is not None else _prompts(game),
            "phase": "over" if game.outcome is not None else game.phase,
            "over": over,
            "players": players,
            "current": game.current,
            "current_name": game.armies[game.current].name,
            "centre_left": game.centre,
            "awaiting": game.awaiting,
            "toss": None if want is None else {"count": want.count, "zone": want.zone, **want.params},
            "combat": combat,
            "brawl": None if game.brawl is None else list(game.brawl),
            "log": [message_json(line) for line in game.log],
            "outcome": None
            if game.outcome is None
            else {
                **game.outcome.to_json(),
                "winner_name": None if game.outcome.winner is None else game.armies[game.outcome.winner].name,
                "tied": [game.armies[p].name for p in game.outcome.winners],
            },
            "forms": self._forms(game),
        }

    @staticmethod
    def _forms(game: Game) -> list[JSON]:
        """The parameterised actions the page may send now, with their fields."""
        if game.outcome is not None or game.awaiting == "toss":
            return []
        forms: list[JSON] = []
        if game.awaiting is None and game.phase in ("A", "B"):
            forms.append({"type": "face", "fields": {"terrain": "notation name|kind|defence|VP|requirement"}})
        if game.awaiting is None and game.phase == "A":
            forms.append({"type": "play_hero", "fields": {"hero": "notation name|attack|goblins spent"}})
            forms.append(
                {"type": "play_machine", "fields": {"machine": "notation name|kind|reduction|crew|crew"}}
            )
        forms += [
            {
                "type": "adjust",
                "fields": {"player": "player index", "troops": "goblins added (negative: eliminated)"},
            },
            {"type": "discard_hero", "fields": {"player": "player index", "hero": "hero index"}},
            {"type": "discard_machine", "fields": {"player": "player index", "machine": "machine index"}},
        ]
        return forms


#: The status line when no toss is awaited (a toss has the camera's prompt), by what the game waits for.
PROMPTS: dict[str, str] = {
    "A": "{player}, phase A (Reinforcements): take goblins or draw cards; heroes and machines may be played",
    "B": "{player}, phase B (Movement): face a terrain, or no combat",
    "C": "{player}, phase C (Combat)",
    "D": "{player}, phase D (Discard): re-crew the machines, then end the turn",
    "fire_cannon": "{player}: does the Cannon fire?",
    "declare": "{player}: fight normally or try an Epic Death?",
    "choose_heroes": "{player}: choose the heroes to toss a symbolic goblin for",
    "shout": "Full tie between {players}: the first to shout \"Goblin!\" wins",
}


def _prompts(game: Game) -> list[JSON]:
    """What the players do now, for the page's status line (``goblins.prompt.<what>``)."""
    if game.outcome is not None and game.awaiting != "shout":
        return []
    what = game.awaiting or game.phase
    params: dict[str, JSON] = {"player": game.armies[game.current].name}
    if what == "shout" and game.outcome is not None:
        params = {"players": ", ".join(game.armies[p].name for p in game.outcome.winners)}
    if what not in PROMPTS:
        return []
    return [message_json(Message(f"goblins.prompt.{what}", PROMPTS[what].format(**params), params))]


FLOW: Flow[Table] = GoblinsFlow(RULES)
"""The flow ``companion.games.find_game("goblins")`` returns (typed so mypy checks the protocol)."""
