"""One Button Goblin round through the ``companion.rules.Rules`` protocol (``companion.button_goblin.core``).

The state is a round's ``Position`` and the events are the mover's attacks and the pass. The re-rolls
an attack asks for and the rounds of a match are the match core's (``companion.button_goblin.match``,
whose rules ``companion.button_goblin.rules`` joins to these): a round ends with
``Outcome("round", (winner,))`` or ``Outcome("tie")``. Attacks are listed each with its least fire; the
same attack with more fire is taken by ``in`` and ``apply``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from companion.button_goblin import core, jsonio
from companion.button_goblin.core import PASS, Action, Attack, Position
from companion.errors import InvalidInput
from companion.rules import JSON, CoreRules, Outcome, Rules, json_notation


def new_game(setup: Mapping[str, JSON]) -> Position:
    """A round from ``{"position": NOTATION}`` or ``{"position": {...}}``: the dice as rolled."""
    if not isinstance(setup, Mapping) or "position" not in setup:
        raise InvalidInput(f"a Button Goblin round starts from {{'position': ...}}, got {setup!r}"[:200])
    raw = setup["position"]
    return Position.parse(raw) if isinstance(raw, str) else jsonio.position_from_json(raw)


def _events(position: Position) -> Iterator[Action]:
    """The legal events (``core.generate_attacks`` yields legal attacks only: ``exact``)."""
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


def _outcome(position: Position) -> Outcome | None:
    o = core.round_outcome(position)
    if o is None:
        return None
    return Outcome("tie") if o.winner is None else Outcome("round", (o.winner,))


def event_to_json(event: Action) -> dict[str, JSON]:
    return {"type": "pass"} if event == PASS else jsonio.attack_action_json(event)


def event_from_json(position: Position, data: JSON) -> Action:
    if isinstance(data, Mapping) and data.get("type") == "pass":
        if set(data) != {"type"}:
            raise InvalidInput('a pass has no other keys than "type"')
        return PASS
    return jsonio.attack_from_json(data, position)


def event_notation(event: Action) -> str:
    data = event_to_json(event)
    if data.get("fire") == []:
        del data["fire"]
    return json_notation(data)


ROUND_RULES: Rules[Position, Action] = CoreRules(
    name="button-goblin",
    title="Button Goblin",
    start=new_game,
    events=_events,
    check=_check,
    step=core.apply,
    end=_outcome,
    waits_on=lambda p: () if p.passes >= 2 else (p.to_move,),
    to_json=event_to_json,
    from_json=event_from_json,
    dump=jsonio.position_to_json,
    load=jsonio.position_from_json,
    notation=event_notation,
    exact=True,
)
