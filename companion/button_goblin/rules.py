"""Button Goblin's ``companion.rules.Rules``: the protocol over ``companion.button_goblin.core``.

The state is a round's ``Position`` and the events are the mover's attacks and the pass. The re-rolls
an attack asks for and the rounds of a match are the table flow's (``rerolls``, ``with_values``): a
round ends with ``Outcome("round", (winner,))`` or ``Outcome("tie")``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from companion.button_goblin import core, jsonio
from companion.button_goblin.core import PASS, Action, Attack, Position
from companion.errors import InvalidInput
from companion.rules import JSON, Legal, Outcome, Rules, json_notation, parse_json_notation


def _events(position: Position) -> Iterator[Action]:
    attacks = core.generate_attacks(position)
    first = next(attacks, None)
    if first is None:
        if position.passes < 2:
            yield PASS  # one may pass only when no attack is possible
        return
    yield first
    yield from attacks


def _check(position: Position, event: object) -> bool:
    if event == PASS:
        return position.passes < 2 and not position.legal
    return isinstance(event, Attack) and event in position.legal


class ButtonGoblinRules:
    """Attacks are listed each with its least fire; the same attack with more fire is checked by ``in``."""

    name = "button-goblin"
    title = "Button Goblin"

    def new_game(self, setup: Mapping[str, JSON]) -> Position:
        """A round from ``{"position": NOTATION}`` or ``{"position": {...}}`` (the dice as rolled)."""
        if not isinstance(setup, Mapping) or "position" not in setup:
            text = f"a Button Goblin round starts from {{'position': ...}}, got {setup!r}"
            raise InvalidInput(text[:200])
        raw = setup["position"]
        return core.Position.parse(raw) if isinstance(raw, str) else jsonio.position_from_json(raw)

    def legal(self, state: Position) -> Legal[Position, Action]:
        return Legal(state, _events, _check)

    def apply(self, state: Position, event: Action) -> Position:
        return core.apply(state, event)

    def outcome(self, state: Position) -> Outcome | None:
        o = core.round_outcome(state)
        if o is None:
            return None
        return Outcome("tie") if o.winner is None else Outcome("round", (o.winner,))

    def awaiting(self, state: Position) -> tuple[int, ...]:
        return () if state.passes >= 2 else (state.to_move,)

    def event_to_json(self, event: Action) -> dict[str, JSON]:
        return {"type": "pass"} if event == PASS else jsonio.attack_action_json(event)

    def event_from_json(self, state: Position, data: JSON) -> Action:
        if isinstance(data, Mapping) and data.get("type") == "pass":
            if set(data) != {"type"}:
                raise InvalidInput('a pass has no other keys than "type"')
            return PASS
        return jsonio.attack_from_json(data, state)

    def event_notation(self, event: Action) -> str:
        data = self.event_to_json(event)
        if data.get("fire") == []:
            del data["fire"]
        return json_notation(data)

    def parse_event(self, state: Position, text: str) -> Action:
        return self.event_from_json(state, parse_json_notation(text))

    def state_to_json(self, state: Position) -> JSON:
        return jsonio.position_to_json(state)

    def state_from_json(self, data: JSON) -> Position:
        return jsonio.position_from_json(data)


RULES: Rules[Position, Action] = ButtonGoblinRules()
