"""The skirmish rules (regolamento schermaglie), the rules core.

Two bands of models play cards in turn (Tiro 2, Tiro 3, Assalto 2, Assalto 3, Speciale). Measurements
on the table (distances, who is engaged, cover) are facts the players state in the events; every die
is an input (``Roll``), never rolled here. Deaths trigger morale and rout tests by themselves.

``Game`` is frozen; ``apply(game, event)`` returns the next game or raises ``InvalidInput`` /
``IllegalAction``; ``game.pending`` is the queue of rolls and decisions the table owes, head first; the
end is a value, ``game.outcome``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import product
from typing import Any, Literal, get_args

from companion.errors import IllegalAction, InvalidInput
from companion.jsonvalues import json_bool
from companion.jsonvalues import json_object as _obj
from companion.messages import Message, speaker, word
from companion.rules import applies
from companion.skirmish.checks import Check, Modifier

JSON = Any

Card = Literal["tiro2", "tiro3", "assalto2", "assalto3", "speciale"]
CARDS: tuple[Card, ...] = get_args(Card)
CARD_NAMES: dict[str, str] = {
    "tiro2": "Tiro 2",
    "tiro3": "Tiro 3",
    "assalto2": "Assalto 2",
    "assalto3": "Assalto 3",
    "speciale": "Speciale",
}
ABILITIES = ("possente", "cavalleria", "ignora_terreno", "mago", "capitano")
Status = Literal["ok", "dead", "fled"]
STATUSES: tuple[str, ...] = get_args(Status)
Stage = Literal["deploy", "first", "choose_first", "play", "card", "over"]
STAGES: tuple[str, ...] = get_args(Stage)
PendingKind = Literal[
    "deploy", "first", "charge", "tiro", "assalto", "salvezza", "morale", "rout", "flee", "near", "off_table"
]
PENDING_KINDS: tuple[str, ...] = get_args(PendingKind)

RANGE_CM = 30.0
"""Every shooting weapon reaches 30 cm (30 included)."""
MAX_MOVE_TO_SHOOT_CM = 8.0
"""A model that moved more than 8 cm cannot shoot (8 allowed)."""
MORALE_RADIUS_CM = 5.0
"""A friend killed within 5 cm (5 included) calls a morale test."""
MORALE_TARGET = 4
ROUT_TARGET = 8
MAX_HERO_LEVEL = 4


def _int(value: JSON, what: str, low: int | None = 0, *, event: str | None = None) -> int:
    """``value`` as an integer; ``what`` names it, or names the field of an ``event`` when one is given."""
    named = what if event is None else f"event {event!r} {what}"
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(
            Message("error.input.int", f"{named} must be an integer, got {value!r}",
                    {"what": word("error.what", what), "value": repr(value)}) if event is None else
            Message("error.input.event_int", f"{named} must be an integer, got {value!r}",
                    {"event": event, "field": word("field", what), "value": repr(value)}))
    if low is not None and value < low:
        said = word("error.what", what) if event is None else word("field", what)
        raise InvalidInput(Message("error.input.at_least", f"{named} must be at least {low}, got {value!r}",
                                   {"what": said, "low": low, "value": repr(value)}))
    return value


def _num(value: JSON, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise InvalidInput(f"{what} must be a non-negative number of cm, got {value!r}")
    return float(value)


def _bool(obj: Mapping[str, JSON], key: str, what: str, default: bool = False) -> bool:
    return json_bool(obj.get(key, default), f"{what}: {key!r}")


def _ints(value: JSON, what: str, *, event: str | None = None) -> tuple[int, ...]:
    if not isinstance(value, list):
        named = what if event is None else f"event {event!r} {what}"
        raise InvalidInput(f"{named} must be a list of integers, got {value!r}")
    return tuple(_int(v, what, event=event) for v in value)


MESSAGES: Mapping[str, str] = {
    # who rolls and why (a test's label)
    "skirmish.check.shoot": "{shooters} shoots at {target} (Tiro of {best})",
    "skirmish.check.shoot_many": "{shooters} shoot at {target} (Tiro of {best})",
    "skirmish.check.assault": "{attacker} assaults {target}",
    "skirmish.check.charge": "{model} charges {distance} cm ({dice}d6)",
    "skirmish.check.save": "{model} saves",
    "skirmish.check.morale": "{model}: morale ({why})",
    "skirmish.check.rout": "{band}: rout test ({why})",
    "skirmish.check.deploy": "deployment roll: one die each",
    "skirmish.check.first": "first-card roll: one die each",
    "skirmish.check.strikes": "{enemy} strikes {model} leaving the combat",
    # why a morale or rout test is taken
    "skirmish.why.captain_dead": "the captain is dead",
    "skirmish.why.captain_fled": "the captain fled",
    "skirmish.why.below_half": "{left} of {start} left, below half",
    "skirmish.why.near_death": "{model} died within 5 cm",
    # the log
    "skirmish.log.first_card": "{band} plays the first card",
    "skirmish.log.play_card": "{band} plays {card}: move the band, then act",
    "skirmish.log.killed": "{model} is killed",
    "skirmish.log.disengage": "{model} leaves the combat: {n} assault test(s) against it",
    "skirmish.log.heroism": " +{spent} heroism ({model} has {left} left)",
    "skirmish.log.flees": "{model} flees {cm} cm toward its own table edge{heroism}",
    "skirmish.log.success": "{check}: rolled {dice}{heroism} = {total}, needs {needs}: success",
    "skirmish.log.failure": "{check}: rolled {dice}{heroism} = {total}, needs {needs}: failure",
    "skirmish.log.charge_short": "the charge falls short: no contact, no assault",
    "skirmish.log.contact": "contact!",
    "skirmish.log.hit": "hit!",
    "skirmish.log.flees_combat": "{model} flees 3d6 cm toward its own edge (no free assault on it)",
    "skirmish.log.holds": "{band} holds",
    "skirmish.log.routed": "{band} flees the field: {winner} wins",
    "skirmish.log.roll_again": "both rolled {value}: roll again",
    "skirmish.log.deploys_first": "{band} rolled lowest: picks a side and deploys first",
    "skirmish.log.roll_first": "after deployment, roll again for the first card",
    "skirmish.log.chooses_first": "{band} rolled highest: chooses who plays the first card",
    "skirmish.log.dies": "{model} dies ({points} points to {band})",
    "skirmish.log.which_near": "which friends of {model} were within 5 cm?",
    "skirmish.log.rout_test": "{band} must take a rout test: {why}",
    "skirmish.log.stays": "{model} stays on the table",
    "skirmish.log.leaves": "{model} leaves the table: no points for the enemy",
    "skirmish.log.end_card": "{band} ends {card}",
    "skirmish.log.cycle": "{band} has played all five cards: turn {turn} is over, the cards come back",
    "skirmish.log.end_draw": "the game ends ({why}): {p0} to {p1} VP, a draw",
    "skirmish.log.end_win": "the game ends ({why}): {p0} to {p1} VP, {band} wins",
    "skirmish.end.points": "points",
    "skirmish.end.time": "time",
    "skirmish.end.annihilation": "annihilation",
    # refusals (IllegalAction)
    "skirmish.error.tiro_card": "shooting needs a Tiro card, the card in play is {card}",
    "skirmish.error.shooters": "{card} lets 1 to {most} models shoot, got {n}",
    "skirmish.error.shooter_twice": "a model is named twice among the shooters",
    "skirmish.error.into_combat": "{model} is engaged in a combat: no shooting into a combat",
    "skirmish.error.no_model": "{band} has no model {model}",
    "skirmish.error.status.dead": "{model} is dead",
    "skirmish.error.status.fled": "{model} is fled",
    "skirmish.error.status.ok": "{model} is ok",
    "skirmish.error.no_tiro": "{model} has no Tiro characteristic",
    "skirmish.error.out_of_combat": "{model} is engaged in a combat: no shooting out of a combat",
    "skirmish.error.range": "{model} is {distance} cm away; the range is {range} cm",
    "skirmish.error.moved": "{model} moved {moved} cm; no shooting after more than 8 cm",
    "skirmish.error.nearest": "{target} is not {model}'s nearest enemy, and a nearer one is "
    "neither in cover nor engaged",
    "skirmish.error.model_range": "{band} has no model {model} (0..{last})",
    "skirmish.error.over": "the game is over; {event} cannot be played",
    "skirmish.error.clock_back": "the clock cannot go back from {elapsed} s to {to} s",
    "skirmish.error.roll_awaited": "a {kind} roll is awaited, not {event}",
    "skirmish.error.answer_awaited": "a {kind} answer is awaited, not {event}",
    "skirmish.error.nothing_awaited": "nothing is awaited: {event} does not fit",
    "skirmish.error.choose_first_stage": "who plays first is chosen after the first-card roll",
    "skirmish.error.band": "band must be 0 or 1, got {band}",
    "skirmish.error.card_stage": "a card cannot be played now (stage {stage})",
    "skirmish.error.card_played": "{band} already played {card} this turn; in hand: {hand}",
    "skirmish.error.no_card": "no card is in play",
    "skirmish.error.kill_stage": "models die during the card play",
    "skirmish.error.already.dead": "{model} is already dead",
    "skirmish.error.already.fled": "{model} is already fled",
    "skirmish.error.act_stage": "movement, shooting and assaults happen while a card is in play",
    "skirmish.error.acted": "{models} already acted with this card",
    "skirmish.error.shot_all": "{card} lets {most} models shoot in all; {n} already did",
    "skirmish.error.assalto_card": "assaults need an Assalto card, the card in play is {card}",
    "skirmish.error.assaulted_all": "{card} lets {most} models assault; they have",
    "skirmish.error.contacts": "name each enemy model in base contact once",
    "skirmish.error.no_hero": "heroism points cannot be spent on the {kind} roll: no hero rolls it",
    "skirmish.error.heroism": "{model} has {points} heroism points, not {spent}",
    "skirmish.error.dice_count": "the {kind} roll is {dice} d6, got {n} values {values}",
    "skirmish.error.d6": "a d6 shows 1 to 6, got {values}",
    "skirmish.error.order_heroism": "heroism points are not spent on deployment or first-card rolls",
    "skirmish.error.near": "model {model} of {band} is not in play to be near the dead",
    "skirmish.error.nothing_held": "no roll is waiting for heroism points",
    "skirmish.error.spend_first": "say first whether heroism points are spent on the roll just read",
    "skirmish.error.not_in_play": "model {model} of {band} is not in play",
    "skirmish.error.not_held": "the {kind} roll {values} is not held: heroism points cannot turn it",
    "skirmish.error.spend_negative": "heroism points spent are 0 or more, got {spent}",
}
"""Every line the core writes and every refusal, in English, by message key (see ``companion.messages``)."""


_say = speaker(MESSAGES)


def _kind(kind: str) -> Message:
    """A roll's kind as a word the page translates (``skirmish.kind.tiro``: "Tiro")."""
    return word("skirmish.kind", kind)


