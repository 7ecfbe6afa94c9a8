"""A Button Goblin match, decided here: swing sizes, the roll, the focus duel, the attacks and their
re-rolls, round after round, first to three.

``companion.button_goblin.core`` decides one round (a ``Position`` and its attacks); this module adds
what happens around it at a real table, as events over an immutable ``Match``::

    Swing(player, (("X", 8),))        # swing sizes (4..20); () keeps the last ones
    Roll(((0, 1, 5), (1, 3, 4), ...)) # (player, die, value) for each die to read now (``to_read``)
    Focus(player, ((2, 1),))          # focus dice turned down to win initiative
    Decline(player)                   # no (more) focus: initiative stays
    Attack(...), PASS                 # the round's own events (``core``)

``legal(match)`` is the one place that says what may happen now: ``event in legal(match)`` checks
directly, iterating lists what the players pick from (the swing sizes of real dice, the focus moves
``core.focus_options`` finds, the attacks or the pass). A roll carries what the camera read, so it is
checked by ``in`` and ``apply`` but not listed. ``apply`` raises ``IllegalAction`` (a refusal the page
words) for an event the match does not allow now, ``InvalidInput`` for a malformed one. The table flow
(``companion.button_goblin.flow``) reads dice and labels this legal view; it decides nothing itself.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal

from companion.button_goblin.core import (
    PASS,
    Attack,
    Die,
    Pass,
    Player,
    Position,
    clear_focus,
    focus_options,
    focus_reduce,
    initiative,
    match_outcome,
    refuse,
    rerolls,
    round_outcome,
    say,
    with_values,
)
from companion.button_goblin.core import apply as apply_round
from companion.button_goblin.roster import SWING_MAX, SWING_MIN, VE_MEANINGS, Button, find_button
from companion.button_goblin.roundrules import ROUND_RULES
from companion.dicesizes import DIE_SIDES
from companion.errors import IllegalAction, InvalidInput
from companion.messages import Message, word
from companion.rules import JSON, Legal, Outcome

Phase = Literal["swing", "roll", "focus", "play", "reroll", "over"]
EventKind = Literal["swing", "roll", "focus", "decline", "attack", "pass"]

PHASES: Final[Mapping[EventKind, tuple[Phase, ...]]] = {
    "swing": ("swing",), "roll": ("roll", "reroll"), "focus": ("focus",), "decline": ("focus",),
    "attack": ("play",), "pass": ("play",)}
"""The phases at which each kind of event may happen."""


@dataclass(frozen=True)
class Swing:
    """``player`` sets swing sizes (letter, sides); none keeps the sizes already set."""

    player: int
    sizes: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Roll:
    """The values the dice show: (player, die index, value) for each die of ``to_read``."""

    values: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class Focus:
    """``player`` turns focus dice down: (die index, value)."""

    player: int
    dice: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Decline:
    """``player`` uses no (more) focus: the initiative stays with the other."""

    player: int


MatchEvent = Swing | Roll | Focus | Decline | Attack | Pass


@dataclass(frozen=True)
class RoundResult:
    number: int
    scores: tuple[int, int]
    winner: int | None
    final: str = ""
    """The position when both passed, in notation (for the page's round summary)."""


@dataclass(frozen=True)
class Match:
    """The whole state of a Button Goblin match (immutable)."""

    names: tuple[str, str]
    buttons: tuple[Button, Button]
    ve: tuple[str | None, str | None]
    swing: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]
    swing_done: tuple[bool, bool]
    phase: Phase
    round_number: int = 1
    wins: tuple[int, int] = (0, 0)
    history: tuple[RoundResult, ...] = ()
    position: Position | None = None
    start_initiative: tuple[int | None, Message] | None = None
    focus_player: int | None = None
    reroll_player: int | None = None
    reroll_dice: tuple[int, ...] = ()
    tied_rolls: int = 0
    """Initiative ties re-rolled in this round (all dice equal)."""

    def sizes(self, player: int) -> dict[str, int]:
        return dict(self.swing[player])

    def base_dice(self, player: int) -> tuple[Die, ...]:
        """The player's dice for this round, not yet rolled."""
        return self.buttons[player].dice(self.sizes(player), self.ve[player])

    def preview_dice(self, player: int) -> tuple[Die, ...]:
        """The dice as far as they are known: a swing die without a size yet has size None."""
        button, sizes = self.buttons[player], self.sizes(player)
        full = {letter: sizes.get(letter, SWING_MIN) for letter in button.swing_letters}
        dice = button.dice(full, self.ve[player])
        return tuple(Die(None, None, d.skills) if spec.swing and spec.swing not in sizes else d
                     for spec, d in zip(button.recipe, dice, strict=True))


