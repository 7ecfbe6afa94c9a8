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
from typing import Any, ClassVar

from companion.errors import InvalidInput
from companion.flow import JSON, Action, Choice, Expectation, Flow, Slot, TableFlow, player_slot, slot_player
from companion.gobcon import views
from companion.gobcon.codec import event_from_json, event_to_json, face_from_json
from companion.gobcon.core import (
    CATEGORIES,
    DEFAULT_TARGET,
    EFFECTS,
    KINDS,
    AexEquo,
    DeckEmpty,
    Declare,
    Discard,
    EndTurn,
    Event,
    Game,
    Give,
    GoblinRoll,
    Modifier,
    PlayPartita,
    TimeUp,
    apply,
)
from companion.gobcon.rules import RULES
from companion.reading import TableReading
from companion.rules import json_notation

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


def _choice(g: Game, event: Event) -> Choice:
    """The words the page shows for a legal event."""
    name = g.players.__getitem__
    action = event_to_json(event)
    if isinstance(event, Give):
        card = g.find_card(event.player, event.card)
        what = "?" if card is None else card.name
        return Choice(action, f"{name(event.player)} passes {what} to {name(event.to)}", group="logorrea",
                      key="gobcon.choice.give", params={"player": name(event.player), "card": what,
                                                        "to": name(event.to)})
    if isinstance(event, Discard):
        card = g.find_card(event.player, event.card)
        what = "?" if card is None else card.name
        return Choice(action, f"Discard {name(event.player)}'s {what}", group="discard",
                      key="gobcon.choice.discard", params={"player": name(event.player), "card": what})
    if isinstance(event, Declare):
        label = f"{name(event.player)} {'takes part' if event.join else 'stays out'}"
        return Choice(action, label, group="declare", key=f"gobcon.choice.{'join' if event.join else 'pass'}",
                      params={"player": name(event.player)})
    if isinstance(event, Modifier):
        word = "bonus" if event.steps > 0 else "malus"
        return Choice(action, f"{word.capitalize()} {event.steps:+d} on {name(event.player)}'s roll",
                      group="modifier", key=f"gobcon.choice.{word}",
                      params={"player": name(event.player), "steps": event.steps})
    if isinstance(event, AexEquo):
        return Choice(action, "Aex Equo: more Kings may count", group="partita", key="gobcon.choice.aex-equo")
    if isinstance(event, EndTurn):
        who = name(g.current)
        return Choice(action, f"End {who}'s turn", group="turn", key="gobcon.choice.end-turn",
                      params={"player": who})
    if isinstance(event, PlayPartita):
        return Choice(action, f"Partita {event.name} ({event.category}, {event.payoff.notation()})",
                      group="partita", key="gobcon.choice.partita",
                      params={"name": event.name, "category": event.category})
    if isinstance(event, TimeUp):
        return Choice(action, "Time is up: this is the last turn", group="end", key="gobcon.choice.time-up")
    if isinstance(event, DeckEmpty):
        return Choice(action, "The deck is empty: the game ends", group="end", key="gobcon.choice.deck-empty")
    return Choice(action, json_notation(action))


PICK_ORDER: dict[type, int] = {Give: 0, Declare: 0, Modifier: 0, EndTurn: 0, AexEquo: 1, PlayPartita: 1,
                               Discard: 2, TimeUp: 3, DeckEmpty: 4}
"""Where each kind of choice stands in the list (the legal view's order within a kind)."""


def _picked(g: Game, event: Event) -> bool:
    """Whether the table picks this legal event now with NEXT/CONFIRM (the rest are read or typed)."""
    if g.logorrea_owed() is not None:
        return isinstance(event, Give | Discard)
    if g.phase == "declare":
        return isinstance(event, Declare)
    if g.phase == "roll":
        return isinstance(event, AexEquo) or (isinstance(event, Modifier) and event.player == g.next_roller())
    return isinstance(event, EndTurn | PlayPartita | Discard | TimeUp | DeckEmpty)


class GobConFlow(TableFlow[Game]):
    """The referee's script for GobCon (stateless; the state is a ``Game``)."""

    form: ClassVar[Mapping[str, JSON]] = {
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
        return RULES.new_game(setup)

    def _event(self, state: Game, action: Action) -> Event:
        if not isinstance(action, Mapping):
            raise InvalidInput(f"an action is a JSON object, got {action!r}")
        if action.get("type") != "reading":
            return event_from_json(action, state.players)
        values = action.get("values")
        if not isinstance(values, Mapping) or len(values) != 1:
            raise InvalidInput(f"a goblin die reading has one value {{slot: value}}, got {action!r}")
        ((key, value),) = values.items()
        return GoblinRoll(slot_player(str(key), len(state.players)), face_from_json(value))

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
            slots=(Slot(key=player_slot(player), label=f"{name} goblin die", sides=6),),
            params={"player": name, "partita": state.partita.card.name, "steps": state.roll_steps(player)},
        )

    def propose(self, state: Game, reading: TableReading) -> Action | None:
        expectation = self.expects(state)
        if expectation is None:
            return None
        fitting: list[tuple[float, JSON]] = []
        for d in reading.dice:
            if d.sides not in (None, 6):
                continue
            confidence = d.confidence or 0.0
            if d.value is not None and 1 <= d.value <= 6:
                fitting.append((confidence, d.value))
            elif d.face is not None and d.face.lower() in ("king", "green", "black", "darth"):
                fitting.append((confidence, d.face.lower()))  # an icon die read by teach mode
        if not fitting:
            return None
        # several dice in view: propose the most confident; the players confirm or correct it
        best = max(fitting, key=lambda item: item[0])[1]
        return {"type": "reading", "values": {expectation.slots[0].key: best}}

    def choices(self, state: Game) -> Sequence[Choice]:
        """``RULES.legal`` labelled, the events the table picks now: a Partita's declarations, the next
        roller's bonus or malus and Aex Equo, or the turn's end, the recent Partite, the discards and the
        end of the game; only the pass of Logorrea-Man while it is owed. Rolls are read, card plays typed
        (the forms), so neither is a choice."""
        picked = [e for e in RULES.legal(state) if _picked(state, e)]
        return [_choice(state, e) for e in sorted(picked, key=lambda e: PICK_ORDER[type(e)])]

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
            "choices": [c.to_json() for c in self.choices(g)],
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


FLOW: Flow[Game] = GobConFlow(RULES)