def _status(key: str, m: Model) -> Message:
    return _say(f"{key}.{m.status}", model=m.name)


def _why_below_half(band: Band) -> Message:
    return _say("skirmish.why.below_half", left=band.strength, start=len(band.models))


# ------------------------------------------------------------------------------------------------- models


@dataclass(frozen=True)
class Model:
    """A model: its profile (characteristics are d6 targets), abilities, and how it stands now."""

    name: str
    assalto: int
    salvezza: int
    points: int
    tiro: int | None = None
    """None: the model has no Tiro characteristic and cannot shoot."""
    abilities: frozenset[str] = frozenset()
    level: int = 0
    """Hero level 1-4 (``eroe2``), 0 for a model that is not a hero."""
    status: Status = "ok"
    heroism: int = -1
    """Heroism points left; -1 (the default) means the full level."""

    def __post_init__(self) -> None:
        if self.heroism < 0:
            object.__setattr__(self, "heroism", self.level)

    @property
    def captain(self) -> bool:
        return "capitano" in self.abilities

    @property
    def cavalry(self) -> bool:
        return "cavalleria" in self.abilities

    @property
    def in_play(self) -> bool:
        return self.status == "ok"

    @classmethod
    def parse(cls, notation: str) -> Model:
        """``"Ugo|T4|A3|S5|P10|eroe2|possente|capitano"``: name, then Tiro, Assalto, Salvezza, points,
        hero level and abilities in any order (Tiro may be left out)."""
        if not isinstance(notation, str):
            text = f"a model is written like 'Ugo|T4|A3|S5|P10', got {notation!r}"
            raise InvalidInput(Message("error.input.model", text,
                                       {"example": "'Ugo|T4|A3|S5|P10'", "value": repr(notation)}))
        name, *tokens = [t.strip() for t in notation.split("|")]
        if not name:
            raise InvalidInput(f"model {notation!r} has no name")
        values: dict[str, int] = {}
        abilities: set[str] = set()
        level = 0
        for token in tokens:
            low = token.lower()
            if low[:1] in ("t", "a", "s", "p") and low[1:].isdigit():
                key = low[0]
                if key in values:
                    raise InvalidInput(f"model {notation!r} gives {token[0]} twice")
                values[key] = int(low[1:])
            elif low.startswith("eroe") and low[4:].isdigit():
                level = int(low[4:])
            elif low in ABILITIES:
                abilities.add(low)
            else:
                raise InvalidInput(Message(
                    "error.input.model_token",
                    f"model {notation!r}: unknown token {token!r} (T/A/S/P + number, eroeN, "
                    f"{', '.join(ABILITIES)})",
                    {"value": repr(notation), "token": repr(token)},
                ))
        for key, label in (("a", "Assalto"), ("s", "Salvezza"), ("p", "points")):
            if key not in values:
                needed = f"{label} ({key.upper()}n)"
                raise InvalidInput(Message("error.input.model_needs", f"model {notation!r} needs its "
                                           f"{needed}", {"value": repr(notation), "what": needed}))
        model = cls(name, values["a"], values["s"], values["p"], values.get("t"), frozenset(abilities), level)
        model.validate()
        return model

    def validate(self) -> None:
        if not 0 <= self.level <= MAX_HERO_LEVEL:
            raise InvalidInput(f"model {self.name!r}: hero level must be 1 to 4, got {self.level}")
        if not 0 <= self.heroism <= self.level:
            raise InvalidInput(f"model {self.name!r}: heroism {self.heroism} outside 0..{self.level}")
        unknown = self.abilities - set(ABILITIES)
        if unknown:
            raise InvalidInput(f"model {self.name!r}: unknown abilities {sorted(unknown)!r}")

    def notation(self) -> str:
        parts = [self.name]
        if self.tiro is not None:
            parts.append(f"T{self.tiro}")
        parts += [f"A{self.assalto}", f"S{self.salvezza}", f"P{self.points}"]
        if self.level:
            parts.append(f"eroe{self.level}")
        parts += sorted(self.abilities)
        return "|".join(parts)

    def __repr__(self) -> str:
        extra = ""
        if self.status != "ok":
            extra += f", status={self.status!r}"
        if self.heroism != self.level:
            extra += f", heroism={self.heroism}"
        base = f"Model.parse({self.notation()!r})"
        return f"replace({base}{extra})" if extra else base

    def to_json(self) -> JSON:
        return {"profile": self.notation(), "status": self.status, "heroism": self.heroism}

    @classmethod
    def from_json(cls, value: JSON) -> Model:
        if isinstance(value, str):
            return cls.parse(value)
        obj = _obj(value, "model")
        profile: JSON = obj.get("profile")
        model = cls.parse(profile)
        status = obj.get("status", "ok")
        if status not in STATUSES:
            raise InvalidInput(f"model status {status!r} is not one of {', '.join(STATUSES)}")
        heroism = _int(obj.get("heroism", model.level), "heroism")
        model = replace(model, status=status, heroism=heroism)
        model.validate()
        return model