def new_match(names: Sequence[str], buttons: Sequence[Button], ve: Sequence[str | None],
              swing: Sequence[Mapping[str, int]]) -> Match:
    """A match of two players with their buttons, VE meanings and the swing sizes already chosen."""
    sizes = [tuple(sorted(swing_sizes(b, s, {}).items())) for b, s in zip(buttons, swing, strict=True)]
    done = [all(letter in dict(s) for letter in b.swing_letters) for b, s in zip(buttons, sizes, strict=True)]
    first, second = names[0], names[1]
    if first == second:
        second = f"{second} (2)"
    return Match((first, second), (buttons[0], buttons[1]), (ve[0], ve[1]), (sizes[0], sizes[1]),
                 (done[0], done[1]), "roll" if all(done) else "swing")


def swing_sizes(button: Button, sizes: Mapping[str, object], current: Mapping[str, int]) -> dict[str, int]:
    """``current`` with ``sizes`` set; ``InvalidInput`` for a letter the button lacks or a size out of
    4..20."""
    merged = dict(current)
    for letter, size in sizes.items():
        if letter not in button.swing_letters:
            raise InvalidInput(f"{button.name} has no swing die {letter!r}"
                               + (f"; its swing dice: {', '.join(button.swing_letters)}"
                                  if button.swing_letters else ""))
        if isinstance(size, bool) or not isinstance(size, int):
            raise InvalidInput(Message("error.input.int", f"swing {letter} must be an integer, not {size!r}",
                                       {"what": word("error.what", f"swing {letter}"), "value": repr(size)}))
        if not SWING_MIN <= size <= SWING_MAX:
            raise InvalidInput(refuse("bg.input.swing_range", letter=letter, low=SWING_MIN, high=SWING_MAX,
                                      value=size))
        merged[letter] = size
    return merged


def player_setup(entry: JSON, n: int, extra: tuple[str, ...] = ()) -> tuple[str, Button, str | None,
                                                                             Mapping[str, object]]:
    """One player of a setup, ``{"name", "button", "ve", "swing"}`` (and the ``extra`` keys a saved
    match adds): the name (the button's when none), the button, what VE means and the swing sizes set."""
    if not isinstance(entry, Mapping):
        raise InvalidInput(f"player {n} must be a JSON object, not {entry!r}")
    unknown = sorted(set(entry) - {"name", "button", "ve", "swing", *extra})
    if unknown:
        raise InvalidInput(f"player {n} has unknown key {unknown[0]!r}")
    button_name = entry.get("button")
    if not isinstance(button_name, str):
        raise InvalidInput(f"player {n} needs a \"button\" from the roster, not {button_name!r}")
    button = find_button(button_name)
    name = entry.get("name") or button.name
    if not isinstance(name, str):
        raise InvalidInput(f"player {n} name must be text, not {name!r}")
    Player(name, ())  # validates the name
    ve = entry.get("ve")
    if button.needs_ve:
        if ve not in VE_MEANINGS:
            raise InvalidInput(f"{button.name} has a VE die the rulebook never defines: "
                               f"say what it means with \"ve\": \"VA\", \"VO\" or \"none\" (got {ve!r})")
    elif ve is not None:
        raise InvalidInput(f"{button.name} has no VE die; drop \"ve\"")
    sizes = entry.get("swing", {})
    if not isinstance(sizes, Mapping):
        raise InvalidInput(f"player {n} swing must be an object like {{\"X\": 8}}, not {sizes!r}")
    swing_sizes(button, sizes, {})
    return name.strip(), button, ve, sizes


def from_setup(setup: JSON) -> Match:
    """A new match from the table flow's setup JSON::

        {"players": [{"name": "Anna", "button": "Lobo", "swing": {"X": 8}},
                     {"name": "Bruno", "button": "Alisa", "ve": "VA"}]}
    """
    if not isinstance(setup, Mapping):
        raise InvalidInput(f"setup must be a JSON object, not {setup!r}")
    raw = setup.get("players")
    if not isinstance(raw, list) or len(raw) != 2:
        raise InvalidInput("setup needs \"players\": a list of two players, each with a \"button\"")
    return new_match(*zip(*(player_setup(entry, n) for n, entry in enumerate(raw)), strict=True))


# ------------------------------------------------------------------------------------ what is rolled


def physical(die: Die) -> tuple[int, ...]:
    """Sides of the physical dice that make up ``die`` (a twin is two)."""
    return die.sides or ()


def needs_reading(sides: int) -> bool:
    """A d0 always shows 0 and a d1 always shows 1: nothing for the camera or the players to read."""
    return sides > 1


def rolled(match: Match) -> tuple[tuple[int, Die, int], ...]:
    """The dice rolled now, read or not: (player, die, index)."""
    if match.phase == "roll":
        return tuple((p, d, i) for p in (0, 1) for i, d in enumerate(match.base_dice(p)))
    if match.phase == "reroll" and match.position is not None and match.reroll_player is not None:
        p = match.reroll_player
        dice = match.position.players[p].dice
        return tuple((p, dice[i], i) for i in match.reroll_dice)
    return ()


