"""Dadoteck at the table: the ``companion.flow.Flow`` of the game (``FLOW``).

The game owns one d20 that goes round the table, so the camera waits for one die at a time: the slot
``p<index>`` labelled with the player's name. A reading may also fill the slot of another player who is
due to roll now (placement and initiative rolls have no fixed order).

Actions (JSON objects with a ``"type"``):

- ``{"type": "reading", "values": {"p2": 14}}``: rolls read by the camera (or typed in);
- ``{"type": "roll", "player": 2, "value": 14}``: the same for one player (index or name);
- ``{"type": "square", "square": 12}``: after a 13 or 17, where the mover settles;
- ``{"type": "victim", "player": 1}``: after a 20, whom the mover eliminates;
- ``{"type": "decline"}``: the last pawn declines to roll and wins;
- ``{"type": "initiative-die", "sides": 8}`` / ``{"type": "movement-die", "sides": 12}``: speed-up rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from companion.dadoteck import views
from companion.dadoteck.core import (
    MAX_PLAYERS,
    ChooseSquare,
    ChooseVictim,
    Decline,
    Event,
    Game,
    Roll,
    SetInitiativeDie,
    SetMovementDie,
    apply,
    event_from_json,
)
from companion.dadoteck.rules import RULES
from companion.errors import InvalidInput
from companion.flow import JSON, Action, Choice, Expectation, Flow, Slot, TableFlow, player_slot, slot_player
from companion.messages import Message
from companion.reading import TableReading

USUAL_DICE: tuple[int, ...] = (4, 6, 8, 10, 12)
"""The speed-up dice offered first: the usual polyhedral dice smaller than the d20."""


class DadoteckFlow(TableFlow[Game]):
    """The referee's script for Dadoteck (stateless; the state is a ``Game``)."""

    form: ClassVar[Mapping[str, JSON]] = {
        "players": {"min": 2, "max": MAX_PLAYERS, "label": "Players (in any order)"},
        "options": [
            {
                "key": "speedup",
                "type": "bool",
                "default": False,
                "label": "Speed-up rules: smaller initiative and movement dice",
            }
        ],
    }

    def start(self, setup: Mapping[str, JSON]) -> Game:
        return RULES.new_game(setup)

    def _events(self, state: Game, action: Action) -> list[Event]:
        if not isinstance(action, Mapping):
            raise InvalidInput(f"an action is a JSON object, got {action!r}")
        if action.get("type") != "reading":
            return [event_from_json(action, state.players)]
        values = action.get("values")
        if not isinstance(values, Mapping) or not values:
            raise InvalidInput(f"a dice reading needs 'values' {{slot: value}}, got {action!r}")
        events: list[Event] = []
        for key, value in values.items():
            if isinstance(value, bool) or not isinstance(value, int):
                text = f"slot {key!r}: a d20 value is a whole number, got {value!r}"
                params = {"slot": str(key), "value": repr(value)}
                raise InvalidInput(Message("error.input.slot_whole", text, params))
            events.append(Roll(slot_player(str(key), len(state.players)), value))
        return events

    def apply(self, state: Game, action: Action) -> Game:
        for event in self._events(state, action):
            state = apply(state, event)
        return state

    def expects(self, state: Game) -> Expectation | None:
        rollers = state.awaited_rollers()
        if not rollers:
            return None
        player = rollers[0]
        die = state.die()
        name = state.players[player]
        purpose = views.awaiting(state)["purpose"]
        return Expectation(
            kind="dice",
            prompt=f"dadoteck.{purpose}",
            slots=(Slot(key=player_slot(player), label=f"{name} d{die}", sides=die),),
            params={"player": name, "die": die},
        )

    def propose(self, state: Game, reading: TableReading) -> Action | None:
        expectation = self.expects(state)
        if expectation is None:
            return None
        slot = expectation.slots[0]
        die = slot.sides or 20
        fitting = [d for d in reading.dice
                   if d.value is not None and 1 <= d.value <= die and d.sides in (None, die)]
        if not fitting:
            return None
        # several dice in view: the most confident reading is proposed, the players confirm or correct it
        best = max(fitting, key=lambda d: d.confidence or 0.0)
        return {"type": "reading", "values": {slot.key: best.value}}

    def choices(self, state: Game) -> Sequence[Choice]:
        """The legal events of ``RULES.legal`` the players pick (rolls come from the camera), labelled."""
        out: list[Choice] = []
        speedup: list[SetInitiativeDie | SetMovementDie] = []
        mover = state.mover
        for event in RULES.legal(state):
            if isinstance(event, ChooseSquare):
                square = event.square
                occupant = state.occupant(square)
                label = f"Square {square}"
                if mover is not None and square == state.squares[mover]:
                    label += " (stay)"
                elif occupant is not None:
                    label += f" (squash {state.players[occupant]})"
                out.append(
                    Choice(
                        {"type": "square", "square": square},
                        label,
                        group="square",
                        key="dadoteck.choice.square",
                        params={
                            "square": square,
                            "occupant": None if occupant is None else state.players[occupant],
                        },
                    )
                )
            elif isinstance(event, ChooseVictim):
                name = state.players[event.player]
                out.append(
                    Choice(
                        {"type": "victim", "player": event.player},
                        f"Eliminate {name}",
                        group="victim",
                        key="dadoteck.choice.victim",
                        params={"player": name},
                    )
                )
            elif isinstance(event, Decline) and mover is not None:
                name = state.players[mover]
                out.append(
                    Choice(
                        {"type": "decline"},
                        f"{name} declines to roll and wins",
                        group="decline",
                        key="dadoteck.choice.decline",
                        params={"player": name},
                    )
                )
            elif isinstance(event, SetInitiativeDie | SetMovementDie):
                speedup.append(event)
        # the usual dice first, in the order they always had, then every other size the rules allow
        speedup.sort(key=lambda e: (e.sides not in USUAL_DICE, e.sides, isinstance(e, SetMovementDie)))
        for event in speedup:
            what = "initiative" if isinstance(event, SetInitiativeDie) else "movement"
            out.append(
                Choice(
                    {"type": event.type, "sides": event.sides},
                    f"Use a d{event.sides} for {what}",
                    group="speedup",
                    key=f"dadoteck.choice.{what}-die",
                    params={"sides": event.sides},
                )
            )
        return out

    def view(self, state: Game) -> Mapping[str, JSON]:
        g = state
        moved: set[int] = set()
        if g.phase in ("movement", "square", "victim"):
            moved = set(g.order[: g.cursor])
        players: list[dict[str, Any]] = [
            {
                "index": p,
                "name": name,
                "square": g.squares[p],
                "alive": g.is_alive(p),
                "moved": p in moved,
                "moving": p == g.mover,
            }
            for p, name in enumerate(g.players)
        ]
        return {
            "game": self.game,
            "title": self.title,
            "phase": g.phase,
            "over": g.phase == "over",
            "turn": g.turn,
            "players": players,
            "board": views.board(g),
            "initiative": views.initiative(g),
            "movement_die": g.movement_die,
            "speedup": g.speedup,
            "mover": None if g.mover is None else g.players[g.mover],
            "awaiting": views.awaiting(g),
            "choices": [c.to_json() for c in self.choices(g)],
            "eliminations": views.eliminations(g),
            "news": views.news(g),
            "outcome": views.outcome(g),
        }


FLOW: Flow[Game] = DadoteckFlow(RULES)