@dataclass(frozen=True)
class Band:
    """A band: its models (the captain among them), the cards left in hand, the card cycles played."""

    name: str
    models: tuple[Model, ...]
    hand: tuple[Card, ...] = CARDS
    turns: int = 0
    """Card cycles completed (a cycle of five cards is a turn)."""
    rout_tested: bool = False
    """The rout test for dropping below half has been taken (the captain's loss calls its own)."""

    def __post_init__(self) -> None:
        if not self.models:
            raise InvalidInput(f"band {self.name!r} has no models")
        captains = [i for i, m in enumerate(self.models) if m.captain]
        if len(captains) > 1:
            raise InvalidInput(f"band {self.name!r} names {len(captains)} captains; exactly one leads it")
        if not captains:  # the first model leads unless one is named
            first = self.models[0]
            object.__setattr__(
                self, "models", (replace(first, abilities=first.abilities | {"capitano"}), *self.models[1:])
            )

    @property
    def strength(self) -> int:
        """Models still in play (not dead, not fled off the table)."""
        return sum(1 for m in self.models if m.in_play)

    @property
    def below_half(self) -> bool:
        """Strictly below 50% of the starting strength: 5 of 10 is not below, 4 of 10 is."""
        return 2 * self.strength < len(self.models)

    @property
    def captain(self) -> int:
        return next(i for i, m in enumerate(self.models) if m.captain)

    def to_json(self) -> JSON:
        return {
            "name": self.name,
            "models": [m.to_json() for m in self.models],
            "hand": list(self.hand),
            "turns": self.turns,
            "rout_tested": self.rout_tested,
        }

    @classmethod
    def from_json(cls, value: JSON) -> Band:
        obj = _obj(value, "band")
        name = obj.get("name")
        if not isinstance(name, str) or not name.strip():
            raise InvalidInput(f"a band needs a non-empty 'name', got {name!r}")
        models = obj.get("models")
        if not isinstance(models, list) or not models:
            raise InvalidInput(f"band {name!r} needs a non-empty list of 'models', got {models!r}")
        parsed = tuple(Model.from_json(m) for m in models)
        hand = obj.get("hand", list(CARDS))
        if not isinstance(hand, list) or any(c not in CARDS for c in hand) or len(set(hand)) != len(hand):
            raise InvalidInput(
                f"band {name!r}: 'hand' must list distinct cards of {', '.join(CARDS)}, got {hand!r}"
            )
        return cls(
            name,
            parsed,
            tuple(c for c in CARDS if c in hand),
            _int(obj.get("turns", 0), "turns"),
            _bool(obj, "rout_tested", "band"),
        )


def victory_points(bands: Sequence[Band], side: int) -> int:
    """The points of the enemy models killed (fled models give none)."""
    return sum(m.points for m in bands[1 - side].models if m.status == "dead")


# ------------------------------------------------------------------------------------------------ shooting


@dataclass(frozen=True)
class Nearer:
    """An enemy model nearer to a shooter than its target: it may be skipped only in cover or engaged."""

    cover: bool = False
    engaged: bool = False


@dataclass(frozen=True)
class Line:
    """One shooter's facts: distance to the target, how far it moved, whether it is engaged, who is nearer."""

    shooter: int
    distance: float
    moved: float = 0.0
    engaged: bool = False
    nearer: tuple[Nearer, ...] = ()
    cover: bool = False
    """At least one cover (walls, hedges, trees) between this shooter and the target."""


def shooting_check(
    band: Band, lines: Sequence[Line], target: Model, card: Card, *, target_engaged: bool = False
) -> tuple[Check, tuple[Modifier, ...]]:
    """The one test several shooters make at one target, and the modifiers of the target's save.

    Raises ``IllegalAction`` for a shot the rules forbid (too many shooters, out of range, moved too far,
    into or out of a combat, not the nearest enemy).
    """
    if not card.startswith("tiro"):
        raise IllegalAction(_say("skirmish.error.tiro_card", card=CARD_NAMES[card]))
    most = int(card[-1])
    if not 1 <= len(lines) <= most:
        raise IllegalAction(_say("skirmish.error.shooters", card=CARD_NAMES[card], most=most, n=len(lines)))
    if len({line.shooter for line in lines}) != len(lines):
        raise IllegalAction(_say("skirmish.error.shooter_twice"))
    if target_engaged:
        raise IllegalAction(_say("skirmish.error.into_combat", model=target.name))
    names = []
    for line in lines:
        if not 0 <= line.shooter < len(band.models):
            raise IllegalAction(_say("skirmish.error.no_model", band=band.name, model=line.shooter))
        m = band.models[line.shooter]
        names.append(m.name)
        if not m.in_play:
            raise IllegalAction(_status("skirmish.error.status", m))
        if m.tiro is None:
            raise IllegalAction(_say("skirmish.error.no_tiro", model=m.name))
        if line.engaged:
            raise IllegalAction(_say("skirmish.error.out_of_combat", model=m.name))
        if line.distance > RANGE_CM:
            raise IllegalAction(
                _say(
                    "skirmish.error.range", model=m.name, distance=f"{line.distance:g}", range=f"{RANGE_CM:g}"
                )
            )
        if line.moved > MAX_MOVE_TO_SHOOT_CM:
            raise IllegalAction(_say("skirmish.error.moved", model=m.name, moved=f"{line.moved:g}"))
        for other in line.nearer:
            if not (other.cover or other.engaged):
                raise IllegalAction(_say("skirmish.error.nearest", target=target.name, model=m.name))
    best = min(lines, key=lambda line: band.models[line.shooter].tiro or 99)
    tiro = band.models[best.shooter].tiro
    assert tiro is not None
    extra = len(lines) - 1
    mods: list[Modifier] = []
    if extra:
        mods.append(Modifier(f"extra shooter{'s' if extra > 1 else ''}", extra))
    if any(line.cover for line in lines):
        mods.append(Modifier("cover", -1))
    shooter = band.models[best.shooter]
    label = _say(
        "skirmish.check.shoot" if len(names) == 1 else "skirmish.check.shoot_many",
        shooters=", ".join(names),
        target=target.name,
        best=shooter.name,
    )
    check = Check("tiro", tiro, tuple(mods), 1, shooter.heroism, label)
    save = (Modifier(f"extra shooter{'s' if extra > 1 else ''}", -extra),) if extra else ()
    return check, save


def assault_check(
    attacker: Model, target: Model, *, contact_this_turn: bool = True, extra_contacts: bool = False
) -> tuple[Check, tuple[Modifier, ...]]:
    """The assault test and the modifiers of the target's save."""
    mods = []
    if attacker.cavalry and not target.cavalry and contact_this_turn:
        mods.append(Modifier("cavalry charging infantry", 1))
    check = Check(
        "assalto",
        attacker.assalto,
        tuple(mods),
        1,
        attacker.heroism,
        _say("skirmish.check.assault", attacker=attacker.name, target=target.name),
    )
    save = []
    if "possente" in attacker.abilities:
        save.append(Modifier("Possente", -1))
    if extra_contacts:
        save.append(Modifier("more enemies in base contact", -1))
    return check, tuple(save)


def charge_check(model: Model, distance: float) -> Check:
    """The charge roll: 1d6 cm (2d6 for cavalry) must cover the distance left to base contact."""
    dice = 2 if model.cavalry else 1
    return Check(
        "charge",
        math.ceil(distance),
        (),
        dice,
        model.heroism,
        _say("skirmish.check.charge", model=model.name, distance=f"{distance:g}", dice=dice),
    )


def save_check(target: Model, mods: tuple[Modifier, ...]) -> Check:
    return Check(
        "salvezza", target.salvezza, mods, 1, target.heroism, _say("skirmish.check.save", model=target.name)
    )