def to_read(match: Match) -> tuple[tuple[int, int], ...]:
    """The dice whose values a ``Roll`` gives now: (player, die index); d0s and d1s are known."""
    return tuple((p, i) for p, d, i in rolled(match) if any(needs_reading(s) for s in physical(d)))


# --------------------------------------------------------------------------------------- legal view


def kind(event: object) -> EventKind:
    """The kind of a match event; ``InvalidInput`` for anything else."""
    if event == PASS:
        return "pass"
    kinds: tuple[tuple[type, EventKind], ...] = (
        (Swing, "swing"), (Roll, "roll"), (Focus, "focus"), (Decline, "decline"), (Attack, "attack"))
    for cls, name in kinds:
        if isinstance(event, cls):
            return name
    raise InvalidInput(f"not a Button Goblin match event: {event!r}")


def check_open(match: Match) -> None:
    """``IllegalAction`` once the match is over: nothing may happen any more."""
    if match.phase == "over":
        raise IllegalAction(refuse("bg.illegal.match_over"))


def check_phase(match: Match, event_kind: EventKind) -> None:
    """``IllegalAction`` unless an event of ``event_kind`` may happen at the match's phase."""
    check_open(match)
    if match.phase not in PHASES[event_kind]:
        if event_kind == "roll":
            raise IllegalAction(refuse("bg.illegal.nothing_to_read", phase=repr(match.phase)))
        raise IllegalAction(refuse("bg.illegal.not_now", action=repr(event_kind), phase=repr(match.phase)))


def candidates(match: Match) -> Iterator[MatchEvent]:
    """The events the players pick from, all legal (``exact``): swing sizes of real dice (4..20), the
    moves ``focus_options`` found winning, the round's legal events."""
    if match.phase == "swing":
        for p in (0, 1):
            if match.swing_done[p]:
                continue
            letters = match.buttons[p].swing_letters
            unset = [letter for letter in letters if letter not in match.sizes(p)]
            if not unset:
                yield Swing(p)
            for letter in unset[:1] or letters:
                for size in DIE_SIDES:
                    yield Swing(p, ((letter, size),))
            return  # one player at a time, so NEXT cycles through a short list
    elif match.phase == "focus" and match.position is not None and match.focus_player is not None:
        p = match.focus_player
        for move in focus_options(match.position, p):
            yield Focus(p, tuple(move.items()))
        yield Decline(p)
    elif match.phase == "play" and match.position is not None:
        yield from ROUND_RULES.legal(match.position)


def allows(match: Match, event: object) -> bool:
    """``event in legal(match)``: the match applies it."""
    try:
        apply(match, event)  # type: ignore[arg-type]
    except (InvalidInput, IllegalAction):
        return False
    return True


def legal(match: Match) -> Legal[Match, MatchEvent]:
    """The events the match allows now (lazy): ``for e in legal(m)``, ``e in legal(m)``."""
    return Legal(match, candidates, allows, exact=True)


def awaiting(match: Match) -> tuple[int, ...]:
    """The players the match waits on now."""
    if match.phase == "swing":
        return tuple(p for p in (0, 1) if not match.swing_done[p])[:1]
    if match.phase == "focus" and match.focus_player is not None:
        return (match.focus_player,)
    if match.phase == "reroll" and match.reroll_player is not None:
        return (match.reroll_player,)
    if match.phase == "play" and match.position is not None:
        return ROUND_RULES.awaiting(match.position)
    return (0, 1) if match.phase == "roll" else ()


def outcome(match: Match) -> Outcome | None:
    """``Outcome("match", (winner,))`` once a player has won three rounds; None before."""
    done = match_outcome(match.wins)
    return None if done is None or match.phase != "over" else Outcome("match", (done.winner,))


# -------------------------------------------------------------------------------------------- apply


def apply(match: Match, event: MatchEvent) -> Match:
    """The match after ``event``; ``IllegalAction`` if the match does not allow it now."""
    check_phase(match, kind(event))
    if isinstance(event, Attack):
        return _attack(match, event)
    if isinstance(event, Decline):
        _focus_player(match, event.player)
        assert match.position is not None
        return _settle(match, Position(match.position.players, 1 - event.player))
    handlers = {Swing: _swing, Roll: _roll, Focus: _focus}
    handler = handlers.get(type(event))
    return _pass(match) if handler is None else handler(match, event)  # type: ignore[operator]


