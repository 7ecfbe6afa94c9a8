"""Pig: on your turn roll a d6 as often as you like, adding it to the turn's total; a 1 loses the
turn's total and passes the die; holding banks it. The first to the target wins."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from companion.errors import InvalidInput
from companion.rules import Judge


@dataclass(frozen=True)
class Roll:
    value: int
    type: ClassVar[str] = "roll"


@dataclass(frozen=True)
class Hold:
    type: ClassVar[str] = "hold"


Event = Roll | Hold


@dataclass(frozen=True)
class Game:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    current: int = 0
    turn_total: int = 0
    target: int = 20
    winner: int | None = None


def new_game(players: list[str], target: int = 20) -> Game:
    if not 2 <= len(players) <= 6 or len(set(players)) != len(players) or not all(players):
        raise InvalidInput(f"Pig needs 2 to 6 different names, got {players!r}")
    if isinstance(target, bool) or not isinstance(target, int) or target < 1:
        raise InvalidInput(f"the target is a whole number from 1, got {target!r}")
    return Game(tuple(players), (0,) * len(players), target=target)


def illegal_reason(game: Game, event: object) -> str | None:
    if game.winner is not None:
        return "the game is over"
    if isinstance(event, Roll):
        return None if 1 <= event.value <= 6 else f"a d6 shows 1 to 6, not {event.value}"
    if isinstance(event, Hold):
        return None if game.turn_total else "nothing to hold: roll first"
    return f"not a Pig event: {event!r}"


def events(game: Game) -> Iterator[Event]:
    yield from (Roll(v) for v in range(1, 7))
    yield Hold()


JUDGE: Judge[Game, Event] = Judge(Event, illegal_reason, lambda e: event_to_json(e))


def apply(game: Game, event: Event) -> Game:
    JUDGE.refuse(game, event)
    nxt = (game.current + 1) % len(game.players)
    if isinstance(event, Roll) and event.value == 1:
        return replace(game, current=nxt, turn_total=0)
    if isinstance(event, Roll):
        return replace(game, turn_total=game.turn_total + event.value)
    scores = tuple(s + game.turn_total * (p == game.current) for p, s in enumerate(game.scores))
    won = game.current if scores[game.current] >= game.target else None
    current = game.current if won is not None else nxt
    return replace(game, scores=scores, turn_total=0, current=current, winner=won)


def event_to_json(event: Event) -> dict[str, Any]:
    return {"type": "roll", "value": event.value} if isinstance(event, Roll) else {"type": "hold"}


def event_from_json(data: Any) -> Event:
    if isinstance(data, Mapping) and data.get("type") == "hold" and set(data) == {"type"}:
        return Hold()
    if isinstance(data, Mapping) and data.get("type") == "roll" and set(data) == {"type", "value"}:
        value = data["value"]
        if isinstance(value, int) and not isinstance(value, bool):
            return Roll(value)
    raise InvalidInput(f"a Pig event is {{'type': 'roll', 'value': n}} or {{'type': 'hold'}}, got {data!r}")


def game_to_json(game: Game) -> dict[str, Any]:
    return {"players": list(game.players), "scores": list(game.scores), "current": game.current,
            "turn_total": game.turn_total, "target": game.target, "winner": game.winner}


def game_from_json(data: Any) -> Game:
    try:
        game = new_game(list(data["players"]), data.get("target", 20))
        game = replace(game, scores=tuple(data["scores"]), current=data["current"],
                       turn_total=data["turn_total"], winner=data.get("winner"))
    except (KeyError, TypeError, AttributeError) as error:
        raise InvalidInput(f"not a Pig state: {data!r} ({error})") from None
    if len(game.scores) != len(game.players) or not 0 <= game.current < len(game.players):
        raise InvalidInput(f"not a Pig state: {data!r}")
    return game