def morale_check(model: Model, why: str) -> Check:
    return Check(
        "morale",
        MORALE_TARGET,
        (),
        1,
        model.heroism,
        _say("skirmish.check.morale", model=model.name, why=why),
    )


def rout_check(band: Band, why: str) -> Check:
    return Check("rout", ROUT_TARGET, (), 2, 0, _say("skirmish.check.rout", band=band.name, why=why))


# ------------------------------------------------------------------------------------------------ pending


@dataclass(frozen=True)
class Pending:
    """A roll or decision the table owes, with what follows from it."""

    kind: PendingKind
    band: int
    model: int | None = None
    check: Check | None = None
    dice: int = 1
    target: int | None = None
    """The enemy model a shot or an assault is aimed at."""
    follow: Check | None = None
    """For a charge: the assault test that follows when the charge reaches."""
    save: tuple[Modifier, ...] = ()
    """Modifiers of the target's save, if the test hits."""

    def to_json(self) -> JSON:
        return {
            "kind": self.kind,
            "band": self.band,
            "model": self.model,
            "check": None if self.check is None else self.check.to_json(),
            "dice": self.dice,
            "target": self.target,
            "follow": None if self.follow is None else self.follow.to_json(),
            "save": [m.to_json() for m in self.save],
        }

    @classmethod
    def from_json(cls, value: JSON) -> Pending:
        obj = _obj(value, "pending")
        kind = obj.get("kind")
        if kind not in PENDING_KINDS:
            raise InvalidInput(f"pending kind {kind!r} is not one of {', '.join(PENDING_KINDS)}")
        model, target = obj.get("model"), obj.get("target")
        return cls(
            kind,
            _int(obj.get("band"), "pending band"),
            None if model is None else _int(model, "pending model"),
            None if obj.get("check") is None else Check.from_json(obj["check"]),
            _int(obj.get("dice", 1), "pending dice"),
            None if target is None else _int(target, "pending target"),
            None if obj.get("follow") is None else Check.from_json(obj["follow"]),
            tuple(Modifier.from_json(m) for m in obj.get("save", [])),
        )


# ------------------------------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Roll:
    """The dice of the roll awaited (one value per die), and the heroism points spent after seeing it."""

    dice: tuple[int, ...]
    heroism: int = 0
    type: Literal["roll"] = "roll"


@dataclass(frozen=True)
class Hold:
    """The dice of the roll awaited, read and held: the roll fails, and its hero may still turn it by
    spending heroism points after seeing it (a ``Spend`` follows). Legal only when spending can turn it;
    ``Roll`` settles the same dice at once."""

    dice: tuple[int, ...]
    type: Literal["hold"] = "hold"


@dataclass(frozen=True)
class Spend:
    """The heroism points spent on the held roll (0: it stands, and fails); then the roll is settled."""

    points: int
    type: Literal["spend"] = "spend"


@dataclass(frozen=True)
class ChooseFirst:
    """The winner of the first-card roll says which band plays the first card."""

    band: int
    type: Literal["choose_first"] = "choose_first"


@dataclass(frozen=True)
class PlayCard:
    """The band whose turn it is plays a card from its hand."""

    card: Card
    type: Literal["play_card"] = "play_card"


@dataclass(frozen=True)
class Shoot:
    """Tiro: up to 2 or 3 shooters at one target, one test for all."""

    lines: tuple[Line, ...]
    target: int
    target_engaged: bool = False
    type: Literal["shoot"] = "shoot"


@dataclass(frozen=True)
class Assault:
    """Assalto: one model assaults one enemy; ``distance`` is what is left to base contact (0: in contact)."""

    attacker: int
    target: int
    distance: float = 0.0
    extra_contacts: bool = False
    contact_this_turn: bool = True
    type: Literal["assault"] = "assault"


@dataclass(frozen=True)
class Kill:
    """A model dies outside shooting and assault (a Speciale card, a spell)."""

    band: int
    model: int
    type: Literal["kill"] = "kill"


@dataclass(frozen=True)
class Near:
    """The friends of a dead model that were within 5 cm of it (5 included)."""

    models: tuple[int, ...]
    type: Literal["near"] = "near"


@dataclass(frozen=True)
class MarkNear:
    """One friend of the dead model marked as within 5 cm of it (marked again: unmarked), before ``Near``
    answers with the friends marked."""

    model: int
    type: Literal["mark_near"] = "mark_near"


@dataclass(frozen=True)
class OffTable:
    """Whether the model that fled 3d6 cm left the table by its own edge."""

    off: bool
    type: Literal["off_table"] = "off_table"


@dataclass(frozen=True)
class Disengage:
    """A model of the band in play leaves a combat: every enemy in base contact may make an assault test
    against it (``enemies``: their indices)."""

    model: int
    enemies: tuple[int, ...]
    type: Literal["disengage"] = "disengage"


@dataclass(frozen=True)
class EndCard:
    """The card's actions are over; the other band plays next."""

    type: Literal["end_card"] = "end_card"


@dataclass(frozen=True)
class Clock:
    """The game clock, given by the table: seconds since the game began. Past the limit, VP decide."""

    elapsed: int
    type: Literal["clock"] = "clock"


@dataclass(frozen=True)
class EndGame:
    """The players end the game (time is up, or they agree): victory points decide."""

    type: Literal["end_game"] = "end_game"


Event = (
    Roll
    | Hold
    | Spend
    | ChooseFirst
    | PlayCard
    | Shoot
    | Assault
    | Kill
    | Near
    | MarkNear
    | OffTable
    | Disengage
    | EndCard
    | Clock
    | EndGame
)
EVENT_CLASSES = (
    Roll,
    Hold,
    Spend,
    ChooseFirst,
    PlayCard,
    Shoot,
    Assault,
    Kill,
    Near,
    MarkNear,
    OffTable,
    Disengage,
    EndCard,
    Clock,
    EndGame,
)


def event_to_json(event: Event) -> dict[str, JSON]:
    if isinstance(event, Shoot):
        return {
            "type": "shoot",
            "target": event.target,
            "target_engaged": event.target_engaged,
            "shooters": [
                {
                    "model": ln.shooter,
                    "distance": ln.distance,
                    "moved": ln.moved,
                    "engaged": ln.engaged,
                    "cover": ln.cover,
                    "nearer": [{"cover": n.cover, "engaged": n.engaged} for n in ln.nearer],
                }
                for ln in event.lines
            ],
        }
    out: dict[str, JSON] = {"type": event.type}
    for name in event.__dataclass_fields__:
        if name != "type":
            value = getattr(event, name)
            out[name] = list(value) if isinstance(value, tuple) else value
    return out