def _swing(match: Match, event: Swing) -> Match:
    p = event.player
    if p not in (0, 1):
        raise InvalidInput(f"\"player\" must be 0 or 1, not {p!r}")
    merged = swing_sizes(match.buttons[p], dict(event.sizes), match.sizes(p))
    swing = list(match.swing)
    swing[p] = tuple(sorted(merged.items()))
    done = list(match.swing_done)
    done[p] = all(letter in merged for letter in match.buttons[p].swing_letters)
    new = replace(match, swing=(swing[0], swing[1]), swing_done=(done[0], done[1]))
    return replace(new, phase="roll") if all(done) else new


def _roll(match: Match, event: Roll) -> Match:
    wanted = to_read(match)
    given = {(p, i): v for p, i, v in event.values}
    if len(given) != len(event.values) or set(given) != set(wanted):
        raise InvalidInput(f"a roll gives the values of the dice {list(wanted)!r} (player, die), "
                           f"not {sorted(given)!r}")
    values: dict[tuple[int, int], int] = {}
    for p, die, i in rolled(match):
        value = given.get((p, i), sum(physical(die)))
        if not die.low <= value <= (die.high if die.high is not None else value):
            raise InvalidInput(f"{match.names[p]}'s {die.size_text()} (die {i}) shows {die.low}..{die.high}, "
                               f"not {value}")
        values[(p, i)] = value
    if match.phase == "roll":
        players = [Player(match.names[p], tuple(replace(d, value=values[(p, i)])
                                                for i, d in enumerate(match.base_dice(p)))) for p in (0, 1)]
        return _after_roll(match, Position((players[0], players[1])))
    assert match.position is not None and match.reroll_player is not None
    p = match.reroll_player
    position = with_values(match.position, p, {i: v for (_, i), v in values.items()})
    return replace(match, position=position, phase="play", reroll_player=None, reroll_dice=())


def _after_roll(match: Match, position: Position) -> Match:
    who = initiative(position)
    if who.player is None:
        return replace(match, position=None, phase="roll", tied_rolls=match.tied_rolls + 1,
                       start_initiative=None)
    position = Position(position.players, who.player)
    match = replace(match, position=position, start_initiative=(who.player, who.reason))
    loser = 1 - who.player
    if focus_options(position, loser):
        return replace(match, phase="focus", focus_player=loser)
    return _settle(match, position)


def _settle(match: Match, position: Position) -> Match:
    """End of the focus duel: the winner keeps the bar on its lowered dice, the loser none."""
    winner = position.to_move
    position = clear_focus(position, 1 - winner)
    who = initiative(position)
    reason = who.reason
    if match.start_initiative is not None and match.start_initiative[0] != winner:
        reason = say("bg.why.took_focus", name=match.names[winner], reason=who.reason)
    elif any(d.focus_reduced for d in position.players[winner].dice):
        reason = say("bg.why.kept_focus", name=match.names[winner], reason=who.reason)
    return replace(match, position=position, phase="play", focus_player=None,
                   start_initiative=(winner, reason))


def _focus_player(match: Match, player: int) -> None:
    if player not in (0, 1):
        raise InvalidInput(f"\"player\" must be 0 or 1, not {player!r}")
    assert match.focus_player is not None
    if player != match.focus_player:
        raise IllegalAction(refuse("bg.illegal.focus_player", name=match.names[match.focus_player]))


def _focus(match: Match, event: Focus) -> Match:
    _focus_player(match, event.player)
    assert match.position is not None
    position = focus_reduce(match.position, event.player, dict(event.dice))
    other = 1 - event.player
    if focus_options(position, other):
        return replace(match, position=position, focus_player=other)
    return _settle(match, position)


def _attack(match: Match, attack: Attack) -> Match:
    assert match.position is not None
    mover = match.position.to_move
    after = apply_round(match.position, attack)
    dice = after.players[mover].dice
    pending = [i for i in rerolls(attack) if any(needs_reading(s) for s in physical(dice[i]))]
    fixed = {i: sum(physical(dice[i])) for i in rerolls(attack) if i not in pending}
    if fixed:
        after = with_values(after, mover, fixed)
    if pending:
        return replace(match, position=after, phase="reroll", reroll_player=mover, reroll_dice=tuple(pending))
    return replace(match, position=after)


def _pass(match: Match) -> Match:
    assert match.position is not None
    after = apply_round(match.position, PASS)
    outcome = round_outcome(after)
    if outcome is None:
        return replace(match, position=after)
    result = RoundResult(match.round_number, outcome.scores, outcome.winner, after.format())
    wins = list(match.wins)
    if outcome.winner is not None:
        wins[outcome.winner] += 1
    won = (wins[0], wins[1])
    match = replace(match, position=after, wins=won, history=(*match.history, result))
    if match_outcome(won) is not None:
        return replace(match, phase="over")
    done = tuple(not b.swing_letters for b in match.buttons)
    return replace(match, round_number=match.round_number + 1, position=None, start_initiative=None,
                   tied_rolls=0, swing_done=(done[0], done[1]), phase="roll" if all(done) else "swing")
