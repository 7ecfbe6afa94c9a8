"""The Button Goblin table flow: the referee's script for a match at a real table.

Setup -> each player picks swing sizes -> the camera reads every die -> initiative (and focus duels)
-> the player to move picks a legal attack (or passes when none exists) -> the camera reads only the
re-rolled dice -> ... -> both pass -> round scores -> swing sizes again -> ... -> first to three rounds.

Setup JSON::

    {"players": [{"name": "Anna", "button": "Lobo", "swing": {"X": 8, "W": 12, "Y": 6}},
                 {"name": "Bruno", "button": "Alisa", "ve": "VA"}]}

``name`` defaults to the button's name; ``ve`` (``"VA"``, ``"VO"`` or ``"none"``) is required for the
two buttons with the undefined VE code; ``swing`` is optional (asked for at the table otherwise).

Actions::

    {"type": "swing", "player": 0, "sizes": {"X": 8}}           # sizes 4..20; {} keeps the last ones
    {"type": "reading", "values": {"p0.1": 5, "p0.3a": 4, ...}}  # one value per expected slot
    {"type": "focus", "player": 1, "dice": {"2": 1}}             # die index -> lowered value
    {"type": "decline", "player": 1}                             # no (more) focus: initiative stays
    {"type": "attack", "kind": "power", "attackers": [1], "targets": [0],
     "fire": [{"die": 3, "to": 2}]}                              # fire optional
    {"type": "pass"}                                             # only when no attack exists
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal

from companion.button_goblin import advisor
from companion.button_goblin.core import (
    PASS,
    SKILL_NAMES,
    Attack,
    Die,
    Player,
    Position,
    apply,
    clear_focus,
    describe,
    focus_options,
    focus_reduce,
    initiative,
    match_outcome,
    refuse,
    rerolls,
    round_outcome,
    say,
    scores,
    with_values,
)
from companion.button_goblin.jsonio import attack_action_json, attack_from_json
from companion.button_goblin.roster import (
    ROSTER,
    SWING_MAX,
    SWING_MIN,
    VE_MEANINGS,
    Button,
    find_button,
)
from companion.button_goblin.rules import RULES
from companion.errors import IllegalAction, InvalidInput
from companion.flow import JSON, Action, Choice, Expectation, Slot
from companion.messages import Message, message_json, word
from companion.reading import Die as SeenDie
from companion.reading import TableReading

Phase = Literal["swing", "roll", "focus", "play", "reroll", "over"]
COMMON_SIZES: Final = (4, 6, 8, 10, 12, 20)
GROUP_TITLES: Final[Mapping[str, str]] = {
    "power": "Power attacks",
    "skill": "Skill attacks",
    "speed": "Speed attacks (VA)",
    "berserk": "Berserk attacks (FG)",
    "shadow": "Shadow attacks (OM)",
    "disintegration": "Disintegration attacks (DS)",
    "pass": "Pass",
}

ACTION_KEYS: Final[Mapping[str, tuple[str, ...]]] = {
    "swing": ("player", "sizes"),
    "reading": ("values",),
    "focus": ("player", "dice"),
    "decline": ("player",),
    "attack": ("kind", "attackers", "targets", "fire"),
    "pass": (),
}
"""The keys each action type may carry besides ``type``."""


@dataclass(frozen=True)
class RoundResult:
    number: int
    scores: tuple[int, int]
    winner: int | None
    final: str = ""
    """The position when both passed, in notation (for the page's round summary)."""


@dataclass(frozen=True)
class Table:
    """The whole state of a Button Goblin match at the table (immutable; rebuilt by replay)."""

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


# ------------------------------------------------------------------------------------------- helpers


def _int(value: JSON, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(Message("error.input.int", f"{what} must be an integer, not {value!r}",
                                   {"what": word("error.what", what), "value": repr(value)}))
    return value


def _player(action: Action, default: int | None = None) -> int:
    raw = action.get("player", default)
    if raw not in (0, 1) or isinstance(raw, bool):
        raise InvalidInput(f"\"player\" must be 0 or 1, not {raw!r}")
    return int(raw)


def _physical(die: Die) -> list[int]:
    """Sides of the physical dice that make up ``die`` (a twin is two)."""
    return list(die.sides or ())


def _needs_reading(sides: int) -> bool:
    # a d0 always shows 0 and a d1 always shows 1: nothing for the camera or the players to read
    return sides > 1


def _slots_for(state: Table, player: int, dice: Sequence[Die], indices: Sequence[int]) -> list[Slot]:
    slots = []
    name = state.names[player]
    for i in indices:
        die = dice[i]
        parts = _physical(die)
        for n, sides in enumerate(parts):
            if not _needs_reading(sides):
                continue
            suffix = "" if len(parts) == 1 else "ab"[n]
            half = "" if len(parts) == 1 else f" ({n + 1}/2)"
            slots.append(Slot(f"p{player}.{i}{suffix}", f"{name} {die.size_text()}{half}", sides,
                              f"p{player}", 1, sides))
    return slots


def _values_from(reading: Action, slots: Sequence[Slot]) -> dict[str, int]:
    raw = reading.get("values")
    if not isinstance(raw, dict):
        raise InvalidInput("a reading needs \"values\": {slot: value}")
    wanted = {s.key: s for s in slots}
    unknown = sorted(set(raw) - set(wanted))
    if unknown:
        raise InvalidInput(f"no die {unknown[0]!r} is expected now; expected: {', '.join(wanted) or 'none'}")
    missing = [k for k in wanted if k not in raw]
    if missing:
        raise InvalidInput(refuse("bg.input.missing", slots=", ".join(missing)))
    out = {}
    for key, slot in wanted.items():
        value = _int(raw[key], f"value of {key}")
        high = slot.high if slot.high is not None else slot.sides
        if value < slot.low or (high is not None and value > high):
            raise InvalidInput(refuse("bg.input.slot_range", die=slot.label, slot=key, low=slot.low,
                                      high=high, value=value))
        out[key] = value
    return out


def _die_values(
    player: int, dice: Sequence[Die], indices: Sequence[int], values: Mapping[str, int]
) -> dict[int, int]:
    """Die index -> value from slot values (twins summed; d0 and d1 fixed)."""
    out = {}
    for i in indices:
        parts = _physical(dice[i])
        total = 0
        for n, sides in enumerate(parts):
            suffix = "" if len(parts) == 1 else "ab"[n]
            total += values[f"p{player}.{i}{suffix}"] if _needs_reading(sides) else sides
        out[i] = total
    return out


def _names_and_buttons(setup: Mapping[str, JSON]) -> Table:
    if not isinstance(setup, Mapping):
        raise InvalidInput(f"setup must be a JSON object, not {setup!r}")
    raw = setup.get("players")
    if not isinstance(raw, list) or len(raw) != 2:
        raise InvalidInput("setup needs \"players\": a list of two players, each with a \"button\"")
    names, buttons, ves, swings, done = [], [], [], [], []
    for n, entry in enumerate(raw):
        if not isinstance(entry, dict):
            raise InvalidInput(f"player {n} must be a JSON object, not {entry!r}")
        unknown = sorted(set(entry) - {"name", "button", "ve", "swing"})
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
        if not isinstance(sizes, dict):
            raise InvalidInput(f"player {n} swing must be an object like {{\"X\": 8}}, not {sizes!r}")
        partial = _swing_sizes(button, sizes, {})
        names.append(name.strip())
        buttons.append(button)
        ves.append(ve)
        swings.append(tuple(sorted(partial.items())))
        done.append(all(letter in partial for letter in button.swing_letters))
    if names[0] == names[1]:
        names[1] = f"{names[1]} (2)"
    phase: Phase = "roll" if all(done) else "swing"
    return Table((names[0], names[1]), (buttons[0], buttons[1]), (ves[0], ves[1]),
                 (swings[0], swings[1]), (done[0], done[1]), phase)


def _swing_sizes(button: Button, sizes: Mapping[str, JSON], current: Mapping[str, int]) -> dict[str, int]:
    merged = dict(current)
    for letter, size in sizes.items():
        if letter not in button.swing_letters:
            raise InvalidInput(f"{button.name} has no swing die {letter!r}"
                               + (f"; its swing dice: {', '.join(button.swing_letters)}"
                                  if button.swing_letters else ""))
        value = _int(size, f"swing {letter}")
        if not SWING_MIN <= value <= SWING_MAX:
            raise InvalidInput(refuse("bg.input.swing_range", letter=letter, low=SWING_MIN, high=SWING_MAX,
                                      value=value))
        merged[letter] = value
    return merged


# ---------------------------------------------------------------------------------------- the flow


class ButtonGoblinFlow:
    """The ``companion.flow.Flow`` of Button Goblin."""

    game = "button-goblin"
    title = "Button Goblin"

    def setup_schema(self) -> Mapping[str, JSON]:
        return {
            "game": self.game,
            "title": self.title,
            "players": {"min": 2, "max": 2},
            "fields": [
                {"key": "name", "label": "Name", "type": "text", "per_player": True, "required": False},
                {"key": "button", "label": "Button", "type": "select", "per_player": True, "required": True,
                 "options": [b.name for b in ROSTER]},
                {"key": "ve", "label": "What VE means (the rulebook never defines it)", "type": "select",
                 "per_player": True, "options": list(VE_MEANINGS),
                 "required_for": [b.name for b in ROSTER if b.needs_ve]},
                {"key": "swing", "label": "Swing sizes (optional)", "type": "swing", "per_player": True,
                 "required": False, "min": SWING_MIN, "max": SWING_MAX},
            ],
            "buttons": [{"name": b.name, "recipe": b.format(), "swing": list(b.swing_letters),
                         "needs_ve": b.needs_ve} for b in ROSTER],
            "example": {"players": [{"name": "Anna", "button": "Lobo"},
                                    {"name": "Bruno", "button": "Alisa", "ve": "VA"}]},
        }

    def start(self, setup: Mapping[str, JSON]) -> Table:
        return _names_and_buttons(setup)

    def advise(self, state: Table, *, seed: int = 0) -> Mapping[str, JSON]:
        """What each legal attack of the player to move is worth (``advisor.to_json``): only asked for,
        never part of the view. ``IllegalAction`` unless the table is at a choice of attack."""
        if state.phase != "play" or state.position is None:
            raise IllegalAction(refuse("bg.illegal.no_advice", phase=repr(state.phase)))
        return advisor.to_json(advisor.advise(state.position, seed=seed))

    # -- apply ---------------------------------------------------------------------------------

    def apply(self, state: Table, action: Action) -> Table:
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise InvalidInput(f"an action is a JSON object with a \"type\", not {action!r}")
        kind = action["type"]
        if state.phase == "over":
            raise IllegalAction(refuse("bg.illegal.match_over"))
        handlers = {
            "swing": ("swing", self._swing),
            "reading": (None, self._reading),
            "focus": ("focus", self._focus),
            "decline": ("focus", self._decline),
            "attack": ("play", self._attack),
            "pass": ("play", self._pass),
        }
        if kind not in handlers:
            raise InvalidInput(f"unknown action type {kind!r}; one of: {', '.join(handlers)}")
        unknown = sorted(set(action) - {"type", *ACTION_KEYS[kind]})
        if unknown:
            raise InvalidInput(f"a {kind!r} action has unknown key {unknown[0]!r}; "
                               f"known: {', '.join(ACTION_KEYS[kind]) or 'none besides type'}")
        phase, handler = handlers[kind]
        if phase is not None and state.phase != phase:
            raise IllegalAction(refuse("bg.illegal.not_now", action=repr(kind), phase=repr(state.phase)))
        if phase is None and state.phase not in ("roll", "reroll"):
            raise IllegalAction(refuse("bg.illegal.nothing_to_read", phase=repr(state.phase)))
        return handler(state, action)

    def _swing(self, state: Table, action: Action) -> Table:
        player = _player(action)
        sizes = action.get("sizes", {})
        if not isinstance(sizes, dict):
            raise InvalidInput(f"\"sizes\" must be an object like {{\"X\": 8}}, not {sizes!r}")
        merged = _swing_sizes(state.buttons[player], sizes, state.sizes(player))
        complete = all(letter in merged for letter in state.buttons[player].swing_letters)
        swing = list(state.swing)
        swing[player] = tuple(sorted(merged.items()))
        done = list(state.swing_done)
        done[player] = complete
        new = replace(state, swing=(swing[0], swing[1]), swing_done=(done[0], done[1]))
        return replace(new, phase="roll") if all(done) else new

    def _reading(self, state: Table, action: Action) -> Table:
        expectation = self.expects(state)
        slots = expectation.slots if expectation is not None else ()
        values = _values_from(action, slots)
        if state.phase == "roll":
            players = []
            for p in (0, 1):
                dice = state.base_dice(p)
                by_index = _die_values(p, dice, range(len(dice)), values)
                players.append(Player(state.names[p], tuple(replace(d, value=by_index[i])
                                                             for i, d in enumerate(dice))))
            position = Position((players[0], players[1]))
            return self._after_roll(state, position)
        assert state.position is not None and state.reroll_player is not None
        p = state.reroll_player
        dice = state.position.players[p].dice
        position = with_values(state.position, p, _die_values(p, dice, state.reroll_dice, values))
        return replace(state, position=position, phase="play", reroll_player=None, reroll_dice=())

    def _after_roll(self, state: Table, position: Position) -> Table:
        who = initiative(position)
        if who.player is None:
            return replace(state, position=None, phase="roll", tied_rolls=state.tied_rolls + 1,
                           start_initiative=None)
        position = Position(position.players, who.player)
        state = replace(state, position=position, start_initiative=(who.player, who.reason))
        loser = 1 - who.player
        if focus_options(position, loser):
            return replace(state, phase="focus", focus_player=loser)
        return self._settle(state, position)

    def _settle(self, state: Table, position: Position) -> Table:
        """End of the focus duel: the winner keeps the bar on its lowered dice, the loser none."""
        winner = position.to_move
        position = clear_focus(position, 1 - winner)
        who = initiative(position)
        reason = who.reason
        if state.start_initiative is not None and state.start_initiative[0] != winner:
            reason = say("bg.why.took_focus", name=state.names[winner], reason=who.reason)
        elif any(d.focus_reduced for d in position.players[winner].dice):
            reason = say("bg.why.kept_focus", name=state.names[winner], reason=who.reason)
        return replace(state, position=position, phase="play", focus_player=None,
                       start_initiative=(winner, reason))

    def _focus(self, state: Table, action: Action) -> Table:
        assert state.position is not None and state.focus_player is not None
        player = _player(action, state.focus_player)
        if player != state.focus_player:
            raise IllegalAction(refuse("bg.illegal.focus_player", name=state.names[state.focus_player]))
        raw = action.get("dice")
        if not isinstance(raw, dict) or not raw:
            raise InvalidInput("a focus action needs \"dice\": {die index: lowered value}")
        values = {}
        for key, value in raw.items():
            try:
                index = int(key)
            except ValueError:
                raise InvalidInput(f"focus die index must be a number, not {key!r}") from None
            values[index] = _int(value, f"focus value of die {key}")
        position = focus_reduce(state.position, player, values)
        other = 1 - player
        if focus_options(position, other):
            return replace(state, position=position, focus_player=other)
        return self._settle(state, position)

    def _decline(self, state: Table, action: Action) -> Table:
        assert state.position is not None and state.focus_player is not None
        player = _player(action, state.focus_player)
        if player != state.focus_player:
            raise IllegalAction(refuse("bg.illegal.focus_player", name=state.names[state.focus_player]))
        position = Position(state.position.players, 1 - player)
        return self._settle(state, position)

    def _attack(self, state: Table, action: Action) -> Table:
        assert state.position is not None
        body = {k: v for k, v in action.items() if k != "type"}
        if "kind" not in body:
            raise InvalidInput("an attack action needs \"kind\": power, skill, speed, berserk, shadow "
                               "or disintegration")
        body["type"] = body.pop("kind")
        position = state.position
        attack = attack_from_json(body, position)
        mover = position.to_move
        after = apply(position, attack)
        dice = after.players[mover].dice
        pending = [i for i in rerolls(attack) if any(_needs_reading(s) for s in _physical(dice[i]))]
        fixed = {i: sum(_physical(dice[i])) for i in rerolls(attack) if i not in pending}
        if fixed:
            after = with_values(after, mover, fixed)
        if pending:
            return replace(state, position=after, phase="reroll", reroll_player=mover,
                           reroll_dice=tuple(pending))
        return replace(state, position=after)

    def _pass(self, state: Table, action: Action) -> Table:
        assert state.position is not None
        after = apply(state.position, PASS)
        outcome = round_outcome(after)
        if outcome is None:
            return replace(state, position=after)
        result = RoundResult(state.round_number, outcome.scores, outcome.winner, after.format())
        wins = list(state.wins)
        if outcome.winner is not None:
            wins[outcome.winner] += 1
        won = (wins[0], wins[1])
        state = replace(state, position=after, wins=won, history=(*state.history, result))
        if match_outcome(won) is not None:
            return replace(state, phase="over")
        done = tuple(not b.swing_letters for b in state.buttons)
        return replace(state, round_number=state.round_number + 1, position=None, start_initiative=None,
                       tied_rolls=0, swing_done=(done[0], done[1]),
                       phase="roll" if all(done) else "swing")

    # -- questions -----------------------------------------------------------------------------

    def expects(self, state: Table) -> Expectation | None:
        if state.phase == "roll":
            slots: list[Slot] = []
            for p in (0, 1):
                dice = state.base_dice(p)
                slots += _slots_for(state, p, dice, range(len(dice)))
            prompt = "roll.tie" if state.tied_rolls else "roll.initial"
            return Expectation("dice", prompt, tuple(slots),
                               params={"round": state.round_number, "players": list(state.names)})
        if state.phase == "reroll" and state.position is not None and state.reroll_player is not None:
            p = state.reroll_player
            slots = _slots_for(state, p, state.position.players[p].dice, state.reroll_dice)
            return Expectation("dice", "roll.reroll", tuple(slots), params={"player": state.names[p]})
        return None

    def propose(self, state: Table, reading: TableReading) -> Action | None:
        expectation = self.expects(state)
        if expectation is None or expectation.kind != "dice":
            return None
        pool = [d for d in reading.dice if d.value is not None]
        if state.phase == "reroll":
            pool = _drop_known(state, pool)
        slots = expectation.slots
        if len(pool) < len(slots):
            return None
        # strictest first: same zone and same sides; then unknown sides; then any zone
        for strict_zone, strict_sides in ((True, True), (True, False), (False, False)):
            edges = []
            for slot in slots:
                fitting = [n for n, die in enumerate(pool) if _fits(slot, die, strict_zone, strict_sides)]
                # prefer dice whose zone and sides agree, then the reading's order (a stable sort)
                fitting.sort(key=lambda n, slot=slot: -_agreement(slot, pool[n]))  # type: ignore[misc]
                edges.append(fitting)
            match = _match(edges)
            if match is not None:
                return {"type": "reading",
                        "values": {s.key: pool[match[k]].value for k, s in enumerate(slots)}}
        return None

    def choices(self, state: Table) -> Sequence[Choice]:
        if state.phase == "swing":
            return _swing_choices(state)
        if state.phase == "focus" and state.position is not None and state.focus_player is not None:
            return _focus_choices(state, state.position, state.focus_player)
        if state.phase == "play" and state.position is not None:
            return _play_choices(state.position)
        return []

    def view(self, state: Table) -> Mapping[str, JSON]:
        return _view(self, state)

    def describe(self, state: Table, action: Action) -> Mapping[str, JSON] | None:
        """What a confirmed ``action`` did, said from ``state`` (the table before it) for the history:
        an attack names its kind and which die captured which, e.g. ``"Anna, Power Attack: d8 (5)
        captures d6 #2 (3) of Bruno"``. None: the history's plain words will do."""
        position = state.position
        if action.get("type") != "attack" or position is None:
            return None
        kind = str(action.get("kind", ""))
        mover = position.to_move
        mine, theirs = position.players[mover].dice, position.players[1 - mover].dice
        try:
            attackers = _dice_words(mine, action.get("attackers"))
            targets = _dice_words(theirs, action.get("targets"))
        except (IndexError, TypeError, ValueError):
            return None
        many = len(action.get("attackers") or ()) > 1
        params: dict[str, JSON] = {
            "player": state.names[mover], "other": state.names[1 - mover],
            "kind": message_json(Message(f"attack.name.{kind}", ATTACK_NAMES.get(kind, kind))),
            "attackers": attackers, "targets": targets}
        text = (f"{state.names[mover]}, {ATTACK_NAMES.get(kind, kind)}: {attackers} "
                f"{'capture' if many else 'captures'} {targets} of {state.names[1 - mover]}")
        key = f"history.button-goblin.attack{'_many' if many else ''}"
        return {"key": key, "params": params, "text": text}


def _fits(slot: Slot, die: SeenDie, strict_zone: bool, strict_sides: bool) -> bool:
    value = die.value
    high = slot.high if slot.high is not None else slot.sides
    if value is None or value < slot.low or (high is not None and value > high):
        return False
    seen_zone, seen_sides = die.zone, die.sides
    if strict_zone and slot.zone is not None and seen_zone != slot.zone:
        return False
    if strict_sides:
        return seen_sides == slot.sides
    return seen_sides in (None, slot.sides)


def _agreement(slot: Slot, die: SeenDie) -> int:
    return int(die.zone == slot.zone) * 2 + int(die.sides == slot.sides)


def _match(edges: Sequence[Sequence[int]]) -> list[int] | None:
    """A perfect matching of slots to dice (Kuhn's augmenting paths, preferred dice first), or None."""
    owner: dict[int, int] = {}

    def assign(slot: int, seen: set[int]) -> bool:
        # a free die in order of preference first, so earlier slots keep the dice they took
        for die in edges[slot]:
            if die not in owner:
                owner[die] = slot
                return True
        for die in edges[slot]:
            if die in seen:
                continue
            seen.add(die)
            if die not in owner or assign(owner[die], seen):
                owner[die] = slot
                return True
        return False

    for slot in range(len(edges)):
        if not assign(slot, set()):
            return None
    by_slot = {slot: die for die, slot in owner.items()}
    return [by_slot[k] for k in range(len(edges))]


def _drop_known(state: Table, pool: list[SeenDie]) -> list[SeenDie]:
    """Remove from a reading the dice that were not re-rolled (same zone, sides and value)."""
    assert state.position is not None
    rest = list(pool)
    for p, player in enumerate(state.position.players):
        for i, die in enumerate(player.dice):
            if (p == state.reroll_player and i in state.reroll_dice) or die.twin:
                continue
            for n, seen in enumerate(rest):
                if (seen.value == die.value and seen.sides in (None, die.size)
                        and seen.zone in (None, f"p{p}")):
                    del rest[n]
                    break
    return rest


def _swing_choices(state: Table) -> list[Choice]:
    out = []
    for p in (0, 1):
        if state.swing_done[p]:
            continue
        button = state.buttons[p]
        sizes = state.sizes(p)
        unset = [letter for letter in button.swing_letters if letter not in sizes]
        if not unset:
            shown = ", ".join(f"{k}=d{v}" for k, v in sorted(sizes.items()))
            out.append(Choice({"type": "swing", "player": p, "sizes": {}},
                              f"{state.names[p]}: keep {shown}", "swing", "swing.keep",
                              {"player": state.names[p], "sizes": sizes}))
        for letter in unset[:1] or button.swing_letters:
            for size in COMMON_SIZES:
                out.append(Choice({"type": "swing", "player": p, "sizes": {letter: size}},
                                  f"{state.names[p]}: swing {letter} = d{size}", "swing", "swing.size",
                                  {"player": state.names[p], "letter": letter, "size": size}))
        break  # one player at a time, so NEXT cycles through a short list
    return out


def _focus_choices(state: Table, position: Position, player: int) -> list[Choice]:
    dice = position.players[player].dice
    out = []
    for move in focus_options(position, player):
        words = ", ".join(f"{dice[i].size_text()} from {dice[i].value} down to {v}"
                          for i, v in sorted(move.items()))
        out.append(Choice({"type": "focus", "player": player, "dice": {str(i): v for i, v in move.items()}},
                          f"Focus: turn your {words} to take initiative", "focus", "focus.reduce",
                          {"player": state.names[player], "dice": {str(i): v for i, v in move.items()}}))
    out.append(Choice({"type": "decline", "player": player},
                      f"No focus: {state.names[1 - player]} keeps initiative", "focus", "focus.decline",
                      {"player": state.names[player]}))
    return out


def _attack_choice(position: Position, attack: Attack) -> Choice:
    action = {"type": "attack", "kind": attack.kind, **{k: v for k, v in attack_action_json(attack).items()
                                                      if k != "type"}}
    return Choice(action, describe(position, attack), attack.kind, f"attack.{attack.kind}",
                  {"fire": attack.fire_points(position), "attackers": list(attack.attackers),
                   "targets": list(attack.targets)})


def _play_choices(position: Position) -> list[Choice]:
    """``RULES.legal``: the attacks, or the pass when (the rules say) no attack is possible."""
    return [
        _attack_choice(position, event)
        if isinstance(event, Attack)
        else Choice({"type": "pass"}, f"Pass: {position.mover.name} has no legal attack", "pass", "pass")
        for event in RULES.legal(position)
    ]


#: The attacks as the rulebook names them (the page translates ``attack.name.<kind>``).
ATTACK_NAMES: Final[Mapping[str, str]] = {
    "power": "Power Attack", "skill": "Skill Attack", "speed": "Speed Attack", "berserk": "Berserk Attack",
    "shadow": "Shadow Attack", "disintegration": "Inverted Power Attack (Disintegration)"}


def _dice_words(dice: Sequence[Die], indices: object) -> str:
    """``"d6 #2 (4) + d8 (5)"``: each die by size, which of that size when there are several, and value
    (the page's own words for a die)."""
    if not isinstance(indices, list) or not indices:
        raise ValueError("no dice")
    words = []
    for i in indices:
        die = dice[int(i)]
        same = [j for j, d in enumerate(dice) if d.size_text() == die.size_text()]
        nth = f" #{same.index(int(i)) + 1}" if len(same) > 1 else ""
        words.append(f"{die.size_text()}{nth} ({die.value})")
    return " + ".join(words)


def _die_view(die: Die, index: int, *, barred: bool = False, reroll: bool = False) -> dict[str, JSON]:
    return {
        "index": index,
        "size": die.size,
        "sides": list(die.sides or ()),
        "twin": die.twin,
        "value": die.value,
        "skills": list(die.skills),
        "skill_names": [SKILL_NAMES[s] for s in die.skills],
        "label": die.label,
        "barred": barred or die.focus_reduced,
        "has_captured": die.has_captured,
        "reroll": reroll,
    }


def _prompts(state: Table, position: Position | None) -> list[dict[str, JSON]]:
    names = state.names
    if state.phase == "swing":
        p = 0 if not state.swing_done[0] else 1
        return [{"key": "swing.choose", "params": {"player": names[p]},
                 "text": f"{names[p]}: choose the swing dice sizes ({SWING_MIN}-{SWING_MAX})"}]
    if state.phase == "roll":
        text = "All dice tied: roll everything again" if state.tied_rolls else "Roll all your dice"
        return [{"key": "roll.tie" if state.tied_rolls else "roll.initial", "params": {}, "text": text}]
    if state.phase == "reroll" and state.reroll_player is not None:
        p = state.reroll_player
        return [{"key": "roll.reroll", "params": {"player": names[p]},
                 "text": f"{names[p]}: re-roll the dice that attacked"}]
    if state.phase == "focus" and state.focus_player is not None:
        p = state.focus_player
        return [{"key": "focus.offer", "params": {"player": names[p]},
                 "text": f"{names[p]}: you may turn focus dice down to take initiative"}]
    if state.phase == "play" and position is not None:
        p = position.to_move
        if position.legal:
            return [{"key": "play.attack", "params": {"player": names[p]},
                     "text": f"{names[p]}: choose an attack"}]
        return [{"key": "play.pass", "params": {"player": names[p]},
                 "text": f"{names[p]}: no attack is possible, you must pass"}]
    if state.phase == "over":
        outcome = match_outcome(state.wins)
        winner = names[outcome.winner] if outcome else "nobody"
        return [{"key": "match.over", "params": {"winner": winner}, "text": f"{winner} wins the match"}]
    return []


def _view(flow: ButtonGoblinFlow, state: Table) -> dict[str, JSON]:
    position = state.position
    points = scores(position) if position is not None else None
    players = []
    for p in (0, 1):
        if position is not None:
            dice = position.players[p].dice
            captured = position.players[p].captured
        else:
            dice, captured = state.preview_dice(p), ()
        pending = state.reroll_dice if state.reroll_player == p else ()
        players.append({
            "index": p,
            "name": state.names[p],
            "button": state.buttons[p].name,
            "recipe": state.buttons[p].format(),
            "ve": state.ve[p],
            "swing": state.sizes(p),
            "swing_letters": list(state.buttons[p].swing_letters),
            "swing_done": state.swing_done[p],
            "dice": [_die_view(d, i, reroll=i in pending) for i, d in enumerate(dice)],
            "captured": [_die_view(d, i) for i, d in enumerate(captured)],
            "rounds_won": state.wins[p],
            "score": points[p] if points is not None else None,
        })
    choices = flow.choices(state)
    attacks = [{"group": c.group, "label": c.label, "action": dict(c.action), "fire": c.params.get("fire", 0)}
               for c in choices if c.group in GROUP_TITLES and c.group != "pass"]
    groups = []
    for group, title in GROUP_TITLES.items():
        members = [a for a in attacks if a["group"] == group]
        if members:
            groups.append({"group": group, "title": title, "attacks": members})
    turn = None
    if state.phase in ("play", "reroll") and position is not None:
        turn = {"player": position.to_move, "name": state.names[position.to_move]}
    outcome = match_outcome(state.wins)
    expectation = flow.expects(state)
    last = state.history[-1] if state.history else None
    return {
        "game": flow.game,
        "title": flow.title,
        "phase": state.phase,
        "over": state.phase == "over",
        "outcome": None if outcome is None else {
            "winner": outcome.winner, "name": state.names[outcome.winner],
            "rounds_won": list(outcome.rounds)},
        "round": state.round_number,
        "rounds_won": list(state.wins),
        "rounds": [{"round": r.number, "scores": list(r.scores), "winner": r.winner,
                    "tie": r.winner is None} for r in state.history],
        "last_round": None if last is None else {"round": last.number, "scores": list(last.scores),
                                                 "winner": last.winner, "tie": last.winner is None,
                                                 "notation": last.final},
        "players": players,
        "initiative": None if state.start_initiative is None else {
            "player": state.start_initiative[0], "reason": state.start_initiative[1],
            "reason_message": message_json(state.start_initiative[1])},
        "turn": turn,
        "focus": None if state.focus_player is None else {
            "player": state.focus_player, "name": state.names[state.focus_player]},
        "attacks": attacks,
        "attack_groups": groups,
        "must_pass": state.phase == "play" and position is not None and not attacks,
        "scores": list(points) if points is not None else None,
        "notation": position.format() if position is not None else None,
        "prompts": _prompts(state, position),
        "expects": None if expectation is None else {
            "kind": expectation.kind, "prompt": expectation.prompt, "params": dict(expectation.params),
            "slots": [{"key": s.key, "label": s.label, "sides": s.sides, "zone": s.zone, "low": s.low,
                       "high": s.high} for s in expectation.slots]},
        "choices": [{"label": c.label, "group": c.group, "key": c.key, "action": dict(c.action)}
                    for c in choices],
    }


FLOW: Final = ButtonGoblinFlow()