def parse_event(value: JSON) -> Event:
    obj = _obj(value, "event")
    kind = obj.get("type")
    what = f"event {kind!r}"
    if kind == "roll":
        heroism = _int(obj.get("heroism", 0), "heroism", event=kind)
        return Roll(_ints(obj.get("dice"), "dice", event=kind), heroism)
    if kind == "hold":
        return Hold(_ints(obj.get("dice"), "dice", event=kind))
    if kind == "spend":
        return Spend(_int(obj.get("points"), "points", event=kind))
    if kind == "mark_near":
        return MarkNear(_int(obj.get("model"), "model", event=kind))
    if kind == "choose_first":
        return ChooseFirst(_int(obj.get("band"), "band", event=kind))
    if kind == "play_card":
        card = obj.get("card")
        if card not in CARDS:
            raise InvalidInput(f"card {card!r} is not one of {', '.join(CARDS)}")
        return PlayCard(card)
    if kind == "shoot":
        shooters = obj.get("shooters")
        if not isinstance(shooters, list) or not shooters:
            raise InvalidInput(f"{what} needs 'shooters': a list of {{model, distance, moved, ...}}")
        lines = []
        for s in shooters:
            s = _obj(s, "shooter")
            nearer = s.get("nearer", [])
            if not isinstance(nearer, list):
                raise InvalidInput(f"shooter 'nearer' must be a list, got {nearer!r}")
            lines.append(
                Line(
                    _int(s.get("model"), "shooter model"),
                    _num(s.get("distance"), "shooter distance"),
                    _num(s.get("moved", 0), "shooter moved"),
                    _bool(s, "engaged", "shooter"),
                    tuple(
                        Nearer(
                            _bool(_obj(n, "nearer"), "cover", "nearer"),
                            _bool(_obj(n, "nearer"), "engaged", "nearer"),
                        )
                        for n in nearer
                    ),
                    _bool(s, "cover", "shooter"),
                )
            )
        return Shoot(
            tuple(lines), _int(obj.get("target"), "target", event=kind), _bool(obj, "target_engaged", what)
        )
    if kind == "assault":
        return Assault(
            _int(obj.get("attacker"), "attacker", event=kind),
            _int(obj.get("target"), "target", event=kind),
            _num(obj.get("distance", 0), f"{what} distance"),
            _bool(obj, "extra_contacts", what),
            _bool(obj, "contact_this_turn", what, True),
        )
    if kind == "kill":
        return Kill(_int(obj.get("band"), "band", event=kind), _int(obj.get("model"), "model", event=kind))
    if kind == "near":
        return Near(_ints(obj.get("models", []), "models", event=kind))
    if kind == "off_table":
        return OffTable(_bool(obj, "off", what))
    if kind == "disengage":
        return Disengage(
            _int(obj.get("model"), "model", event=kind), _ints(obj.get("enemies", []), "enemies", event=kind)
        )
    if kind == "end_card":
        return EndCard()
    if kind == "clock":
        return Clock(_int(obj.get("elapsed"), "elapsed", event=kind))
    if kind == "end_game":
        return EndGame()
    raise InvalidInput(Message("error.input.unknown_event", f"unknown event type {kind!r}",
                               {"value": repr(kind)}))


# --------------------------------------------------------------------------------------------------- game


@dataclass(frozen=True)
class Outcome:
    """The end: ``winner`` is a band index, or None for a draw."""

    winner: int | None
    termination: Literal["rout", "points", "time", "annihilation"]
    points: tuple[int, int]

    def to_json(self) -> JSON:
        return {"winner": self.winner, "termination": self.termination, "points": list(self.points)}

    @classmethod
    def from_json(cls, value: JSON) -> Outcome:
        obj = _obj(value, "outcome")
        winner = obj.get("winner")
        if winner not in (None, 0, 1) or isinstance(winner, bool):
            raise InvalidInput(f"outcome winner must be 0, 1 or null, got {winner!r}")
        term = obj.get("termination")
        if term not in ("rout", "points", "time", "annihilation"):
            raise InvalidInput(f"outcome termination {term!r} is not rout, points, time or annihilation")
        pts = _ints(obj.get("points"), "outcome points")
        if len(pts) != 2:
            raise InvalidInput(f"outcome points must be two numbers, got {list(pts)!r}")
        return cls(winner, term, (pts[0], pts[1]))


@dataclass(frozen=True)
class Game:
    """A skirmish between two bands."""

    bands: tuple[Band, Band]
    stage: Stage = "deploy"
    pending: tuple[Pending, ...] = ()
    deploys_first: int | None = None
    chooser: int | None = None
    """The band that won the first-card roll and chooses who plays first."""
    to_play: int = 0
    card: Card | None = None
    """The card in play, while its actions are resolved."""
    acted: tuple[int, ...] = ()
    """Models of the band in play that already shot or assaulted with this card."""
    time_limit: int | None = 3600
    """Seconds; None for no clock. One hour is suggested."""
    elapsed: int = 0
    outcome: Outcome | None = None
    log: tuple[str, ...] = field(default=(), compare=False)
    held: tuple[int, ...] | None = None
    """The dice of the roll awaited, held while its hero decides on heroism points (``Hold``)."""
    near: tuple[int, ...] = ()
    """The friends marked within 5 cm of the dead model so far (``MarkNear``), while a death waits."""

    @classmethod
    def new(cls, bands: Sequence[Band], time_limit: int | None = 3600) -> Game:
        if len(bands) != 2:
            raise InvalidInput(f"the skirmish rules are for two bands, got {len(bands)}")
        game = cls((bands[0], bands[1]), time_limit=time_limit)
        return replace(
            game,
            pending=(
                Pending(
                    "deploy", 0, dice=2, check=Check("deploy", 1, (), 1, 0, _say("skirmish.check.deploy"))
                ),
            ),
        )

    @property
    def player(self) -> int:
        """The band that acts now (the card's band, or the band that owes the head roll)."""
        return self.pending[0].band if self.pending else self.to_play

    @property
    def check(self) -> Check | None:
        """The test awaited now, with the roller's heroism points as they stand (None for other waits)."""
        if not self.pending or self.pending[0].check is None or self.pending[0].kind in ("deploy", "first"):
            return None
        head = self.pending[0]
        assert head.check is not None
        points = 0 if head.model is None else self.bands[head.band].models[head.model].heroism
        return replace(head.check, heroism=points)

    @property
    def points(self) -> tuple[int, int]:
        return (victory_points(self.bands, 0), victory_points(self.bands, 1))

    @property
    def legal(self) -> LegalEvents:
        return LegalEvents(self)

    def to_json(self) -> JSON:
        return {
            "bands": [b.to_json() for b in self.bands],
            "stage": self.stage,
            "pending": [p.to_json() for p in self.pending],
            "deploys_first": self.deploys_first,
            "chooser": self.chooser,
            "to_play": self.to_play,
            "card": self.card,
            "acted": list(self.acted),
            "time_limit": self.time_limit,
            "elapsed": self.elapsed,
            "outcome": None if self.outcome is None else self.outcome.to_json(),
            # written only while set, so a state without them reads as before
            **({"held": list(self.held)} if self.held is not None else {}),
            **({"near": list(self.near)} if self.near else {}),
        }

    @classmethod
    def from_json(cls, value: JSON) -> Game:
        obj = _obj(value, "state")
        bands = obj.get("bands")
        if not isinstance(bands, list) or len(bands) != 2:
            raise InvalidInput(f"state: 'bands' must be a list of two bands, got {bands!r}"[:200])
        stage = obj.get("stage", "deploy")
        if stage not in STAGES:
            raise InvalidInput(f"state: stage {stage!r} is not one of {', '.join(STAGES)}")
        card = obj.get("card")
        if card is not None and card not in CARDS:
            raise InvalidInput(f"state: card {card!r} is not one of {', '.join(CARDS)}")
        opt = {}
        for key in ("deploys_first", "chooser", "time_limit"):
            v = obj.get(key)
            opt[key] = None if v is None else _int(v, f"state {key}")
        pending = obj.get("pending", [])
        if not isinstance(pending, list):
            raise InvalidInput(f"state: 'pending' must be a list, got {pending!r}")
        game = cls(
            (Band.from_json(bands[0]), Band.from_json(bands[1])),
            stage,
            tuple(Pending.from_json(p) for p in pending),
            opt["deploys_first"],
            opt["chooser"],
            _int(obj.get("to_play", 0), "state to_play"),
            card,
            _ints(obj.get("acted", []), "state acted"),
            opt["time_limit"],
            _int(obj.get("elapsed", 0), "state elapsed"),
            None if obj.get("outcome") is None else Outcome.from_json(obj["outcome"]),
            held=None if obj.get("held") is None else _ints(obj["held"], "state held"),
            near=_ints(obj.get("near", []), "state near"),
        )
        game.validate()
        return game

    def validate(self) -> None:
        for key in ("deploys_first", "chooser"):
            v = getattr(self, key)
            if v is not None and v not in (0, 1):
                raise InvalidInput(f"state: {key} must be 0 or 1, got {v!r}")
        if self.to_play not in (0, 1):
            raise InvalidInput(f"state: to_play must be 0 or 1, got {self.to_play!r}")
        for p in self.pending:
            if p.band not in (0, 1):
                raise InvalidInput(f"state: a pending roll names band {p.band}")
            for idx, side in ((p.model, p.band), (p.target, 1 - p.band)):
                if idx is not None and not 0 <= idx < len(self.bands[side].models):
                    raise InvalidInput(
                        f"state: a pending roll names model {idx} of {self.bands[side].name!r}"
                    )
        if any(not 0 <= i < len(self.bands[self.to_play].models) for i in self.acted):
            raise InvalidInput(f"state: 'acted' names missing models {list(self.acted)!r}")
        if self.held is not None and (not self.pending or heroism_need(self, self.held) is None):
            raise InvalidInput(f"state: the roll {list(self.held)!r} is held, but heroism cannot turn it")
        if self.near:
            head = self.pending[0] if self.pending else None
            if head is None or head.kind != "near" or len(set(self.near)) != len(self.near) or any(
                not 0 <= i < len(self.bands[head.band].models) or not self.bands[head.band].models[i].in_play
                for i in self.near
            ):
                raise InvalidInput(f"state: 'near' marks {list(self.near)!r}, but no death waits for them")


