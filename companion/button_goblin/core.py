"""The Button Goblin rules core: dice, positions, initiative, legal attacks, captures and scores.

Pure: no I/O, no clock, no randomness. A ``Position`` is the table between two turns; ``apply``
returns the position after an attack or a pass, with the attacking dice still showing their old
values; ``rerolls`` names the dice the players must re-roll, and ``with_values`` takes the values
they read.

Notation (``Position.parse`` / ``Position.format``)::

    Lobo: 2 2 6 9 13 | SdP: 2 4 5 13 18                     # compact: values only, sizes unknown
    > Lobo: d0=0[NU] d8=5 d(10,10)=14 d12=7[FU] {d20=13} | SdP: d4=2 d20=18[VA]!  ; passes 1

``>`` marks the player to move (default: the initiative winner, else the first player); a die is
``dSIZE=VALUE[SKILLS]`` followed by ``*`` (a DS die that has captured) and ``!`` (a focus die barred
from this attack); ``{...}`` holds the dice the player has captured.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Literal, get_args

from companion.errors import IllegalAction, InvalidInput
from companion.messages import Message, speaker, word

Skill = Literal["DS", "FG", "FO", "FU", "GE", "NU", "OM", "VA", "VO"]
SKILLS: Final[tuple[str, ...]] = get_args(Skill)
SKILL_NAMES: Final[Mapping[str, str]] = {
    "DS": "disintegration",
    "FG": "berserk",
    "FO": "focus",
    "FU": "fire",
    "GE": "twin",
    "NU": "null",
    "OM": "shadow",
    "VA": "speed",
    "VO": "poison",
}

AttackKind = Literal["power", "skill", "speed", "berserk", "shadow", "disintegration"]
ATTACK_KINDS: Final[tuple[str, ...]] = get_args(AttackKind)
FIRE_KINDS: Final[frozenset[str]] = frozenset({"power", "skill"})

MAX_SIZE: Final = 1_000_000
"""Sanity bound on a die size (the roster's largest is Racca's 1000)."""

MAX_DICE: Final = 12
"""Sanity bound on the dice a player has in play, and on those captured (not a rule: the rulebook sets
no limit and the roster's largest button, Madness, has 6). Legal attacks grow with the subsets of the
dice (2^n), so the bound keeps any input answered within about 50 ms (12 speed dice against 12 ones)."""


def read_number(digits: str, where: str) -> int:
    """The decimal ``digits`` of a notation, refusing numbers far beyond any die (``where`` is quoted)."""
    digits = digits.strip()
    if len(digits) > len(str(MAX_SIZE)):
        raise InvalidInput(f"number too large in {where[:60]!r}: {digits[:12]}... has {len(digits)} digits")
    return int(digits)


def half_up(n: int) -> int:
    """Half of ``n``, rounded up, as every half in the rulebook is."""
    return -(-n // 2)


# ---------------------------------------------------------------------------------------------- dice


@dataclass(frozen=True)
class Die:
    """One combat die: its size(s), the value it shows, its skills and two per-round marks.

    ``sides`` is ``(8,)`` for a d8, ``(10, 10)`` for a twin die (GE) and ``None`` when the size is
    unknown (the compact notation). ``value`` is None for a captured die whose value was not given.
    """

    sides: tuple[int, ...] | None
    value: int | None
    skills: tuple[str, ...] = ()
    has_captured: bool = False
    """A DS die that has captured at least one die (so it scores when kept)."""
    focus_reduced: bool = False
    """A focus die its owner turned down to win initiative: barred from the owner's first attack."""

    def __post_init__(self) -> None:
        if self.sides is not None:
            if not 1 <= len(self.sides) <= 2:
                raise InvalidInput(f"a die has one size or two (a twin), not {self.sides!r}")
            for s in self.sides:
                if not 0 <= s <= MAX_SIZE:
                    raise InvalidInput(f"die size {s} is outside 0..{MAX_SIZE}")
            if len(self.sides) == 2 and self.sides[0] != self.sides[1]:
                raise InvalidInput(f"a twin (GE) is two equal dice, not ({self.sides[0]},{self.sides[1]})")
        for skill in self.skills:
            if skill not in SKILLS:
                raise InvalidInput(f"unknown skill {skill!r}; one of: {', '.join(SKILLS)}")
        if "GE" in self.skills:
            raise InvalidInput("GE is written as two sizes, e.g. (10,10); it is not kept as a skill")
        if tuple(sorted(set(self.skills))) != self.skills:
            object.__setattr__(self, "skills", tuple(sorted(set(self.skills))))
        if self.has_captured and "DS" not in self.skills:
            raise InvalidInput(f"die {self.format()} is not a disintegration (DS) die: only DS dice "
                               "record that they have captured (has_captured)")
        if self.focus_reduced and "FO" not in self.skills:
            raise InvalidInput(f"die {self.format()} is not a focus (FO) die: only focus dice are "
                               "turned down by focus and barred (focus_reduced)")
        too_high = self.value is not None and self.high is not None and self.value > self.high
        if self.value is not None and (self.value < self.low or too_high):
            span = f"{self.low}..{self.high}"
            raise InvalidInput(f"value {self.value} is outside {span} of die {self.format()}")

    @property
    def twin(self) -> bool:
        return self.sides is not None and len(self.sides) == 2

    @property
    def size(self) -> int | None:
        """The die's size (a twin's is the sum of its two), None when unknown."""
        return None if self.sides is None else sum(self.sides)

    @property
    def low(self) -> int:
        """The lowest value the die can show (2 for a twin, 0 for a 0-sided die).

        Of unknown size: 0 if it shows 0 (only a d0 does), else 1, the floor of every die with a face.
        """
        if self.sides is None:
            return 0 if self.value in (None, 0) else 1
        return sum(1 for s in self.sides if s > 0)

    @property
    def high(self) -> int | None:
        """The highest value the die can show, None when the size is unknown."""
        return self.size

    def has(self, skill: str) -> bool:
        return skill in self.skills

    @property
    def label(self) -> str:
        """A short human name: ``d8``, ``d(10,10)``, ``d20 speed``."""
        base = self.size_text()
        names = " ".join(SKILL_NAMES[s] for s in self.skills)
        return f"{base} {names}" if names else base

    def size_text(self) -> str:
        if self.sides is None:
            return "die"
        if self.twin:
            return f"d({self.sides[0]},{self.sides[1]})"
        return f"d{self.sides[0]}"

    # notation ------------------------------------------------------------------------------------

    def format(self) -> str:
        """The die in position notation (see the module docstring)."""
        plain = self.sides is None and not self.skills and not self.has_captured and not self.focus_reduced
        if plain and self.value is not None:
            return str(self.value)
        if self.sides is None:
            text = "d?"
        elif self.twin:
            text = f"d({self.sides[0]},{self.sides[1]})"
        else:
            text = f"d{self.sides[0]}"
        if self.value is not None:
            text += f"={self.value}"
        if self.skills:
            text += "[" + ",".join(self.skills) + "]"
        if self.has_captured:
            text += "*"
        if self.focus_reduced:
            text += "!"
        return text

    @classmethod
    def parse(cls, text: str) -> Die:
        """The die written as ``text`` in position notation."""
        match = _DIE_RE.fullmatch(text.strip())
        if match is None:
            raise InvalidInput(f"bad die {text.strip()!r}; write e.g. 5, d8=5, d(10,10)=14 or d12=7[FU]")
        return _die_from_match(match, text.strip())

    def __repr__(self) -> str:
        return f"Die.parse({self.format()!r})"

    def __str__(self) -> str:
        return self.format()


_DIE_PATTERN = (
    r"(?:d(?P<sides>\d+|\(\s*\d+\s*,\s*\d+\s*\)|\?)(?:=(?P<value>\d+))?|(?P<bare>\d+))"
    r"(?:\s*\[(?P<skills>[^\]]*)\])?(?P<flags>[*!]*)"
)
_DIE_RE = re.compile(_DIE_PATTERN)


def parse_skills(text: str, where: str) -> tuple[str, ...]:
    """Skill codes in ``VO, OM`` form; ``where`` is quoted in errors."""
    out = []
    for raw in text.split(","):
        code = raw.strip()
        if not code:
            raise InvalidInput(f"empty skill in {where!r}")
        if code not in SKILLS:
            raise InvalidInput(f"unknown skill {code!r} in {where!r}; one of: {', '.join(SKILLS)}")
        out.append(code)
    return tuple(out)


def _die_from_match(match: re.Match[str], text: str) -> Die:
    skills = parse_skills(match["skills"], text) if match["skills"] is not None else ()
    flags = match["flags"]
    sides: tuple[int, ...] | None
    value: int | None
    if match["bare"] is not None:
        sides, value = None, read_number(match["bare"], text)
    else:
        raw = match["sides"]
        value = read_number(match["value"], text) if match["value"] is not None else None
        if raw == "?":
            sides = None
        elif raw.startswith("("):
            sides = tuple(read_number(p, text) for p in raw.strip("()").split(","))
        else:
            sides = (read_number(raw, text),)
    if "GE" in skills:
        if sides is None or len(sides) != 2:
            raise InvalidInput(f"GE needs a twin size like d(10,10), in {text!r}")
        skills = tuple(s for s in skills if s != "GE")
    try:
        return Die(sides, value, skills, has_captured="*" in flags, focus_reduced="!" in flags)
    except InvalidInput as error:
        raise InvalidInput(f"{error} (in {text!r})") from None


# ------------------------------------------------------------------------------------------ position


MAX_NAME: Final = 40
NAME_FORBIDDEN: Final = frozenset(":|>{};")
"""Characters the position notation uses to split a side: ``> Name: dice {captured} | ... ; passes 1``."""


@dataclass(frozen=True)
class Player:
    """One side of the table: a name, the dice in play and the dice captured from the opponent."""

    name: str
    dice: tuple[Die, ...]
    captured: tuple[Die, ...] = ()

    def __post_init__(self) -> None:
        name = self.name.strip()
        odd = any(c in NAME_FORBIDDEN or not c.isprintable() for c in name)
        if not name or len(name) > MAX_NAME or odd:
            raise InvalidInput(f"bad player name {self.name[:MAX_NAME + 10]!r}: 1..{MAX_NAME} printable "
                               "characters, none of : | > { } ; (the notation's separators)")
        if name != self.name:
            object.__setattr__(self, "name", name)
        for count, what in ((len(self.dice), "dice in play"), (len(self.captured), "captured dice")):
            if count > MAX_DICE:
                raise InvalidInput(f"{name} has {count} {what}; at most {MAX_DICE} are supported "
                                   "(the largest roster button has 6)")
        for die in self.dice:
            if die.value is None:
                raise InvalidInput(f"{name}'s die {die.format()} in play has no value")
        for die in self.captured:
            if die.focus_reduced:
                raise InvalidInput(f"{name}'s captured die {die.format()} is marked focus_reduced: "
                                   "only dice in play are barred by focus")


@dataclass(frozen=True)
class Position:
    """The table between two turns of a round."""

    players: tuple[Player, Player]
    to_move: int = 0
    passes: int = 0
    """Consecutive passes just made (2: the round is over)."""

    def __post_init__(self) -> None:
        if len(self.players) != 2:
            raise InvalidInput(f"Button Goblin is for two players, not {len(self.players)}")
        if self.to_move not in (0, 1):
            raise InvalidInput(f"to_move must be 0 or 1, not {self.to_move!r}")
        if self.passes not in (0, 1, 2):
            raise InvalidInput(f"passes must be 0, 1 or 2, not {self.passes!r}")

    @property
    def mover(self) -> Player:
        return self.players[self.to_move]

    @property
    def opponent(self) -> Player:
        return self.players[1 - self.to_move]

    @property
    def legal(self) -> LegalAttacks:
        """The attacks the player to move may make (a lazy view)."""
        return LegalAttacks(self)

    def format(self) -> str:
        """The position in notation; ``Position.parse(p.format()) == p``."""
        sides = []
        for index, player in enumerate(self.players):
            text = ("> " if index == self.to_move else "") + player.name + ":"
            if player.dice:
                text += " " + " ".join(d.format() for d in player.dice)
            if player.captured:
                text += " {" + " ".join(d.format() for d in player.captured) + "}"
            sides.append(text)
        out = " | ".join(sides)
        if self.passes:
            out += f" ; passes {self.passes}"
        return out

    @classmethod
    def parse(cls, text: str) -> Position:
        """A position from notation (see the module docstring); errors quote the bad part."""
        body, _, meta = text.partition(";")
        passes = 0
        if meta.strip():
            m = re.fullmatch(r"\s*passes\s+(\d)\s*", meta)
            if m is None:
                raise InvalidInput(f"bad position suffix {meta.strip()!r}; write e.g. '; passes 1'")
            passes = int(m[1])
        parts = body.split("|")
        if len(parts) != 2:
            raise InvalidInput(f"a position has two sides split by '|', got {len(parts)} in {text.strip()!r}")
        players = []
        marked = []
        for index, part in enumerate(parts):
            player, mark = _parse_side(part)
            players.append(player)
            if mark:
                marked.append(index)
        if len(marked) > 1:
            raise InvalidInput(f"only one player can be marked '>' to move, in {text.strip()!r}")
        pair = (players[0], players[1])
        if marked:
            return cls(pair, marked[0], passes)
        winner = initiative(cls(pair, 0, passes)).player
        return cls(pair, winner if winner is not None else 0, passes)

    def __repr__(self) -> str:
        return f"Position.parse({self.format()!r})"

    def __str__(self) -> str:
        return self.format()


def _parse_side(part: str) -> tuple[Player, bool]:
    text = part.strip()
    mark = text.startswith(">")
    if mark:
        text = text[1:].strip()
    name, colon, rest = text.partition(":")
    if not colon:
        raise InvalidInput(f"a side is 'Name: dice...', missing ':' in {part.strip()!r}")
    rest, captured_text = _split_captured(rest, part)
    dice = _parse_dice(rest)
    captured = _parse_dice(captured_text) if captured_text is not None else ()
    return Player(name, dice, captured), mark


def _split_captured(rest: str, part: str) -> tuple[str, str | None]:
    if "{" not in rest and "}" not in rest:
        return rest, None
    m = re.fullmatch(r"([^{}]*)\{([^{}]*)\}\s*", rest)
    if m is None:
        raise InvalidInput(f"captured dice go in one {{...}} at the end of a side, in {part.strip()!r}")
    return m[1], m[2]


def _parse_dice(text: str) -> tuple[Die, ...]:
    dice = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
            continue
        match = _DIE_RE.match(text, pos)
        end = match.end() if match else pos
        if match is None or (end < len(text) and not text[end].isspace()):
            token = text[pos:].split()[0]
            raise InvalidInput(f"bad die {token!r}; write e.g. 5, d8=5, d(10,10)=14 or d12=7[FU]")
        dice.append(_die_from_match(match, match[0]))
        pos = end
    return tuple(dice)


# ---------------------------------------------------------------------------------------- initiative


#: Why a player has the initiative, in English (what the command line prints), by the key the page
#: translates (``web/i18n/{it,en}.json``).
MESSAGES: Final[Mapping[str, str]] = {
    "bg.why.lowest": "{name} has the lowest die, {low} against {high}",
    "bg.why.lowest_tied": "{name} has the lowest die, {low} against {high} (tied {cancelled} cancelled)",
    "bg.why.more_dice": "all comparable dice tie; {name} has more dice",
    "bg.why.all_equal": "all dice are equal: the round is re-rolled",
    "bg.why.took_focus": "{name} took initiative with focus: {reason}",
    "bg.why.kept_focus": "{name} kept initiative with focus: {reason}",
}


say = speaker(MESSAGES)
"""The message ``key`` of :data:`MESSAGES` with its parameters."""


#: The rules' refusals (an illegal attack, pass or focus move), in English (what the command line prints),
#: by the key the page translates. They live in the game's own words
#: (``web/static/games/button-goblin.{it,en}.json``), which the page fetches with the game's view.
REFUSALS: Final[Mapping[str, str]] = {
    "bg.illegal.attack": "illegal {kind} attack: {reason}",
    "bg.illegal.round_over": "the round is over: both players passed",
    "bg.illegal.no_die": "{name} has no die {index}",
    "bg.illegal.sits_out": "die {index} ({die}) was turned down by focus and sits out this first attack",
    "bg.illegal.fire_kind": "fire helps only power and skill attacks, not {kind}",
    "bg.illegal.no_fire_die": "{name} has no fire die {index}",
    "bg.illegal.not_fire": "die {index} ({die}) is not a fire die",
    "bg.illegal.fire_attacks": "fire die {index} attacks: a fire die helps other dice",
    "bg.illegal.fire_sits_out": "fire die {index} was turned down by focus and sits out this first attack",
    "bg.illegal.fire_range": "fire die {index} ({die}) can go down to {low}..{high}, not {value}",
    "bg.illegal.room": "the attackers can be raised by {room} at most, not {points}",
    "bg.illegal.one_attacker": "a {kind} attack uses one die",
    "bg.illegal.one_target": "a {kind} attack captures one die",
    "bg.illegal.no_power": "a {label} die cannot make a power attack",
    "bg.illegal.less": "{value} is less than {total}",
    "bg.illegal.berserk_skill": "berserk die {index} never joins a skill attack",
    "bg.illegal.attackers_sum": "the attackers sum to {total}, not {target}",
    "bg.illegal.needs_skill": "a {kind} attack needs a {skill} ({code}) die",
    "bg.illegal.targets_sum": "the targets sum to {total}, not {value}",
    "bg.illegal.target_range": "the target must show {low}..{high}, not {total}",
    "bg.illegal.fire_points": "the fire dice cannot give {points} points",
    "bg.illegal.must_attack": "{name} can attack ({example}) and may not pass",
    "bg.illegal.focus_all_equal":
        "all dice are equal: nobody has initiative and the round is re-rolled, no focus",
    "bg.illegal.focus_holder": "{name} already has initiative: only the player without it may use focus",
    "bg.illegal.focus_none": "a focus move turns at least one focus die down",
    "bg.illegal.not_focus": "die {index} ({die}) is not a focus die",
    "bg.illegal.focus_range": "focus die {index} ({die}) can go down to {low}..{high}, not {value}",
    "bg.illegal.focus_loses": "focus may be used only to win initiative, and {values} does not",
    # the table's own refusals (companion.button_goblin.flow)
    "bg.illegal.match_over": "the match is over",
    "bg.illegal.no_advice": "there is no attack to advise now: the table is at {phase}",
    "bg.illegal.not_now": "a {action} action does not fit now: the table is at {phase}",
    "bg.illegal.nothing_to_read": "no dice are to be read now: the table is at {phase}",
    "bg.illegal.focus_player": "it is {name} who may use focus now",
    "bg.input.missing": "missing a value for {slots}",
    "bg.input.slot_range": "{die} ({slot}) shows {low}..{high}, not {value}",
    "bg.input.swing_range": "swing {letter} must be {low}..{high} sides, not {value}",
}


refuse = speaker(REFUSALS)
"""The refusal ``key`` of :data:`REFUSALS` with its parameters."""


def kind_word(kind: str) -> Message:
    """An attack type (``power``...) or a skill's name (``fire``...), which the page names in its language."""
    return word("bg.word", kind)


@dataclass(frozen=True)
class Initiative:
    """Who moves first: ``player`` is None when every die ties and the round is re-rolled."""

    player: int | None
    reason: Message


def initiative(position: Position) -> Initiative:
    """The initiative of a freshly rolled round: the lowest single die, ties cancelling pairwise."""
    a, b = (sorted(d.value for d in p.dice if d.value is not None) for p in position.players)
    names = [p.name for p in position.players]
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            winner = 0 if x < y else 1
            cancelled = a[:index]
            low, high = (x, y) if winner == 0 else (y, x)
            if cancelled:
                return Initiative(winner, say("bg.why.lowest_tied", name=names[winner], low=low, high=high,
                                              cancelled=" ".join(map(str, cancelled))))
            return Initiative(winner, say("bg.why.lowest", name=names[winner], low=low, high=high))
    if len(a) != len(b):
        winner = 0 if len(a) > len(b) else 1
        return Initiative(winner, say("bg.why.more_dice", name=names[winner]))
    return Initiative(None, say("bg.why.all_equal"))


# ------------------------------------------------------------------------------------------- attacks


@dataclass(frozen=True)
class Attack:
    """An attack by the player to move: dice indices into the mover's and the opponent's dice.

    ``fire`` lists ``(fire die index, value it is turned down to)`` for power and skill attacks.
    """

    kind: AttackKind
    attackers: tuple[int, ...]
    targets: tuple[int, ...]
    fire: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in ATTACK_KINDS:
            raise InvalidInput(f"unknown attack type {self.kind!r}; one of: {', '.join(ATTACK_KINDS)}")
        for name, seq in (("attackers", self.attackers), ("targets", self.targets)):
            if not seq:
                raise InvalidInput(f"an attack needs {name}")
            if len(set(seq)) != len(seq):
                raise InvalidInput(f"{name} repeat a die: {list(seq)}")
        if len({d for d, _ in self.fire}) != len(self.fire):
            raise InvalidInput(f"fire lowers a die twice: {[list(f) for f in self.fire]}")
        object.__setattr__(self, "attackers", tuple(sorted(self.attackers)))
        object.__setattr__(self, "targets", tuple(sorted(self.targets)))
        object.__setattr__(self, "fire", tuple(sorted(self.fire)))

    @property
    def key(self) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
        """The attack without its fire: what the analysis lists once."""
        return (self.kind, self.attackers, self.targets)

    def fire_points(self, position: Position) -> int:
        """Total points the fire dice are turned down by, in ``position``."""
        dice = position.mover.dice
        return sum((dice[i].value or 0) - to for i, to in self.fire if 0 <= i < len(dice))


Pass = Literal["pass"]
PASS: Final[Pass] = "pass"
Action = Attack | Pass


def _fire_sources(dice: Sequence[Die], exclude: Sequence[int]) -> list[tuple[int, int]]:
    """(index, points it can give) of the mover's fire dice that may be turned down."""
    out = []
    for i, d in enumerate(dice):
        if d.has("FU") and not d.focus_reduced and i not in exclude and d.value is not None:
            spare = d.value - d.low
            if spare > 0:
                out.append((i, spare))
    return out


def canonical_fire(dice: Sequence[Die], exclude: Sequence[int], points: int) -> tuple[tuple[int, int], ...]:
    """Turn fire dice down by ``points`` in total, the earliest dice first."""
    out = []
    left = points
    for i, spare in _fire_sources(dice, exclude):
        if left <= 0:
            break
        take = min(spare, left)
        out.append((i, (dice[i].value or 0) - take))
        left -= take
    if left > 0:
        raise IllegalAction(refuse("bg.illegal.fire_points", points=points))
    return tuple(out)


def _room(die: Die) -> int | None:
    return None if die.high is None or die.value is None else die.high - die.value


def _can_power(d: Die) -> bool:
    return not (d.has("FU") or d.has("OM") or d.has("DS"))


@dataclass(frozen=True)
class _Subset:
    members: tuple[int, ...]
    total: int
    room: int | None
    fire_inside: int


def _subsets(items: Sequence[tuple[int, int, int | None, int]]) -> list[_Subset]:
    """Every non-empty subset of (index, value, room, fire spare) items, with sums."""
    out: list[_Subset] = [_Subset((), 0, 0, 0)]
    for index, value, room, spare in items:
        more = []
        for s in out:
            r = None if s.room is None or room is None else s.room + room
            more.append(_Subset((*s.members, index), s.total + value, r, s.fire_inside + spare))
        out.extend(more)
    return out[1:]


def _target_subsets(dice: Sequence[Die]) -> dict[int, list[tuple[int, ...]]]:
    by_sum: dict[int, list[tuple[int, ...]]] = {}
    for s in _subsets([(i, d.value or 0, 0, 0) for i, d in enumerate(dice)]):
        by_sum.setdefault(s.total, []).append(s.members)
    return by_sum


def generate_attacks(position: Position) -> Iterator[Attack]:
    """Every distinct (type, attackers, targets) the mover may play, each with its least fire."""
    if position.passes >= 2:
        return
    mine = position.mover.dice
    theirs = position.opponent.dice
    if not mine or not theirs:
        return
    free = [i for i, d in enumerate(mine) if not d.focus_reduced]
    sources = _fire_sources(mine, ())
    fire_total = sum(spare for _, spare in sources)
    spare_of = dict(sources)
    targets_by_value: dict[int, list[int]] = {}
    for j, t in enumerate(theirs):
        targets_by_value.setdefault(t.value or 0, []).append(j)
    values_sorted = sorted(targets_by_value)

    for i in free:
        d = mine[i]
        v = d.value or 0
        if not _can_power(d):
            continue
        room = _room(d)
        reach = v + min(fire_total, room) if room is not None else v + fire_total
        for j, t in enumerate(theirs):
            tv = t.value or 0
            if tv <= v:
                yield Attack("power", (i,), (j,))
            elif tv <= reach:
                yield Attack("power", (i,), (j,), canonical_fire(mine, (i,), tv - v))

    skill_items = [(i, mine[i].value or 0, _room(mine[i]), spare_of.get(i, 0)) for i in free
                   if not mine[i].has("FG")]
    for s in _subsets(skill_items):
        extra = fire_total - s.fire_inside
        if s.room is not None:
            extra = min(extra, s.room)
        for tv in values_sorted:
            if tv < s.total:
                continue
            if tv > s.total + extra:
                break
            fire = canonical_fire(mine, s.members, tv - s.total) if tv > s.total else ()
            for j in targets_by_value[tv]:
                yield Attack("skill", s.members, (j,), fire)

    by_sum: dict[int, list[tuple[int, ...]]] | None = None
    for i in free:
        d = mine[i]
        v = d.value or 0
        for skill, kind in (("VA", "speed"), ("FG", "berserk")):
            if d.has(skill):
                if by_sum is None:
                    by_sum = _target_subsets(theirs)
                for group in by_sum.get(v, ()):
                    yield Attack(kind, (i,), group)  # type: ignore[arg-type]
        for skill, kind in (("OM", "shadow"), ("DS", "disintegration")):
            if d.has(skill):
                top = d.high
                for j, t in enumerate(theirs):
                    tv = t.value or 0
                    if tv >= v and (top is None or tv <= top):
                        yield Attack(kind, (i,), (j,))  # type: ignore[arg-type]


def illegal_reason(position: Position, attack: Attack) -> Message | None:
    """Why ``attack`` is illegal in ``position``, or None if it is legal."""
    if position.passes >= 2:
        return refuse("bg.illegal.round_over")
    mine, theirs = position.mover.dice, position.opponent.dice
    for i in attack.attackers:
        if not 0 <= i < len(mine):
            return refuse("bg.illegal.no_die", name=position.mover.name, index=i)
        if mine[i].focus_reduced:
            return refuse("bg.illegal.sits_out", index=i, die=mine[i].format())
    for j in attack.targets:
        if not 0 <= j < len(theirs):
            return refuse("bg.illegal.no_die", name=position.opponent.name, index=j)
    attackers = [mine[i] for i in attack.attackers]
    targets = [theirs[j] for j in attack.targets]
    first = attackers[0]
    v = first.value or 0
    target_sum = sum(t.value or 0 for t in targets)
    kind = attack.kind
    if attack.fire and kind not in FIRE_KINDS:
        return refuse("bg.illegal.fire_kind", kind=kind_word(kind))
    points = 0
    for i, to in attack.fire:
        if not 0 <= i < len(mine):
            return refuse("bg.illegal.no_fire_die", name=position.mover.name, index=i)
        die = mine[i]
        if not die.has("FU"):
            return refuse("bg.illegal.not_fire", index=i, die=die.format())
        if i in attack.attackers:
            return refuse("bg.illegal.fire_attacks", index=i)
        if die.focus_reduced:
            return refuse("bg.illegal.fire_sits_out", index=i)
        if not die.low <= to < (die.value or 0):
            return refuse("bg.illegal.fire_range", index=i, die=die.format(), low=die.low,
                          high=(die.value or 0) - 1, value=to)
        points += (die.value or 0) - to
    rooms = [_room(d) for d in attackers]
    room = None if any(r is None for r in rooms) else sum(r for r in rooms if r is not None)
    if room is not None and points > room:
        return refuse("bg.illegal.room", room=room, points=points)
    single = len(attack.attackers) == 1
    if kind in ("power", "speed", "berserk", "shadow", "disintegration") and not single:
        return refuse("bg.illegal.one_attacker", kind=kind_word(kind))
    if kind in ("power", "skill", "shadow", "disintegration") and len(targets) != 1:
        return refuse("bg.illegal.one_target", kind=kind_word(kind))
    if kind == "power":
        if not _can_power(first):
            return refuse("bg.illegal.no_power", label=first.label)
        if v + points < target_sum:
            return refuse("bg.illegal.less", value=f"{v}{f'+{points}' if points else ''}", total=target_sum)
    elif kind == "skill":
        berserk = [i for i in attack.attackers if mine[i].has("FG")]
        if berserk:
            return refuse("bg.illegal.berserk_skill", index=berserk[0])
        total = sum(d.value or 0 for d in attackers) + points
        if total != target_sum:
            return refuse("bg.illegal.attackers_sum", total=total, target=target_sum)
    elif kind in ("speed", "berserk"):
        code = "VA" if kind == "speed" else "FG"
        if not first.has(code):
            return refuse("bg.illegal.needs_skill", kind=kind_word(kind), skill=kind_word(SKILL_NAMES[code]),
                          code=code)
        if v != target_sum:
            return refuse("bg.illegal.targets_sum", total=target_sum, value=v)
    else:
        code = "OM" if kind == "shadow" else "DS"
        if not first.has(code):
            return refuse("bg.illegal.needs_skill", kind=kind_word(kind), skill=kind_word(SKILL_NAMES[code]),
                          code=code)
        if not v <= target_sum <= (first.high if first.high is not None else target_sum):
            return refuse("bg.illegal.target_range", low=v, high=first.high, total=target_sum)
    return None


@dataclass(frozen=True)
class LegalAttacks:
    """The legal attacks of a position, generated lazily: ``for a in legal``, ``a in legal``."""

    position: Position = field(repr=False)

    def __iter__(self) -> Iterator[Attack]:
        return generate_attacks(self.position)

    def __contains__(self, attack: object) -> bool:
        return isinstance(attack, Attack) and illegal_reason(self.position, attack) is None

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"<LegalAttacks at {self.position.format()!r} ({self.count()})>"


# --------------------------------------------------------------------------------------------- apply


def apply(position: Position, action: Action) -> Position:
    """The position after the mover's attack or pass; raises ``IllegalAction`` if not allowed.

    The attacking dice keep their old values: ``rerolls`` names them, ``with_values`` sets them. No
    focus bar survives a turn, on either side: it covers only the initiative winner's first turn.
    """
    mover = position.mover
    cleared = tuple(replace(d, focus_reduced=False) if d.focus_reduced else d for d in mover.dice)
    if action == PASS:
        if position.passes >= 2:
            raise IllegalAction(refuse("bg.illegal.round_over"))
        example = next(iter(position.legal), None)
        if example is not None:
            raise IllegalAction(refuse("bg.illegal.must_attack", name=mover.name,
                                       example=describe(position, example)))
        players = _replace_player(position, position.to_move, replace(mover, dice=cleared))
        return clear_focus(Position(players, 1 - position.to_move, position.passes + 1), 1 - position.to_move)
    if not isinstance(action, Attack):
        raise InvalidInput(f"not an action: {action!r}")
    reason = illegal_reason(position, action)
    if reason is not None:
        raise IllegalAction(refuse("bg.illegal.attack", kind=kind_word(action.kind), reason=reason))
    dice = list(cleared)
    for i, to in action.fire:
        dice[i] = replace(dice[i], value=to)
    nulled = any(mover.dice[i].has("NU") for i in action.attackers) or any(
        mover.dice[i].has("NU") for i, _ in action.fire
    )
    for i in action.attackers:
        d = dice[i]
        if action.kind == "berserk":
            size = half_up(d.size or 0)
            d = replace(d, sides=(size,), skills=tuple(s for s in d.skills if s != "FG"),
                        value=min(d.value or 0, size))
        if d.has("DS"):
            d = replace(d, has_captured=True)
        dice[i] = d
    opponent = position.opponent
    taken = []
    for j in action.targets:
        t = replace(opponent.dice[j], focus_reduced=False, has_captured=False)
        if nulled and not t.has("NU"):
            t = replace(t, skills=(*t.skills, "NU"))
        taken.append(t)
    kept = tuple(d for j, d in enumerate(opponent.dice) if j not in action.targets)
    new_mover = Player(mover.name, tuple(dice), mover.captured + tuple(taken))
    players = _replace_player(position, position.to_move, new_mover)
    players = _replace_player(Position(players, position.to_move), 1 - position.to_move,
                              replace(opponent, dice=kept))
    return clear_focus(Position(players, 1 - position.to_move, 0), 1 - position.to_move)


def rerolls(action: Action) -> tuple[int, ...]:
    """Indices of the attacker's dice to re-roll after ``action`` (the same in the new position)."""
    return action.attackers if isinstance(action, Attack) else ()


def with_values(position: Position, player: int, values: Mapping[int, int]) -> Position:
    """The position with some dice of ``player`` showing new (re-rolled or read) values."""
    p = position.players[player]
    dice = list(p.dice)
    for i, v in values.items():
        if not 0 <= i < len(dice):
            raise InvalidInput(f"{p.name} has no die {i}")
        dice[i] = replace(dice[i], value=v)
    return Position(_replace_player(position, player, replace(p, dice=tuple(dice))),
                    position.to_move, position.passes)


def _replace_player(position: Position, index: int, player: Player) -> tuple[Player, Player]:
    a, b = position.players
    return (player, b) if index == 0 else (a, player)


def describe(position: Position, attack: Attack) -> str:
    """An English sentence for an attack: ``Power: your d12 (9) takes their d8 (7)``."""
    mine, theirs = position.mover.dice, position.opponent.dice

    def show(dice: Sequence[Die], i: int) -> str:
        name = dice[i].size_text()
        # number the die when the player has another of the same size, so the players can tell which
        if sum(1 for d in dice if d.size_text() == name) > 1:
            name += f" #{i + 1}"
        return f"{name} ({dice[i].value})"

    who = " + ".join(show(mine, i) for i in attack.attackers)
    what = " + ".join(show(theirs, j) for j in attack.targets)
    text = f"{attack.kind.capitalize()}: your {who} takes their {what}"
    if attack.fire:
        lowered = ", ".join(f"{mine[i].size_text()} {mine[i].value}->{to}" for i, to in attack.fire)
        text += f", turning fire down by {attack.fire_points(position)} ({lowered})"
    return text


# -------------------------------------------------------------------------------------------- scores


def kept_points(die: Die) -> int | None:
    """What a die still in play is worth to its owner at the end of the round."""
    if die.size is None:
        return None
    if die.has("NU"):
        return 0
    if die.has("VO"):
        return -die.size
    if die.has("DS") and not die.has_captured:
        return 0
    return half_up(die.size)


def captured_points(die: Die) -> int | None:
    """What a captured die is worth to its captor (NU: captured by, or as, a null die)."""
    if die.size is None:
        return None
    if die.has("NU"):
        return 0
    if die.has("VO"):
        return -half_up(die.size)
    return die.size


def scores(position: Position) -> tuple[int, int] | None:
    """Each player's points if the round ended now; None when some size is unknown."""
    out = []
    for p in position.players:
        parts = [kept_points(d) for d in p.dice] + [captured_points(d) for d in p.captured]
        if any(x is None for x in parts):
            return None
        out.append(sum(x for x in parts if x is not None))
    return (out[0], out[1])


@dataclass(frozen=True)
class RoundOutcome:
    """How a finished round ended: ``winner`` is None for a tie (the round is replayed)."""

    scores: tuple[int, int]
    winner: int | None


def round_outcome(position: Position) -> RoundOutcome | None:
    """The outcome once both players have passed, else None."""
    if position.passes < 2:
        return None
    points = scores(position)
    if points is None:
        raise InvalidInput("the round cannot be scored: some die sizes are unknown")
    winner = None if points[0] == points[1] else (0 if points[0] > points[1] else 1)
    return RoundOutcome(points, winner)


ROUNDS_TO_WIN: Final = 3


@dataclass(frozen=True)
class MatchOutcome:
    """The match result: the first player to win three rounds."""

    winner: int
    rounds: tuple[int, int]


def match_outcome(rounds_won: tuple[int, int]) -> MatchOutcome | None:
    for player in (0, 1):
        if rounds_won[player] >= ROUNDS_TO_WIN:
            return MatchOutcome(player, rounds_won)
    return None


# --------------------------------------------------------------------------------------------- focus


def focus_dice(position: Position, player: int) -> list[int]:
    """Indices of the player's focus dice that can still be turned down."""
    return [i for i, d in enumerate(position.players[player].dice)
            if d.has("FO") and d.value is not None and d.value > d.low]


def focus_reduce(position: Position, player: int, values: Mapping[int, int]) -> Position:
    """The position after ``player``, who is without initiative, turns focus dice down to ``values``,
    which must win it."""
    p = position.players[player]
    holder = initiative(position).player
    if holder is None:
        raise IllegalAction(refuse("bg.illegal.focus_all_equal"))
    if holder == player:
        raise IllegalAction(refuse("bg.illegal.focus_holder", name=p.name))
    if not values:
        raise IllegalAction(refuse("bg.illegal.focus_none"))
    dice = list(p.dice)
    for i, v in values.items():
        if not 0 <= i < len(dice):
            raise IllegalAction(refuse("bg.illegal.no_die", name=p.name, index=i))
        d = dice[i]
        if not d.has("FO"):
            raise IllegalAction(refuse("bg.illegal.not_focus", index=i, die=d.format()))
        if not d.low <= v < (d.value or 0):
            raise IllegalAction(refuse("bg.illegal.focus_range", index=i, die=d.format(), low=d.low,
                                       high=(d.value or 0) - 1, value=v))
        dice[i] = replace(d, value=v, focus_reduced=True)
    after = Position(_replace_player(position, player, replace(p, dice=tuple(dice))), player)
    if initiative(after).player != player:
        raise IllegalAction(refuse("bg.illegal.focus_loses", values=str(dict(values))))
    return after


def focus_options(position: Position, player: int) -> list[dict[int, int]]:
    """Sensible winning focus moves: each die alone at each winning value, and subsets all at minimum.

    Empty unless ``player`` is without initiative: only that player may turn focus dice down."""
    if initiative(position).player != 1 - player:
        return []
    dice = position.players[player].dice
    idx = focus_dice(position, player)
    out: list[dict[int, int]] = []
    for i in idx:
        d = dice[i]
        for v in range((d.value or 0) - 1, d.low - 1, -1):
            try:
                focus_reduce(position, player, {i: v})
            except IllegalAction:
                continue
            out.append({i: v})
    for mask in range(1, 1 << len(idx)):
        chosen = [idx[k] for k in range(len(idx)) if mask >> k & 1]
        if len(chosen) < 2:
            continue
        move = {i: dice[i].low for i in chosen}
        try:
            focus_reduce(position, player, move)
        except IllegalAction:
            continue
        out.append(move)
    return out


def clear_focus(position: Position, player: int) -> Position:
    """Lift the focus bar from ``player``'s dice (the player who lost initiative keeps no bar)."""
    p = position.players[player]
    dice = tuple(replace(d, focus_reduced=False) if d.focus_reduced else d for d in p.dice)
    players = _replace_player(position, player, replace(p, dice=dice))
    return Position(players, position.to_move, position.passes)
