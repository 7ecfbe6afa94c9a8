"""GobCon at the table: the ``companion.flow.Flow`` of the game (``FLOW``).

The camera waits for one goblin die at a time, the next roller's: slot ``p<index>``, a plain d6 read by
its pips (``sides=6``) that the core maps to King/Green/Black/Darth. Icon dice read by teach mode, or a
player typing it, may give the face by name instead (``{"p1": "king"}``).

Actions (JSON objects with a ``"type"``; players by index or name):

- ``{"type": "reading", "values": {"p1": 6}}`` or ``{"p1": "green"}``: the next roll, read or typed;
- ``{"type": "roll", "player": 1, "pips": 6}`` / ``{"type": "roll", "player": 1, "face": "king"}``;
- ``{"type": "partita", "name": "Risiko", "category": "board", "payoff": {"king": 3, "green": 1,
  "black": 0, "darth": -1}}`` (or ``"payoff": "K+3 G+1 B+0 D-1"``): the player in turn plays a Partita;
- ``{"type": "declare", "player": 2, "join": true}``: take part in the Partita, or not;
- ``{"type": "modifier", "player": 2, "steps": -1}``: a one-shot bonus/malus on that player's roll;
- ``{"type": "aex-equo"}``: more than one King may count in this Partita;
- ``{"type": "card", "player": 0, "kind": "amici"|"acquisti"|"speciale", "name": "...", "gp": 2,
  "category": "3d"|"board"|"card"|"gdr"|null, "effect": "bonus"|"malus"|"divieto"|null, "amount": 1}``;
- ``{"type": "discard", "player": 0, "card": 7}`` / ``{"type": "give", "player": 0, "card": 7, "to": 1}``;
- ``{"type": "tokens", "player": 0, "delta": -2}``: a card moves GP tokens (the pile stops at zero);
- ``{"type": "end-turn"}``, ``{"type": "time-up"}``, ``{"type": "deck-empty"}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import InvalidInput
from companion.flow import JSON, Action, Choice, Expectation, Flow, Slot
from companion.gobcon import views
from companion.gobcon.codec import event_from_json, event_to_json, face_from_json, player_index
from companion.gobcon.core import (
    CATEGORIES,
    DEFAULT_TARGET,
    EFFECTS,
    KINDS,
    AexEquo,
    DeckEmpty,
    Discard,
    Event,
    Game,
    Give,
    GoblinRoll,
    Modifier,
    PlayPartita,
    TimeUp,
    apply,
    illegal_reason,
    new_game,
)


def _slot_key(player: int) -> str:
    return f"p{player}"


FORMS: list[dict[str, Any]] = [
    {
        "type": "card",
        "label": "Play an Amici, Acquisti or Speciale card",
        "fields": {
            "player": "player",
            "kind": list(KINDS),
            "name": "text",
            "gp": "int",
            "category": [None, *CATEGORIES],
            "effect": [None, *EFFECTS],
            "amount": "int",
        },
    },
    {
        "type": "partita",
        "label": "Play a Partita card (enter its payoff table)",
        "fields": {
            "name": "text",
            "category": list(CATEGORIES),
            "payoff": {"king": "int", "green": "int", "black": "int", "darth": "int"},
        },
    },
    {
        "type": "modifier",
        "label": "One-shot bonus (+) or malus (-) on a roll",
        "fields": {"player": "player", "steps": "int"},
    },
    {"type": "tokens", "label": "A card moves GP tokens", "fields": {"player": "player", "delta": "int"}},
    {
        "type": "give",
        "label": "Pass a card in play to another player",
        "fields": {"player": "player", "card": "card", "to": "player"},
    },
]


class GobConFlow:
    """The referee's script for GobCon (stateless; the state is a ``Game``)."""

    game = "gobcon"
    title = "GobCon"

    def setup_schema(self) -> Mapping[str, JSON]:
        return {
            "game": self.game,
            "title": self.title,
            "players": {"min": 2, "max": 6, "label": "Players, clockwise"},
            "options": [
                {
                    "key": "target",
                    "type": "int",
                    "default": DEFAULT_TARGET,
                    "min": 1,
                    "nullable": True,
                    "label": "GP to win (empty: no target, a timed game)",
                },
                {
                    "key": "timed",
                    "type": "bool",
                    "default": False,
                    "label": "Timed game: finish the turn when time is up",
                },
                {
                    "key": "deck_end",
                    "type": "bool",
                    "default": False,
                    "label": "Optional rule: end when the deck runs out",
                },
                {"key": "first", "type": "player", "default": 0, "label": "First player"},
            ],
        }

    def start(self, setup: Mapping[str, JSON]) -> Game:
        if not isinstance(setup, Mapping):
            raise InvalidInput(f"the setup is a JSON object, got {setup!r}")
        players = setup.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise InvalidInput(f"setup 'players' must be a list of names, got {players!r}")
        names = tuple(p.strip() for p in players)
        options = setup.get("options", setup)
        if not isinstance(options, Mapping):
            raise InvalidInput(f"setup 'options' must be an object, got {options!r}")
        timed = options.get("timed", False)
        deck_end = options.get("deck_end", False)
        for key, value in (("timed", timed), ("deck_end", deck_end)):
            if not isinstance(value, bool):
                raise InvalidInput(f"setup {key!r} must be true or false, got {value!r}")
        target = options.get("target", DEFAULT_TARGET)
        first_raw = options.get("first", 0)
        first = player_index(names, first_raw) if len(set(names)) == len(names) and names else 0
        return new_game(names, target=target, timed=timed, deck_end=deck_end, first=first)

    def _event(self, state: Game, action: Action) -> Event:
        if not isinstance(action, Mapping):
            raise InvalidInput(f"an action is a JSON object, got {action!r}")
        if action.get("type") != "reading":
            return event_from_json(action, state.players)
        values = action.get("values")
        if not isinstance(values, Mapping) or len(values) != 1:
            raise InvalidInput(f"a goblin die reading has one value {{slot: value}}, got {action!r}")
        ((key, value),) = values.items()
        key = str(key)
        if not (key.startswith("p") and key[1:].isdigit() and int(key[1:]) < len(state.players)):
            raise InvalidInput(f"unknown slot {key!r}; slots are p0 to p{len(state.players) - 1}")
        return GoblinRoll(int(key[1:]), face_from_json(value))

    def apply(self, state: Game, action: Action) -> Game:
        return apply(state, self._event(state, action))

    def expects(self, state: Game) -> Expectation | None:
        if state.phase != "roll" or state.partita is None or state.logorrea_owed() is not None:
            return None
        player = state.next_roller()
        if player is None:
            return None
        name = state.players[player]
        return Expectation(
            kind="dice",
            prompt="gobcon.roll",
            slots=(Slot(key=_slot_key(player), label=f"{name} goblin die", sides=6),),
            params={"player": name, "partita": state.partita.card.name, "steps": state.roll_steps(player)},
        )

    def propose(self, state: Game, reading: Mapping[str, JSON]) -> Action | None:
        expectation = self.expects(state)
        if expectation is None:
            return None
        dice = reading.get("dice") if isinstance(reading, Mapping) else None
        if not isinstance(dice, list):
            return None
        fitting: list[tuple[float, JSON]] = []
        for d in dice:
            if not isinstance(d, Mapping) or d.get("sides") not in (None, 6):
                continue
            confidence = float(d.get("confidence") or 0.0)
            value = d.get("value")
            if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6:
                fitting.append((confidence, value))
            elif isinstance(d.get("face"), str) and d["face"].lower() in ("king", "green", "black", "darth"):
                fitting.append((confidence, d["face"].lower()))  # an icon die read by teach mode
        if not fitting:
            return None
        # several dice in view: propose the most confident; the players confirm or correct it
        best = max(fitting, key=lambda item: item[0])[1]
        return {"type": "reading", "values": {expectation.slots[0].key: best}}

    def _legal(self, state: Game, event: Event) -> bool:
        return illegal_reason(state, event) is None

    def choices(self, state: Game) -> Sequence[Choice]:
        g = state
        out: list[Choice] = []
        if g.phase == "over":
            return out
        owed = g.logorrea_owed()
        if owed is not None:
            # nothing else may happen until Logorrea-Man is passed on (or a Speciale discards it)
            holder, lm, _ = owed
            who = g.players[holder]
            for event in g.legal:
                if isinstance(event, Give):
                    out.append(
                        Choice(
                            event_to_json(event),
                            f"{who} passes {lm.name} to {g.players[event.to]}",
                            group="logorrea",
                            key="gobcon.choice.give",
                            params={"player": who, "card": lm.name, "to": g.players[event.to]},
                        )
                    )
            out.append(
                Choice(
                    {"type": "discard", "player": holder, "card": lm.id},
                    f"Discard {who}'s {lm.name}",
                    group="discard",
                    key="gobcon.choice.discard",
                    params={"player": who, "card": lm.name},
                )
            )
            return out
        if g.phase == "declare":
            p = g.next_declarer()
            assert p is not None
            name = g.players[p]
            for join, label in ((True, f"{name} takes part"), (False, f"{name} stays out")):
                out.append(
                    Choice(
                        {"type": "declare", "player": p, "join": join},
                        label,
                        group="declare",
                        key=f"gobcon.choice.{'join' if join else 'pass'}",
                        params={"player": name},
                    )
                )
            return out
        if g.phase == "roll":
            p = g.next_roller()
            if p is not None:
                name = g.players[p]
                for steps in (1, -1):
                    if self._legal(g, Modifier(p, steps)):
                        word = "bonus" if steps > 0 else "malus"
                        out.append(
                            Choice(
                                event_to_json(Modifier(p, steps)),
                                f"{word.capitalize()} {steps:+d} on {name}'s roll",
                                group="modifier",
                                key=f"gobcon.choice.{word}",
                                params={"player": name, "steps": steps},
                            )
                        )
            if self._legal(g, AexEquo()):
                out.append(
                    Choice(
                        {"type": "aex-equo"},
                        "Aex Equo: more Kings may count",
                        group="partita",
                        key="gobcon.choice.aex-equo",
                    )
                )
            return out
        who = g.players[g.current]
        out.append(
            Choice(
                {"type": "end-turn"},
                f"End {who}'s turn",
                group="turn",
                key="gobcon.choice.end-turn",
                params={"player": who},
            )
        )
        for card in g.recent:
            event = PlayPartita(card.name, card.category, card.payoff)
            if self._legal(g, event):
                out.append(
                    Choice(
                        event_to_json(event),
                        f"Partita {card.name} ({card.category}, {card.payoff.notation()})",
                        group="partita",
                        key="gobcon.choice.partita",
                        params={"name": card.name, "category": card.category},
                    )
                )
        for p, cards in enumerate(g.cards):
            for c in cards:
                if self._legal(g, Discard(p, c.id)):
                    out.append(
                        Choice(
                            {"type": "discard", "player": p, "card": c.id},
                            f"Discard {g.players[p]}'s {c.name}",
                            group="discard",
                            key="gobcon.choice.discard",
                            params={"player": g.players[p], "card": c.name},
                        )
                    )
        if self._legal(g, TimeUp()):
            out.append(
                Choice(
                    {"type": "time-up"},
                    "Time is up: this is the last turn",
                    group="end",
                    key="gobcon.choice.time-up",
                )
            )
        if self._legal(g, DeckEmpty()):
            out.append(
                Choice(
                    {"type": "deck-empty"},
                    "The deck is empty: the game ends",
                    group="end",
                    key="gobcon.choice.deck-empty",
                )
            )
        return out

    def view(self, state: Game) -> Mapping[str, JSON]:
        g = state
        phase = g.phase
        return {
            "game": self.game,
            "title": self.title,
            "phase": phase,
            "over": phase == "over",
            "turn": g.turn,
            "current": g.players[g.current],
            "target": g.target,
            "timed": g.timed,
            "time_up": g.time_up,
            "deck_end": g.deck_end,
            "players": views.players(g),
            "partita": views.partita(g, g.partita, live=True),
            "last_partita": views.partita(g, g.last, live=False),
            "recent": [views.partita_card(c) for c in g.recent],
            "awaiting": views.awaiting(g),
            "choices": [
                {
                    "action": dict(c.action),
                    "label": c.label,
                    "group": c.group,
                    "key": c.key,
                    "params": dict(c.params),
                }
                for c in self.choices(g)
            ],
            "forms": [
                {
                    **form,
                    "available": phase != "over" and (form["type"] != "modifier" or g.partita is not None),
                }
                for form in FORMS
            ],
            "news": views.news(g),
            "outcome": views.outcome(g),
        }


FLOW: Flow[Game] = GobConFlow()