def heroism_need(game: Game, dice: tuple[int, ...]) -> tuple[int, int] | None:
    """(fewest heroism points that turn ``dice`` into a success, points the roller has) when the roll
    awaited fails and its hero can turn it (rule 2: the points are spent after seeing the roll); else
    None (it succeeds, the roller is no hero or has too few points, or it is not a test)."""
    if not game.pending or len(dice) != game.pending[0].dice or any(not 1 <= d <= 6 for d in dice):
        return None
    head = game.pending[0]
    if head.check is None or head.model is None or head.kind in ("deploy", "first"):
        return None
    points = game.bands[head.band].models[head.model].heroism
    need = head.check.target - sum(dice)
    if need <= 0 or points == 0 or need > points:
        return None
    return need, points


class LegalEvents:
    """The events allowed now. Rolls, cards, choices and decisions are listed; shots, assaults and
    kills depend on table facts and are checked by ``in``."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __iter__(self) -> Iterator[Event]:
        g = self.game
        if g.outcome is not None:
            return
        if g.held is not None:
            need = heroism_need(g, g.held)
            assert need is not None
            yield Spend(0)
            yield from (Spend(n) for n in range(need[0], need[1] + 1))
            return
        if g.pending:
            p = g.pending[0]
            if p.kind == "near":
                band = g.bands[p.band]
                yield from (MarkNear(i) for i, m in enumerate(band.models) if m.in_play)
                yield Near(g.near)
                return
            if p.kind == "off_table":
                yield OffTable(True)
                yield OffTable(False)
                return
            for dice in product(range(1, 7), repeat=p.dice):
                yield Roll(dice)
                if heroism_need(g, dice) is not None:
                    yield Hold(dice)
            return
        if g.stage == "choose_first":
            yield ChooseFirst(0)
            yield ChooseFirst(1)
            return
        if g.stage == "play":
            for card in g.bands[g.to_play].hand:
                yield PlayCard(card)
        if g.stage == "card":
            yield EndCard()
        yield EndGame()

    def __contains__(self, event: object) -> bool:
        return isinstance(event, EVENT_CLASSES) and applies(apply, self.game, event)

    def __bool__(self) -> bool:
        return self.game.outcome is None

    def count(self) -> int:
        return sum(1 for _ in self)


# -------------------------------------------------------------------------------------------------- apply


def _set_model(game: Game, side: int, index: int, model: Model) -> tuple[Band, Band]:
    band = game.bands[side]
    new = replace(band, models=tuple(model if i == index else m for i, m in enumerate(band.models)))
    return (new, game.bands[1]) if side == 0 else (game.bands[0], new)


def _set_band(game: Game, side: int, band: Band) -> tuple[Band, Band]:
    return (band, game.bands[1]) if side == 0 else (game.bands[0], band)


def _model(game: Game, side: int, index: int) -> Model:
    band = game.bands[side]
    if not 0 <= index < len(band.models):
        raise IllegalAction(
            _say("skirmish.error.model_range", band=band.name, model=index, last=len(band.models) - 1)
        )
    return band.models[index]


def apply(game: Game, event: Event) -> Game:
    """The game after ``event``; ``IllegalAction`` when the rules do not allow it now."""
    after = _apply(game, event)
    if after.outcome is None and not after.pending and any(b.strength == 0 for b in after.bands):
        return _end(after, "annihilation")
    return after


def _apply(game: Game, event: Event) -> Game:
    if game.outcome is not None:
        raise IllegalAction(_say("skirmish.error.over", event=repr(event_to_json(event))))
    if game.held is not None:
        if not isinstance(event, Spend):
            raise IllegalAction(_say("skirmish.error.spend_first"))
        return _roll(replace(game, held=None), Roll(game.held, event.points))
    if isinstance(event, Spend):
        raise IllegalAction(_say("skirmish.error.nothing_held"))
    if isinstance(event, Clock):
        if event.elapsed < game.elapsed:
            raise IllegalAction(_say("skirmish.error.clock_back", elapsed=game.elapsed, to=event.elapsed))
        game = replace(game, elapsed=event.elapsed, log=())
        if game.time_limit is not None and event.elapsed >= game.time_limit:
            return _end(game, "time")
        return game
    if isinstance(event, EndGame):
        return _end(replace(game, log=()), "points")
    if game.pending:
        head = game.pending[0]
        expected: tuple[type, ...] = {"near": (Near, MarkNear), "off_table": (OffTable,)}.get(
            head.kind, (Roll, Hold)
        )
        if not isinstance(event, expected):
            raise IllegalAction(
                _say(
                    f"skirmish.error.{'roll' if Roll in expected else 'answer'}_awaited",
                    kind=_kind(head.kind),
                    event=repr(event_to_json(event)),
                )
            )
        if isinstance(event, Roll):
            return _roll(game, event)
        if isinstance(event, Hold):
            return _hold(game, event)
        if isinstance(event, Near):
            return _near(game, event)
        if isinstance(event, MarkNear):
            return _mark_near(game, event)
        assert isinstance(event, OffTable)
        return _off_table(game, event)
    if isinstance(event, Roll | Hold | Near | MarkNear | OffTable):
        raise IllegalAction(_say("skirmish.error.nothing_awaited", event=repr(event_to_json(event))))
    if isinstance(event, ChooseFirst):
        if game.stage != "choose_first":
            raise IllegalAction(_say("skirmish.error.choose_first_stage"))
        if event.band not in (0, 1):
            raise IllegalAction(_say("skirmish.error.band", band=event.band))
        return replace(
            game,
            stage="play",
            to_play=event.band,
            log=(_say("skirmish.log.first_card", band=game.bands[event.band].name),),
        )
    if isinstance(event, PlayCard):
        if game.stage != "play":
            raise IllegalAction(_say("skirmish.error.card_stage", stage=repr(game.stage)))
        band = game.bands[game.to_play]
        if event.card not in band.hand:
            raise IllegalAction(
                _say(
                    "skirmish.error.card_played",
                    band=band.name,
                    card=CARD_NAMES[event.card],
                    hand=", ".join(CARD_NAMES[c] for c in band.hand),
                )
            )
        return replace(
            game,
            stage="card",
            card=event.card,
            acted=(),
            log=(_say("skirmish.log.play_card", band=band.name, card=CARD_NAMES[event.card]),),
        )
    if isinstance(event, EndCard):
        if game.stage != "card" or game.card is None:
            raise IllegalAction(_say("skirmish.error.no_card"))
        return _end_card(game)
    if isinstance(event, Kill):
        if game.stage not in ("card", "play"):
            raise IllegalAction(_say("skirmish.error.kill_stage"))
        m = _model(game, event.band, event.model)
        if not m.in_play:
            raise IllegalAction(_status("skirmish.error.already", m))
        return _death(
            replace(game, log=(_say("skirmish.log.killed", model=m.name),)), event.band, event.model
        )
    if isinstance(event, Shoot | Assault | Disengage):
        if game.stage != "card" or game.card is None:
            raise IllegalAction(_say("skirmish.error.act_stage"))
        if isinstance(event, Disengage):
            return _disengage(game, event)
        return _shoot(game, event) if isinstance(event, Shoot) else _assault(game, event)
    raise InvalidInput(f"not a skirmish event: {event!r}")


def _act(game: Game, models: Sequence[int]) -> tuple[int, ...]:
    used = [i for i in models if i in game.acted]
    if used:
        names = ", ".join(game.bands[game.to_play].models[i].name for i in used)
        raise IllegalAction(_say("skirmish.error.acted", models=names))
    return (*game.acted, *models)


def _shoot(game: Game, event: Shoot) -> Game:
    assert game.card is not None
    side = game.to_play
    target = _model(game, 1 - side, event.target)
    if not target.in_play:
        raise IllegalAction(_status("skirmish.error.status", target))
    check, save = shooting_check(
        game.bands[side], event.lines, target, game.card, target_engaged=event.target_engaged
    )
    best = min(event.lines, key=lambda ln: game.bands[side].models[ln.shooter].tiro or 99).shooter
    acted = _act(game, [ln.shooter for ln in event.lines])
    if len(acted) > int(game.card[-1]):
        raise IllegalAction(
            _say("skirmish.error.shot_all", card=CARD_NAMES[game.card], most=game.card[-1], n=len(game.acted))
        )
    return replace(
        game,
        acted=acted,
        pending=(Pending("tiro", side, best, check, 1, event.target, save=save),),
        log=(check.label, check.explain_message()),
    )


def _assault(game: Game, event: Assault) -> Game:
    assert game.card is not None
    side = game.to_play
    if not game.card.startswith("assalto"):
        raise IllegalAction(_say("skirmish.error.assalto_card", card=CARD_NAMES[game.card]))
    most = int(game.card[-1])
    if len(game.acted) >= most:
        raise IllegalAction(_say("skirmish.error.assaulted_all", card=CARD_NAMES[game.card], most=most))
    attacker = _model(game, side, event.attacker)
    target = _model(game, 1 - side, event.target)
    for m in (attacker, target):
        if not m.in_play:
            raise IllegalAction(_status("skirmish.error.status", m))
    acted = _act(game, [event.attacker])
    check, save = assault_check(
        attacker,
        target,
        contact_this_turn=event.contact_this_turn or event.distance > 0,  # a charge enters contact now
        extra_contacts=event.extra_contacts,
    )
    if event.distance > 0:
        charge = charge_check(attacker, event.distance)
        pending = Pending(
            "charge", side, event.attacker, charge, charge.dice, event.target, follow=check, save=save
        )
        return replace(game, acted=acted, pending=(pending,), log=(charge.label, charge.explain_message()))
    pending = Pending("assalto", side, event.attacker, check, 1, event.target, save=save)
    return replace(game, acted=acted, pending=(pending,), log=(check.label, check.explain_message()))


def _disengage(game: Game, event: Disengage) -> Game:
    """A voluntary exit from a combat: one assault test for each enemy model in contact."""
    side = game.to_play
    model = _model(game, side, event.model)
    if not model.in_play:
        raise IllegalAction(_status("skirmish.error.status", model))
    if not event.enemies or len(set(event.enemies)) != len(event.enemies):
        raise IllegalAction(_say("skirmish.error.contacts"))
    tests = []
    for j in event.enemies:
        enemy = _model(game, 1 - side, j)
        if not enemy.in_play:
            raise IllegalAction(_status("skirmish.error.status", enemy))
        check, save = assault_check(enemy, model, contact_this_turn=False)
        tests.append(
            Pending(
                "assalto",
                1 - side,
                j,
                replace(check, label=_say("skirmish.check.strikes", enemy=enemy.name, model=model.name)),
                1,
                event.model,
                save=save,
            )
        )
    return replace(
        game,
        pending=tuple(tests),
        log=(_say("skirmish.log.disengage", model=model.name, n=len(tests)),),
    )


def _spend(game: Game, head: Pending, spent: int) -> tuple[Game, str]:
    """Heroism points spent on a roll: only the hero who rolls, from the pool of its level."""
    if spent == 0:
        return game, ""
    if spent < 0:
        raise InvalidInput(_say("skirmish.error.spend_negative", spent=spent))
    if head.model is None:
        raise IllegalAction(_say("skirmish.error.no_hero", kind=_kind(head.kind)))
    m = game.bands[head.band].models[head.model]
    if spent > m.heroism:
        raise IllegalAction(_say("skirmish.error.heroism", model=m.name, points=m.heroism, spent=spent))
    game = replace(game, bands=_set_model(game, head.band, head.model, replace(m, heroism=m.heroism - spent)))
    return game, _say("skirmish.log.heroism", spent=spent, model=m.name, left=m.heroism - spent)


def _roll(game: Game, event: Roll) -> Game:
    head, rest = game.pending[0], game.pending[1:]
    if len(event.dice) != head.dice:
        raise IllegalAction(
            _say(
                "skirmish.error.dice_count",
                kind=_kind(head.kind),
                dice=head.dice,
                n=len(event.dice),
                values=repr(list(event.dice)),
            )
        )
    if any(not 1 <= d <= 6 for d in event.dice):
        raise IllegalAction(_say("skirmish.error.d6", values=repr(list(event.dice))))
    total = sum(event.dice)
    if head.kind in ("deploy", "first"):
        if event.heroism:
            raise IllegalAction(_say("skirmish.error.order_heroism"))
        return _order_roll(replace(game, pending=rest), head, event.dice)
    game, spent_text = _spend(game, head, event.heroism)
    total += event.heroism
    game = replace(game, pending=rest)
    if head.kind == "flee":
        m = game.bands[head.band].models[head.model or 0]
        return replace(
            game,
            pending=(Pending("off_table", head.band, head.model), *rest),
            log=(_say("skirmish.log.flees", model=m.name, cm=total, heroism=spent_text),),
        )
    assert head.check is not None
    ok = head.check.succeeds(total)
    verdict = _say(
        f"skirmish.log.{'success' if ok else 'failure'}",
        check=head.check.label,
        dice="+".join(map(str, event.dice)),
        heroism=spent_text,
        total=total,
        needs=head.check.needs_message(),
    )
    game = replace(game, log=(verdict,))
    if head.kind == "charge":
        assert head.follow is not None and head.target is not None
        if not ok:
            return replace(game, log=(*game.log, _say("skirmish.log.charge_short")))
        follow = replace(head.follow, heroism=game.bands[head.band].models[head.model or 0].heroism)
        nxt = Pending("assalto", head.band, head.model, follow, 1, head.target, save=head.save)
        return replace(
            game,
            pending=(nxt, *rest),
            log=(*game.log, _say("skirmish.log.contact"), follow.explain_message()),
        )
    if head.kind in ("tiro", "assalto"):
        assert head.target is not None
        if not ok:
            return game
        target = game.bands[1 - head.band].models[head.target]
        save = save_check(target, head.save)
        nxt = Pending("salvezza", 1 - head.band, head.target, save, 1)
        return replace(
            game, pending=(nxt, *rest), log=(*game.log, _say("skirmish.log.hit"), save.explain_message())
        )
    if head.kind == "salvezza":
        assert head.model is not None
        if ok:
            return game
        return _death(game, head.band, head.model)
    if head.kind == "morale":
        assert head.model is not None
        if ok:
            return game
        m = game.bands[head.band].models[head.model]
        flee = Pending("flee", head.band, head.model, None, 3)
        return replace(
            game,
            pending=(flee, *game.pending),
            log=(*game.log, _say("skirmish.log.flees_combat", model=m.name)),
        )
    if head.kind == "rout":
        if ok:
            return replace(game, log=(*game.log, _say("skirmish.log.holds", band=game.bands[head.band].name)))
        band = game.bands[head.band]
        return replace(
            game,
            pending=(),
            stage="over",
            outcome=Outcome(1 - head.band, "rout", game.points),
            log=(
                *game.log,
                _say("skirmish.log.routed", band=band.name, winner=game.bands[1 - head.band].name),
            ),
        )
    raise InvalidInput(f"unexpected pending roll {head.kind!r}")


def _hold(game: Game, event: Hold) -> Game:
    """A failed roll held for its hero's heroism points (rule 2: spent after seeing the roll)."""
    if heroism_need(game, event.dice) is None:
        _roll(game, Roll(event.dice))  # a malformed roll is refused as a roll would be
        raise IllegalAction(_say("skirmish.error.not_held", kind=_kind(game.pending[0].kind),
                                 values=repr(list(event.dice))))
    return replace(game, held=tuple(event.dice))


