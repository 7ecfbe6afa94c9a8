"""Pig at the table: the camera reads the current player's d6; holding is the one choice."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from companion.errors import InvalidInput
from companion.flow import JSON, Action, Choice, Expectation, Flow, Slot, TableFlow
from companion.reading import TableReading
from tests.pig.core import Game, Hold
from tests.pig.rules import RULES


class PigFlow(TableFlow[Game]):
    form: ClassVar[Mapping[str, JSON]] = {
        "players": {"min": 2, "max": 6, "label": "Players"},
        "options": [{"key": "target", "type": "int", "default": 20, "min": 1, "label": "Points to win"}],
    }

    def start(self, setup: Mapping[str, JSON]) -> Game:
        return RULES.new_game(setup)

    def apply(self, state: Game, action: Action) -> Game:
        if isinstance(action, Mapping) and action.get("type") == "reading":
            values = action.get("values")
            if not isinstance(values, Mapping) or list(values) != ["die"]:
                raise InvalidInput(f"a Pig reading is {{'values': {{'die': n}}}}, got {action!r}")
            return RULES.apply(state, RULES.event_from_json(state, {"type": "roll", "value": values["die"]}))
        return RULES.apply(state, RULES.event_from_json(state, action))

    def expects(self, state: Game) -> Expectation | None:
        if state.winner is not None:
            return None
        name = state.players[state.current]
        return Expectation("dice", "pig.roll", (Slot("die", f"{name} d6", 6),), params={"player": name})

    def propose(self, state: Game, reading: TableReading) -> Action | None:
        dice = [d for d in reading.dice if d.sides in (None, 6) and d.value]
        return None if self.expects(state) is None or not dice else {"type": "reading",
                                                                    "values": {"die": dice[0].value}}

    def choices(self, state: Game) -> Sequence[Choice]:
        name = state.players[state.current]
        points = state.turn_total
        return [Choice(RULES.event_to_json(e), f"{name} holds {points}", group="hold", key="pig.hold",
                       params={"player": name, "points": points})
                for e in RULES.legal(state) if isinstance(e, Hold)]  # rolls come from the camera

    def view(self, state: Game) -> Mapping[str, Any]:
        over = state.winner is not None
        return {"game": self.game, "phase": "over" if over else "play", "over": over,
                "scores": dict(zip(state.players, state.scores, strict=True)),
                "turn_total": state.turn_total, "current": state.players[state.current]}


FLOW: Flow[Game] = PigFlow(RULES)