def _order_roll(game: Game, head: Pending, dice: tuple[int, ...]) -> Game:
    a, b = dice
    names = (game.bands[0].name, game.bands[1].name)
    if a == b:
        return replace(game, pending=(head, *game.pending), log=(_say("skirmish.log.roll_again", value=a),))
    if head.kind == "deploy":
        low = 0 if a < b else 1
        nxt = Pending("first", 0, dice=2, check=Check("first", 1, (), 1, 0, _say("skirmish.check.first")))
        return replace(
            game,
            deploys_first=low,
            stage="first",
            pending=(nxt,),
            log=(
                _say("skirmish.log.deploys_first", band=names[low]),
                _say("skirmish.log.roll_first"),
            ),
        )
    high = 0 if a > b else 1
    return replace(
        game,
        chooser=high,
        stage="choose_first",
        log=(_say("skirmish.log.chooses_first", band=names[high]),),
    )


def _death(game: Game, side: int, index: int) -> Game:
    """A model dies: mark it, then ask which friends were within 5 cm (if any could be)."""
    m = game.bands[side].models[index]
    moot = ("charge", "tiro", "assalto")  # further blows at a dead model (leaving a combat) fall on nobody
    pending = tuple(p for p in game.pending if not (p.kind in moot and p.band != side and p.target == index))
    game = replace(
        game,
        pending=pending,
        bands=_set_model(game, side, index, replace(m, status="dead")),
        log=(
            *game.log,
            _say("skirmish.log.dies", model=m.name, points=m.points, band=game.bands[1 - side].name),
        ),
    )
    friends = [i for i, f in enumerate(game.bands[side].models) if f.in_play]
    if friends and not m.captain:
        return replace(
            game,
            pending=(Pending("near", side, index), *game.pending),
            log=(*game.log, _say("skirmish.log.which_near", model=m.name)),
        )
    return _triggers(game, side, index, ())


def _near(game: Game, event: Near) -> Game:
    head, rest = game.pending[0], game.pending[1:]
    band = game.bands[head.band]
    for i in event.models:
        if not 0 <= i < len(band.models) or not band.models[i].in_play:
            raise IllegalAction(_say("skirmish.error.near", model=i, band=band.name))
    assert head.model is not None
    game = replace(game, pending=rest, near=(), log=())
    return _triggers(game, head.band, head.model, tuple(event.models))


def _mark_near(game: Game, event: MarkNear) -> Game:
    """One friend marked within 5 cm of the dead model (or unmarked), the death still waiting."""
    band = game.bands[game.pending[0].band]
    if not 0 <= event.model < len(band.models) or not band.models[event.model].in_play:
        raise IllegalAction(_say("skirmish.error.not_in_play", model=event.model, band=band.name))
    return replace(game, near=tuple(sorted(set(game.near) ^ {event.model})))


def _first_below_half(band: Band) -> bool:
    """The band has just dropped below half its starting strength (the test for it not yet taken)."""
    return band.below_half and not band.rout_tested


def _triggers(game: Game, side: int, dead: int, near: tuple[int, ...]) -> Game:
    """The tests a death calls: one morale test per model and at most one rout test, called by the
    captain's death or by the band first dropping below half (each of the two calls it once)."""
    band = game.bands[side]
    dm = band.models[dead]
    tests: list[Pending] = []
    log = list(game.log)
    if dm.captain or _first_below_half(band):
        why = _say("skirmish.why.captain_dead") if dm.captain else _why_below_half(band)
        tests.append(Pending("rout", side, None, rout_check(band, why), 2))
        band = replace(band, rout_tested=band.rout_tested or band.below_half)
        log.append(_say("skirmish.log.rout_test", band=band.name, why=why))
    testers = [i for i, m in enumerate(band.models) if m.in_play and (dm.captain or i in set(near))]
    for i in testers:
        why = (
            _say("skirmish.why.captain_dead")
            if dm.captain
            else _say("skirmish.why.near_death", model=dm.name)
        )
        tests.append(Pending("morale", side, i, morale_check(band.models[i], why), 1))
    return replace(game, bands=_set_band(game, side, band), pending=(*tests, *game.pending), log=tuple(log))


def _off_table(game: Game, event: OffTable) -> Game:
    head, rest = game.pending[0], game.pending[1:]
    assert head.model is not None
    m = game.bands[head.band].models[head.model]
    game = replace(game, pending=rest)
    if not event.off:
        return replace(game, log=(_say("skirmish.log.stays", model=m.name),))
    game = replace(
        game,
        bands=_set_model(game, head.band, head.model, replace(m, status="fled")),
        log=(_say("skirmish.log.leaves", model=m.name),),
    )
    band = game.bands[head.band]
    if m.captain or _first_below_half(band):
        why = _say("skirmish.why.captain_fled") if m.captain else _why_below_half(band)
        game = replace(
            game,
            bands=_set_band(game, head.band, replace(band, rout_tested=band.rout_tested or band.below_half)),
            pending=(Pending("rout", head.band, None, rout_check(band, why), 2), *game.pending),
            log=(*game.log, _say("skirmish.log.rout_test", band=band.name, why=why)),
        )
    if band.strength == 0 and not game.pending:
        return _end(game, "annihilation")
    return game


def _end_card(game: Game) -> Game:
    assert game.card is not None
    side = game.to_play
    band = game.bands[side]
    hand = tuple(c for c in band.hand if c != game.card)
    log = [_say("skirmish.log.end_card", band=band.name, card=CARD_NAMES[game.card])]
    if not hand:
        band = replace(band, hand=CARDS, turns=band.turns + 1)
        log.append(_say("skirmish.log.cycle", band=band.name, turn=band.turns))
    else:
        band = replace(band, hand=hand)
    return replace(
        game,
        bands=_set_band(game, side, band),
        stage="play",
        card=None,
        acted=(),
        to_play=1 - side,
        log=tuple(log),
    )


def _end(game: Game, why: Literal["points", "time", "annihilation"]) -> Game:
    pts = game.points
    winner = None if pts[0] == pts[1] else (0 if pts[0] > pts[1] else 1)
    if why == "annihilation":
        gone = 0 if game.bands[0].strength == 0 else 1
        winner = 1 - gone
    end = Message(f"skirmish.end.{why}", why)
    said = (
        _say("skirmish.log.end_draw", why=end, p0=pts[0], p1=pts[1])
        if winner is None
        else _say("skirmish.log.end_win", why=end, p0=pts[0], p1=pts[1], band=game.bands[winner].name)
    )
    return replace(
        game,
        stage="over",
        pending=(),
        held=None,
        near=(),
        outcome=Outcome(winner, why, pts),
        log=(*game.log, said),
    )


def new_game(bands: Sequence[Band], time_limit: int | None = 3600) -> Game:
    return Game.new(bands, time_limit)
