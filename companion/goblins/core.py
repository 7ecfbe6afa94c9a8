"""Goblins: Epic Death, the rules core.

Armies of goblin tokens face terrain cards and brawl with each other. Every toss of tokens is an input
(how many landed alive, how many dead, read by the camera or entered by hand); the core never rolls.

The game is a frozen ``Game``; events are frozen objects; ``apply(game, event)`` returns the next game
(or raises ``InvalidInput`` / ``IllegalAction`` and leaves the game unchanged). While a combat or a
brawl waits for a toss, ``game.awaiting`` says which toss (``TossRequest``) or which decision.

The end of the game is a value: ``game.outcome`` (an ``Outcome``) once every City Centre terrain is
taken.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Final, Literal, Self, TypeAlias, get_args

from companion.errors import IllegalAction, InvalidInput
from companion.jsonvalues import json_bool, json_list
from companion.jsonvalues import json_object as _obj
from companion.messages import Message, speaker, word
from companion.rules import applies

JSON: TypeAlias = Any

TerrainKind = Literal["wood", "river", "walls", "centre"]
Requirement = Literal["hero", "machine"]
MachineKind = Literal["ram", "cannon", "plain"]
Phase = Literal["A", "B", "C", "D"]
Purpose = Literal[
    "ram",  # the Ram's crew, tossed at the start of phase C
    "cannon",  # two army goblins as the Cannon's ammunition
    "troops",  # troop goblins tossed for losses (combat or brawl)
    "hero",  # one symbolic reserve goblin for a hero (army without troops)
    "crew",  # a machine's crew tossed for losses
    "epic_troops",  # Epic Death: every troop goblin
    "epic_crew",  # Epic Death: a machine's crew
    "survivor_troops",  # failed Epic Death: the troops left alive, tossed again
    "survivor_crew",  # failed Epic Death: a crew left alive, tossed again
]

TERRAIN_KINDS: tuple[str, ...] = get_args(TerrainKind)
MACHINE_KINDS: tuple[str, ...] = get_args(MachineKind)
REQUIREMENTS: tuple[str, ...] = get_args(Requirement)
#: The rulebook's Italian words, which a card's notation also takes (``Torre|mura|8|2|-``,
#: ``Ariete|ariete|3|1|1``); the notation and JSON the cores write keep the English words.
ITALIAN_WORDS: dict[str, str] = {
    "bosco": "wood", "fiume": "river", "mura": "walls", "centro": "centre", "eroe": "hero",
    "macchina": "machine", "ariete": "ram", "cannone": "cannon", "semplice": "plain",
}


def _english(word_: str) -> str:
    return ITALIAN_WORDS.get(word_.lower(), word_)
STARTING_TROOPS = 5
"""Each player takes 5 goblin tokens from the reserve ("ognuno prende 5 segnalini Goblin")."""
CANNON_STEP = 5
"""The Cannon gives -5 to the defence for every dead ammunition goblin."""
MAX_PLAYERS = 6
MIN_PLAYERS = 2
PURPOSES: tuple[str, ...] = get_args(Purpose)

MESSAGES: Mapping[str, str] = {
    # the log: what each event did (the command line prints these words; the page translates the keys)
    "goblins.log.shout": "{army} shouted Goblin! first",
    "goblins.log.reinforce.0": "{army} takes {goblins} goblins and draws {cards} cards",
    "goblins.log.reinforce.1": "{army} takes {goblins} goblins and draws {cards} cards",
    "goblins.log.reinforce.2": "{army} takes {goblins} goblins and draws {cards} cards",
    "goblins.log.play_hero": "{army} plays {hero}, eliminating {cost} goblins",
    "goblins.log.play_machine": "{army} puts {machine} in play with {crew} crew",
    "goblins.log.no_combat": "{army} moves to or stays on an empty space: no combat",
    "goblins.log.recrew": "{army} re-crews {machine}",
    "goblins.log.end_turn": "{army} ends the turn",
    "goblins.log.end_turn_discarding": "{army} ends the turn, discarding uncrewed {machines}",
    "goblins.log.turn": "{army}'s turn",
    "goblins.log.adjust": "{army}: {troops} troop goblins",
    "goblins.log.discard_hero": "{army} discards {hero}",
    "goblins.log.discard_machine": "{army} discards {machine}; its crew is eliminated",
    "goblins.log.face": "{army} faces {terrain} (defence {defence})",
    "goblins.log.cannon_no_ammo": "{machine} cannot fire: it needs two army goblins as ammunition",
    "goblins.log.epic_failed": "Epic Death failed: the goblins left alive are tossed again for losses",
    "goblins.log.modified_defence": "modified defence {defence} - {reduction} = {md}; attack {attack}",
    "goblins.log.epic_allowed": "an Epic Death may be declared",
    "goblins.log.epic": "{army} tries an Epic Death: every goblin is tossed",
    "goblins.log.defeat_requires.hero": "defeat: {terrain} asks for a hero",
    "goblins.log.defeat_requires.machine": "defeat: {terrain} asks for a machine",
    "goblins.log.automatic_victory": "automatic victory: the modified defence is zero or less",
    "goblins.log.victory": "victory: attack {attack} vs defence {md}",
    "goblins.log.defeat": "defeat: attack {attack} vs defence {md}",
    "goblins.log.choose_heroes": "choose {md} heroes to toss a symbolic goblin for",
    "goblins.log.cannon_fires": "{machine} fires: toss two army goblins as ammunition",
    "goblins.log.cannon_holds": "{machine} holds fire",
    "goblins.log.conquest": "{army} takes {terrain}: occupies it, gains {vp} goblins "
    "and the card ({total} VP)",
    "goblins.log.centre_taken": "every City Centre terrain is taken",
    "goblins.log.defeated": "{army} is defeated and goes back where it came from; {terrain} stays face up",
    "goblins.log.brawl": "brawl: {attacker} ({attack}) against {defender} ({defence}); machines are not used",
    "goblins.log.brawl_swap": "a tie: the top conquest cards are swapped",
    "goblins.log.brawl_tie_empty": "a tie: an empty conquest pile leaves nothing to swap",
    "goblins.log.back": "{army} goes back where it came from",
    "goblins.log.brawl_won": "{winner} wins and takes {card} from {loser}",
    "goblins.log.brawl_won_empty": "{winner} wins; {loser}'s conquest pile is empty: nothing to take",
    "goblins.log.moves_adjacent": "{army} moves to an adjacent space of its choice",
    "goblins.log.brawl_losses": "both armies toss {budget} goblins for losses, troops before crews",
    **{
        f"goblins.log.toss.{p}": f"{{army}} tosses {{count}} ({p}): {{alive}} alive, {{dead}} dead"
        for p in PURPOSES
    },
    "goblins.log.ram_removed": "{machine}'s crew dies: the Ram is removed",
    "goblins.log.ram_active": "{machine} is active: -{reduction} to the defence",
    "goblins.log.ammo_dead": "{dead} ammunition goblins die (lost): -{reduction} to the defence",
    "goblins.log.cannon_discarded": "two alive: {machine} is discarded and its crew eliminated",
    "goblins.log.troops_lost": "{army} loses {dead} troop goblins",
    "goblins.log.crew_lost": "{dead} of {machine}'s crew die",
    "goblins.log.hero_dies": "the symbolic goblin dies: {hero} dies in combat and is discarded",
    "goblins.log.hero_lives": "the symbolic goblin lives: {hero} survives",
    # refusals (IllegalAction): the page shows them translated, the command line prints the English
    "goblins.error.heroes_not_distinct": "hero choice {chosen} does not name distinct heroes of {army}",
    "goblins.error.heroes_count": "choose exactly {n} heroes to toss for, got {chosen}",
    "goblins.error.no_player": "there is no player {player}; players are 0..{last}",
    "goblins.error.not_tied": "player {player} is not among the tied players {tied}",
    "goblins.error.over": "the game is over; {event} cannot be played",
    "goblins.error.no_tie": "no tie to break: the game is not over",
    "goblins.error.toss_first": "finish the toss first; {event} must wait",
    "goblins.error.toss_awaited": "a toss of {count} goblins is awaited, not {event}",
    "goblins.error.no_toss": "no toss is awaited now",
    "goblins.error.cannon_first": "say whether the Cannon fires first, not {event}",
    "goblins.error.declare_first": "declare a normal fight or an Epic Death first, not {event}",
    "goblins.error.heroes_first": "choose the heroes to toss for first, not {event}",
    "goblins.error.not_awaited": "{event} is not awaited now",
    "goblins.error.reinforce_once": "reinforcements are taken once, in phase A",
    "goblins.error.reinforce_count": "one goblin per card not drawn: 0, 1 or 2, got {goblins}",
    "goblins.error.play_phase_a": "heroes and machines are put in play only in phase A",
    "goblins.error.hero_cost": "{hero} costs {cost} goblins; {army} has {troops}",
    "goblins.error.machine_crew": "{machine} needs {crew} crew goblins; {army} has {troops}",
    "goblins.error.face_phase": "terrains are faced in phase C (after the movement), not in phase D",
    "goblins.error.no_combat_phase": "'no_combat' ends the movement; the movement is over",
    "goblins.error.recrew_phase": "machines are re-crewed in phase D",
    "goblins.error.no_machine": "{army} has no machine {machine}",
    "goblins.error.crewed": "{machine} is already fully crewed",
    "goblins.error.recrew_troops": "{machine} needs {need} goblins; {army} has {troops}",
    "goblins.error.end_phase": "the turn ends in phase D; this is phase {phase}",
    "goblins.error.adjust": "{army} has {troops} troops; cannot eliminate {eliminate}",
    "goblins.error.no_hero": "{army} has no hero {hero}",
    "goblins.error.discard_in_combat": "the machines of the army in combat are discarded before facing the "
    "terrain or after the combat, not during it",
    "goblins.error.combat_on": "a combat is already in progress",
    "goblins.error.cannon_ammo": "{machine} needs two army goblins as ammunition; {army} has {troops}",
    "goblins.error.brawl_self": "an army cannot brawl with itself",
    "goblins.error.combat_first": "finish the combat first",
    "goblins.error.toss_count": "{count} goblins were tossed, "
    "but the reading counts {alive} alive + {dead} dead = {total}",
}
"""Every line the core writes and every refusal, in English, by message key (see ``companion.messages``)."""


_say = speaker(MESSAGES)


# --------------------------------------------------------------------------------------------- JSON helpers


def _needed(obj: Mapping[str, JSON], key: str, what: str) -> JSON:
    """``obj[key]``; a missing or empty one is ``error.input.event_needs`` (a card left blank on the page)."""
    value = obj.get(key)
    if value is None or value == "":
        raise InvalidInput(Message("error.input.event_needs", f"{what} needs {key!r}: {dict(obj)!r}",
                                   {"what": what, "field": word("field", key)}))
    return value


def _int(
    obj: Mapping[str, JSON], key: str, what: str, *, low: int | None = 0, default: int | None = None
) -> int:
    if key not in obj:
        if default is not None:
            return default
        raise InvalidInput(Message("error.input.event_needs", f"{what} needs {key!r}: {dict(obj)!r}",
                                   {"what": what, "field": word("field", key)}))
    value = obj[key]
    if isinstance(value, bool) or not isinstance(value, int):
        text = f"{what}: {key!r} must be an integer, got {value!r}"
        raise InvalidInput(Message("error.input.event_int", text,
                                   {"what": what, "field": word("field", key), "value": repr(value)}))
    if low is not None and value < low:
        raise InvalidInput(f"{what}: {key!r} must be at least {low}, got {value!r}")
    return value


def _str(obj: Mapping[str, JSON], key: str, what: str, *, default: str | None = None) -> str:
    if key not in obj:
        if default is not None:
            return default
        raise InvalidInput(f"{what} needs {key!r}: {dict(obj)!r}")
    value = obj[key]
    if not isinstance(value, str):
        raise InvalidInput(f"{what}: {key!r} must be a string, got {value!r}")
    return value


def _choice(value: str, options: Sequence[str], what: str, notation: str | None = None) -> Any:
    """``value`` if it is one of ``options``; ``what`` names it, in the card ``notation`` if given."""
    if value not in options:
        if notation is None:
            raise InvalidInput(f"{what}: {value!r} is not one of {', '.join(options)}")
        text = f"{what} {notation!r}: {value!r} is not one of {', '.join(options)}"
        raise InvalidInput(Message("error.input.not_one_of", text, {
            "what": word("error.what", what), "notation": repr(notation), "value": repr(value),
            "options": ", ".join(options)}))
    return value


def _list(obj: Mapping[str, JSON], key: str, what: str) -> list[JSON]:
    return json_list(obj.get(key, []), f"{what}: {key!r}")


def _split(text: str, parts: int, what: str, example: str) -> list[str]:
    if not isinstance(text, str):
        raise InvalidInput(f"{what} notation must be a string like {example!r}, got {text!r}")
    fields = [f.strip() for f in text.split("|")]
    if len(fields) != parts or not fields[0]:
        said = f"bad {what} notation {text!r}; expected something like {example!r}"
        params = {"what": word("error.what", what), "value": repr(text), "example": repr(example)}
        raise InvalidInput(Message("error.input.notation", said, params))
    return fields


def _nat(text: str, what: str, notation: str) -> int:
    if not text.isdigit():
        raise InvalidInput(f"bad {what} in {notation!r}: {text!r} is not a whole number")
    return int(text)


# ------------------------------------------------------------------------------------------------- cards


class _Card(ABC):
    """What the three kinds of card share: a card is written as its notation (``Hero.parse('Cavalleria|4|2')``
    is a hero's repr); its JSON is an object of the fields ``json_keys`` names, in that order, and either
    that object or the notation is read back."""

    what: ClassVar[str]
    """The kind of card, as errors name it."""
    json_keys: ClassVar[tuple[str, ...]]

    @classmethod
    @abstractmethod
    def parse(cls, notation: str) -> Self:
        """The card of its notation (``notation``'s shape)."""

    @classmethod
    @abstractmethod
    def from_object(cls, obj: Mapping[str, JSON]) -> Self:
        """The card of a JSON object (``to_json``'s shape)."""

    @abstractmethod
    def notation(self) -> str:
        """The card as one line: its fields joined by ``|``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({self.notation()!r})"

    def to_json(self) -> JSON:
        return {key: getattr(self, key) for key in self.json_keys}

    @classmethod
    def from_json(cls, value: JSON) -> Self:
        if isinstance(value, str):
            return cls.parse(value)
        return cls.from_object(_obj(value, cls.what))


@dataclass(frozen=True, repr=False)
class Terrain(_Card):
    """A terrain card: defence value, VP (= reinforcements), kind and requirement."""

    name: str
    defence: int
    vp: int
    kind: TerrainKind = "wood"
    requires: Requirement | None = None
    what = "terrain"
    json_keys = ("name", "kind", "defence", "vp", "requires")

    @classmethod
    def parse(cls, notation: str) -> Terrain:
        """``"Lego-Las|walls|10|3|hero"``: name, kind, defence, VP, requirement (``-`` for none)."""
        name, kind, defence, vp, req = _split(notation, 5, "terrain", "Lego-Las|walls|10|3|-")
        kind_ = _choice(_english(kind), TERRAIN_KINDS, "terrain", notation)
        req_ = _choice(_english(req), ("-", *REQUIREMENTS), f"terrain {notation!r} requirement")
        return cls(
            name,
            _nat(defence, "defence", notation),
            _nat(vp, "VP", notation),
            kind_,
            None if req_ == "-" else req_,
        )

    def notation(self) -> str:
        return f"{self.name}|{self.kind}|{self.defence}|{self.vp}|{self.requires or '-'}"

    @classmethod
    def from_object(cls, obj: Mapping[str, JSON]) -> Terrain:
        kind = _choice(_str(obj, "kind", "terrain", default="wood"), TERRAIN_KINDS, "terrain kind")
        req = obj.get("requires")
        if req is not None and req not in REQUIREMENTS:
            raise InvalidInput(f"terrain requirement {req!r} is not one of null, hero, machine")
        return cls(
            _str(obj, "name", "terrain"),
            _int(obj, "defence", "terrain"),
            _int(obj, "vp", "terrain"),
            kind,
            req,
        )


@dataclass(frozen=True, repr=False)
class Hero(_Card):
    """A hero card in play: its attack value and the goblins spent (eliminated untossed) to play it."""

    name: str
    attack: int
    cost: int = 0
    what = "hero"
    json_keys = ("name", "attack", "cost")

    @classmethod
    def parse(cls, notation: str) -> Hero:
        """``"Cavalleria|4|2"``: name, attack value, goblins spent."""
        name, attack, cost = _split(notation, 3, "hero", "Cavalleria|4|2")
        return cls(name, _nat(attack, "attack", notation), _nat(cost, "cost", notation))

    def notation(self) -> str:
        return f"{self.name}|{self.attack}|{self.cost}"

    @classmethod
    def from_object(cls, obj: Mapping[str, JSON]) -> Hero:
        return cls(
            _str(obj, "name", "hero"), _int(obj, "attack", "hero"), _int(obj, "cost", "hero", default=0)
        )


@dataclass(frozen=True, repr=False)
class Machine(_Card):
    """A machine in play: defence reduction, crew it needs, and crew goblins aboard now.

    ``kind`` is ``"ram"`` (Ariete: its crew is tossed at the start of phase C, a dead crew removes it),
    ``"cannon"`` (Cannone: two army goblins are tossed as ammunition, -5 per dead one, two alive discard
    it) or ``"plain"`` (any other machine: active while fully crewed).
    """

    name: str
    kind: MachineKind
    reduction: int
    crew_size: int
    crew: int
    what = "machine"
    json_keys = ("name", "kind", "reduction", "crew_size", "crew")

    @classmethod
    def parse(cls, notation: str) -> Machine:
        """``"Ariete|ram|3|1|1"``: name, kind, reduction, crew needed, crew aboard."""
        name, kind, red, size, crew = _split(notation, 5, "machine", "Ariete|ram|3|1|1")
        machine = cls(
            name,
            _choice(_english(kind), MACHINE_KINDS, "machine", notation),
            _nat(red, "reduction", notation),
            _nat(size, "crew size", notation),
            _nat(crew, "crew", notation),
        )
        machine.validate()
        return machine

    def validate(self) -> None:
        if self.crew > self.crew_size:
            raise InvalidInput(f"machine {self.notation()!r} has more crew than it needs ({self.crew_size})")

    @property
    def crewed(self) -> bool:
        return self.crew >= self.crew_size

    def notation(self) -> str:
        return f"{self.name}|{self.kind}|{self.reduction}|{self.crew_size}|{self.crew}"

    @classmethod
    def from_object(cls, obj: Mapping[str, JSON]) -> Machine:
        kind = _choice(_str(obj, "kind", "machine", default="plain"), MACHINE_KINDS, "machine kind")
        size = _int(obj, "crew_size", "machine")
        machine = cls(
            _str(obj, "name", "machine"),
            kind,
            _int(obj, "reduction", "machine"),
            size,
            _int(obj, "crew", "machine", default=size),
        )
        machine.validate()
        return machine


RAM = Machine("Ariete", "ram", 3, 1, 1)
"""The Ram card: -3 to the defence, one crew goblin."""
CANNON = Machine("Cannone", "cannon", CANNON_STEP, 2, 2)
"""The Cannon card: -5 per dead ammunition goblin. The crew of 2 is an assumption; enter the card's."""


# ------------------------------------------------------------------------------------------------- armies


@dataclass(frozen=True)
class Army:
    """One player's army: troop goblins, heroes, machines and the conquest pile (bottom first)."""

    name: str
    troops: int = STARTING_TROOPS
    heroes: tuple[Hero, ...] = ()
    machines: tuple[Machine, ...] = ()
    pile: tuple[Terrain, ...] = ()

    @property
    def attack(self) -> int:
        """Attack value against a terrain: troops plus heroes' attack (crews do not count)."""
        return self.troops + self.heroes_attack

    @property
    def heroes_attack(self) -> int:
        return sum(h.attack for h in self.heroes)

    @property
    def crews(self) -> int:
        return sum(m.crew for m in self.machines)

    @property
    def brawl_attack(self) -> int:
        """Attack value in a brawl: machines are not used, their crews fight (and count)."""
        return self.attack + self.crews

    @property
    def vp(self) -> int:
        return sum(t.vp for t in self.pile)

    def to_json(self) -> JSON:
        return {
            "name": self.name,
            "troops": self.troops,
            "heroes": [h.to_json() for h in self.heroes],
            "machines": [m.to_json() for m in self.machines],
            "pile": [t.to_json() for t in self.pile],
        }

    @classmethod
    def from_json(cls, value: JSON) -> Army:
        obj = _obj(value, "army")
        return cls(
            _str(obj, "name", "army"),
            _int(obj, "troops", "army", default=STARTING_TROOPS),
            tuple(Hero.from_json(h) for h in _list(obj, "heroes", "army")),
            tuple(Machine.from_json(m) for m in _list(obj, "machines", "army")),
            tuple(Terrain.from_json(t) for t in _list(obj, "pile", "army")),
        )


# -------------------------------------------------------------------------------------- combat evaluation


def requirements_met(army: Army, terrain: Terrain) -> bool:
    """Whether the army may take the terrain: a hero, or a machine in play, when the card asks."""
    if terrain.requires == "hero":
        return bool(army.heroes)
    if terrain.requires == "machine":
        return bool(army.machines)
    return True


def modified_defence(terrain: Terrain, reduction: int) -> int:
    """The terrain's defence minus the active machines (may be zero or negative: automatic win)."""
    return terrain.defence - reduction


def wins(army: Army, terrain: Terrain, reduction: int) -> bool:
    """Victory iff the requirements are met and attack >= modified defence (<= 0 is automatic)."""
    md = modified_defence(terrain, reduction)
    return requirements_met(army, terrain) and (md <= 0 or army.attack >= md)


def epic_death_allowed(army: Army, terrain: Terrain, reduction: int) -> bool:
    """Epic Death: requirements met, attack not above half the modified defence, at least one troop.

    "non supera la metà" allows equality: attack 4 against 8 may try, 4 against 7 may not
    (checked as ``2 * attack <= modified defence`` to stay in whole numbers).
    """
    md = modified_defence(terrain, reduction)
    return requirements_met(army, terrain) and army.troops >= 1 and md > 0 and 2 * army.attack <= md


@dataclass(frozen=True)
class TossRequest:
    """A toss the players must make now: who, why, and how many tokens."""

    purpose: Purpose
    player: int
    count: int
    machine: int | None = None
    hero: int | None = None

    def to_json(self) -> JSON:
        return {
            "purpose": self.purpose,
            "player": self.player,
            "count": self.count,
            "machine": self.machine,
            "hero": self.hero,
        }

    @classmethod
    def from_json(cls, value: JSON) -> TossRequest:
        obj = _obj(value, "toss request")
        purpose = _choice(_str(obj, "purpose", "toss request"), get_args(Purpose), "toss purpose")
        machine, hero = obj.get("machine"), obj.get("hero")
        for key, v in (("machine", machine), ("hero", hero)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 0):
                raise InvalidInput(f"toss request: {key!r} must be a non-negative integer or null, got {v!r}")
        return cls(
            purpose,
            _int(obj, "player", "toss request"),
            _int(obj, "count", "toss request", low=1),
            machine,
            hero,
        )


def loss_tosses(
    army: Army, player: int, budget: int, heroes: Sequence[int] | None = None
) -> tuple[TossRequest, ...]:
    """The tosses that count an army's losses after a combat against a terrain.

    ``budget`` is the modified defence: never more goblins than that are tossed. An army with troops
    tosses its troops (heroes are not losses while a troop is left); an army without troops tosses one
    symbolic reserve goblin per hero, ``heroes`` being the player's choice when there are more heroes
    than the budget. Crews are tossed too, with what is left of the budget, when the attack value
    (troops plus heroes' attack) does not reach the modified defence.
    """
    if budget <= 0:
        return ()
    tosses: list[TossRequest] = []
    left = budget
    if army.troops > 0:
        n = min(army.troops, left)
        tosses.append(TossRequest("troops", player, n))
        left -= n
    elif army.heroes:
        chosen = list(range(len(army.heroes))) if heroes is None else list(heroes)
        if len(set(chosen)) != len(chosen) or any(not 0 <= i < len(army.heroes) for i in chosen):
            raise IllegalAction(
                _say("goblins.error.heroes_not_distinct", chosen=repr(chosen), army=repr(army.name))
            )
        if len(chosen) != min(len(army.heroes), left):
            raise IllegalAction(
                _say("goblins.error.heroes_count", n=min(len(army.heroes), left), chosen=repr(chosen))
            )
        for i in sorted(chosen):
            tosses.append(TossRequest("hero", player, 1, hero=i))
        left -= len(chosen)
    if army.attack < budget:
        for i, machine in enumerate(army.machines):
            if left <= 0:
                break
            n = min(machine.crew, left)
            if n:
                tosses.append(TossRequest("crew", player, n, machine=i))
                left -= n
    return tuple(tosses)


def brawl_tosses(army: Army, player: int, budget: int) -> tuple[TossRequest, ...]:
    """An army's brawl losses: ``budget`` goblins, troops before crews (heroes are no goblins)."""
    tosses: list[TossRequest] = []
    left = budget
    if army.troops and left > 0:
        n = min(army.troops, left)
        tosses.append(TossRequest("troops", player, n))
        left -= n
    for i, machine in enumerate(army.machines):
        if left <= 0:
            break
        n = min(machine.crew, left)
        if n:
            tosses.append(TossRequest("crew", player, n, machine=i))
            left -= n
    return tuple(tosses)


# ----------------------------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Reinforce:
    """Phase A: reserve goblins taken instead of drawing cards (0, 1 or 2)."""

    goblins: int
    type: Literal["reinforce"] = "reinforce"


@dataclass(frozen=True)
class PlayHero:
    """Phase A: put a hero in play, eliminating ``hero.cost`` troop goblins untossed."""

    hero: Hero
    type: Literal["play_hero"] = "play_hero"


@dataclass(frozen=True)
class PlayMachine:
    """Phase A: put a machine in play; its crew comes from the troops."""

    machine: Machine
    type: Literal["play_machine"] = "play_machine"


@dataclass(frozen=True)
class Face:
    """Phase B/C: the army faces a terrain card (revealed now, or already face up)."""

    terrain: Terrain
    type: Literal["face"] = "face"


@dataclass(frozen=True)
class FireCannon:
    """Phase C: fire (``True``) or hold the Cannon the combat asks about."""

    fire: bool
    type: Literal["fire_cannon"] = "fire_cannon"


@dataclass(frozen=True)
class Declare:
    """Phase C: before the toss, fight normally (``epic=False``) or try an Epic Death."""

    epic: bool
    type: Literal["declare"] = "declare"


@dataclass(frozen=True)
class ChooseHeroes:
    """Phase C: an army without troops chooses the heroes it tosses a symbolic goblin for."""

    heroes: tuple[int, ...]
    type: Literal["choose_heroes"] = "choose_heroes"


@dataclass(frozen=True)
class Toss:
    """The result of the toss being awaited: tokens landed alive and dead."""

    alive: int
    dead: int
    type: Literal["toss"] = "toss"


@dataclass(frozen=True)
class Brawl:
    """The current player's army moved onto another army's space: a brawl (Rissa tra Goblin)."""

    defender: int
    type: Literal["brawl"] = "brawl"


@dataclass(frozen=True)
class NoCombat:
    """Phase B: the army moved to (or stayed on) an empty space: no combat this turn."""

    type: Literal["no_combat"] = "no_combat"


@dataclass(frozen=True)
class Recrew:
    """Phase D: put goblins from the troops back on a machine that lost its crew."""

    machine: int
    type: Literal["recrew"] = "recrew"


@dataclass(frozen=True)
class EndTurn:
    """Phase D: uncrewed machines are discarded and the next player (clockwise) starts."""

    type: Literal["end_turn"] = "end_turn"


@dataclass(frozen=True)
class Adjust:
    """An action card or terrain effect: add (positive) or eliminate (negative) troop goblins untossed."""

    player: int
    troops: int
    type: Literal["adjust"] = "adjust"


@dataclass(frozen=True)
class DiscardHero:
    """An action card or terrain effect discards a hero."""

    player: int
    hero: int
    type: Literal["discard_hero"] = "discard_hero"


@dataclass(frozen=True)
class DiscardMachine:
    """A machine is discarded; its crew is eliminated without being tossed."""

    player: int
    machine: int
    type: Literal["discard_machine"] = "discard_machine"


@dataclass(frozen=True)
class Shout:
    """The last tie-break: the tied player who shouted "Goblin!" first."""

    player: int
    type: Literal["shout"] = "shout"


Event = (
    Reinforce
    | PlayHero
    | PlayMachine
    | Face
    | FireCannon
    | Declare
    | ChooseHeroes
    | Toss
    | Brawl
    | NoCombat
    | Recrew
    | EndTurn
    | Adjust
    | DiscardHero
    | DiscardMachine
    | Shout
)


EVENT_CLASSES = (
    Reinforce,
    PlayHero,
    PlayMachine,
    Face,
    FireCannon,
    Declare,
    ChooseHeroes,
    Toss,
    Brawl,
    NoCombat,
    Recrew,
    EndTurn,
    Adjust,
    DiscardHero,
    DiscardMachine,
    Shout,
)


def event_to_json(event: Event) -> dict[str, JSON]:
    """The JSON object of an event (``{"type": ..., ...}``)."""
    out: dict[str, JSON] = {"type": event.type}
    for name in event.__dataclass_fields__:
        if name == "type":
            continue
        value = getattr(event, name)
        if isinstance(value, Terrain | Hero | Machine):
            value = value.to_json()
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    return out


def parse_event(value: JSON) -> Event:
    """An event from its JSON object; ``InvalidInput`` names what is wrong."""
    obj = _obj(value, "event")
    kind = _str(obj, "type", "event")
    what = f"event {kind!r}"
    if kind == "reinforce":
        return Reinforce(_int(obj, "goblins", what))
    if kind == "play_hero":
        return PlayHero(Hero.from_json(_needed(obj, "hero", what)))
    if kind == "play_machine":
        return PlayMachine(Machine.from_json(_needed(obj, "machine", what)))
    if kind == "face":
        return Face(Terrain.from_json(_needed(obj, "terrain", what)))
    if kind == "fire_cannon":
        return FireCannon(_bool(obj, "fire", what))
    if kind == "declare":
        return Declare(_bool(obj, "epic", what))
    if kind == "choose_heroes":
        heroes = _list(obj, "heroes", what)
        if any(isinstance(h, bool) or not isinstance(h, int) for h in heroes):
            raise InvalidInput(f"{what}: 'heroes' must be a list of hero indices, got {heroes!r}")
        return ChooseHeroes(tuple(heroes))
    if kind == "toss":
        return Toss(_int(obj, "alive", what), _int(obj, "dead", what))
    if kind == "brawl":
        return Brawl(_int(obj, "defender", what))
    if kind == "no_combat":
        return NoCombat()
    if kind == "recrew":
        return Recrew(_int(obj, "machine", what))
    if kind == "end_turn":
        return EndTurn()
    if kind == "adjust":
        return Adjust(_int(obj, "player", what), _int(obj, "troops", what, low=None))
    if kind == "discard_hero":
        return DiscardHero(_int(obj, "player", what), _int(obj, "hero", what))
    if kind == "discard_machine":
        return DiscardMachine(_int(obj, "player", what), _int(obj, "machine", what))
    if kind == "shout":
        return Shout(_int(obj, "player", what))
    raise InvalidInput(Message("error.input.unknown_event", f"unknown event type {kind!r}",
                               {"value": repr(kind)}))


def _bool(obj: Mapping[str, JSON], key: str, what: str) -> bool:
    return json_bool(obj.get(key), f"{what}: {key!r}")


# ------------------------------------------------------------------------------------------ game and state


@dataclass(frozen=True)
class Combat:
    """A combat against a terrain in progress (phase C)."""

    terrain: Terrain
    step: Literal["tosses", "cannon", "declare", "choose_heroes"] = "tosses"
    reduction: int = 0
    stage: Literal["machines", "losses", "epic", "survivors"] = "machines"
    won: bool | None = None
    epic: bool = False
    all_dead: bool = True
    cannons: tuple[int, ...] = ()
    """Indices of cannons still to be asked about, head first."""

    def to_json(self) -> JSON:
        return {
            "terrain": self.terrain.to_json(),
            "step": self.step,
            "reduction": self.reduction,
            "stage": self.stage,
            "won": self.won,
            "epic": self.epic,
            "all_dead": self.all_dead,
            "cannons": list(self.cannons),
        }

    @classmethod
    def from_json(cls, value: JSON) -> Combat:
        obj = _obj(value, "combat")
        step = _choice(
            _str(obj, "step", "combat"), ("tosses", "cannon", "declare", "choose_heroes"), "combat step"
        )
        stage = _choice(
            _str(obj, "stage", "combat"), ("machines", "losses", "epic", "survivors"), "combat stage"
        )
        won = obj.get("won")
        if won is not None and not isinstance(won, bool):
            raise InvalidInput(f"combat: 'won' must be true, false or null, got {won!r}")
        cannons = _list(obj, "cannons", "combat")
        if any(isinstance(c, bool) or not isinstance(c, int) for c in cannons):
            raise InvalidInput(f"combat: 'cannons' must be machine indices, got {cannons!r}")
        return cls(
            Terrain.from_json(obj.get("terrain")),
            step,
            _int(obj, "reduction", "combat"),
            stage,
            won,
            _bool(obj, "epic", "combat"),
            _bool(obj, "all_dead", "combat"),
            tuple(cannons),
        )


@dataclass(frozen=True)
class Outcome:
    """The end of the game: the winner(s) by VP, then terrain cards, then troop goblins.

    More than one winner means a full tie: the first to shout "Goblin!" wins (a ``Shout`` event).
    """

    winners: tuple[int, ...]
    termination: Literal["city_taken", "shout"] = "city_taken"

    @property
    def winner(self) -> int | None:
        return self.winners[0] if len(self.winners) == 1 else None

    def to_json(self) -> JSON:
        return {"winners": list(self.winners), "termination": self.termination, "winner": self.winner}

    @classmethod
    def from_json(cls, value: JSON) -> Outcome:
        obj = _obj(value, "outcome")
        winners = _list(obj, "winners", "outcome")
        if not winners or any(isinstance(w, bool) or not isinstance(w, int) for w in winners):
            raise InvalidInput(f"outcome: 'winners' must be a non-empty list of players, got {winners!r}")
        term = _choice(_str(obj, "termination", "outcome"), ("city_taken", "shout"), "termination")
        return cls(tuple(winners), term)


def standing(army: Army) -> tuple[int, int, int]:
    """The end-of-game ranking key: VP, then terrain cards, then troop goblins."""
    return (army.vp, len(army.pile), army.troops)


def ranking(armies: Sequence[Army]) -> tuple[int, ...]:
    """Players in end-of-game order (best first; ties keep seating order)."""
    return tuple(sorted(range(len(armies)), key=lambda i: standing(armies[i]), reverse=True))


@dataclass(frozen=True)
class Game:
    """A game of Goblins: Epic Death."""

    armies: tuple[Army, ...]
    centre: int
    """City Centre terrains still to be taken; the game ends when it reaches zero."""
    current: int = 0
    phase: Phase = "A"
    reinforced: bool = False
    combat: Combat | None = None
    brawl: tuple[int, int] | None = None
    """(attacker, defender) while a brawl's losses are being tossed."""
    tosses: tuple[TossRequest, ...] = ()
    outcome: Outcome | None = None
    log: tuple[str, ...] = field(default=(), compare=False)
    """What the last event did, in words (not part of the position)."""

    @classmethod
    def new(cls, names: Sequence[str], centre: int = 1, troops: int = STARTING_TROOPS) -> Game:
        """A new game: 2-6 players in seating order, ``centre`` City Centre terrains in play."""
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise InvalidInput(Message(
                "error.input.players", f"Goblins needs 2 to 6 players, got {len(names)}: {list(names)!r}",
                {"game": "Goblins", "low": MIN_PLAYERS, "high": MAX_PLAYERS, "n": len(names)}))
        if any(not isinstance(n, str) or not n.strip() for n in names):
            raise InvalidInput(f"player names must be non-empty strings, got {list(names)!r}")
        if len(set(names)) != len(names):
            raise InvalidInput(f"player names must differ, got {list(names)!r}")
        if isinstance(centre, bool) or not isinstance(centre, int) or centre < 1:
            raise InvalidInput(f"the number of City Centre terrains must be at least 1, got {centre!r}")
        return cls(tuple(Army(n, troops) for n in names), centre)

    @property
    def awaiting(self) -> str | None:
        """What the game waits for: ``"toss"``, ``"fire_cannon"``, ``"declare"``, ``"choose_heroes"``,
        ``"shout"``, or None (the current player acts freely in the current phase)."""
        if self.outcome is not None:
            return "shout" if self.outcome.winner is None else None
        if self.tosses:
            return "toss"
        if self.combat is not None and self.combat.step != "tosses":
            return {"cannon": "fire_cannon", "declare": "declare", "choose_heroes": "choose_heroes"}[
                self.combat.step
            ]
        return None

    @property
    def toss(self) -> TossRequest | None:
        """The toss awaited now, if any."""
        return self.tosses[0] if self.tosses else None

    @property
    def legal(self) -> LegalEvents:
        return LegalEvents(self)

    def to_json(self) -> JSON:
        return {
            "armies": [a.to_json() for a in self.armies],
            "centre": self.centre,
            "current": self.current,
            "phase": self.phase,
            "reinforced": self.reinforced,
            "combat": None if self.combat is None else self.combat.to_json(),
            "brawl": None if self.brawl is None else list(self.brawl),
            "tosses": [t.to_json() for t in self.tosses],
            "outcome": None if self.outcome is None else self.outcome.to_json(),
        }

    @classmethod
    def from_json(cls, value: JSON) -> Game:
        obj = _obj(value, "state")
        armies = tuple(Army.from_json(a) for a in _list(obj, "armies", "state"))
        if not MIN_PLAYERS <= len(armies) <= MAX_PLAYERS:
            raise InvalidInput(f"state: Goblins needs 2 to 6 armies, got {len(armies)}")
        phase = _choice(_str(obj, "phase", "state", default="A"), ("A", "B", "C", "D"), "phase")
        brawl = obj.get("brawl")
        if brawl is not None and (
            not isinstance(brawl, list)
            or len(brawl) != 2
            or any(isinstance(b, bool) or not isinstance(b, int) for b in brawl)
        ):
            raise InvalidInput(f"state: 'brawl' must be null or [attacker, defender], got {brawl!r}")
        game = cls(
            armies,
            _int(obj, "centre", "state"),
            _int(obj, "current", "state", default=0),
            phase,
            _bool(obj, "reinforced", "state") if "reinforced" in obj else False,
            None if obj.get("combat") is None else Combat.from_json(obj["combat"]),
            None if brawl is None else (brawl[0], brawl[1]),
            tuple(TossRequest.from_json(t) for t in _list(obj, "tosses", "state")),
            None if obj.get("outcome") is None else Outcome.from_json(obj["outcome"]),
        )
        game.validate()
        return game

    def validate(self) -> None:
        """Checks that a state read from JSON is possible (indices in range, no negative counts)."""
        n = len(self.armies)
        if not 0 <= self.current < n:
            raise InvalidInput(f"state: current player {self.current} is not one of 0..{n - 1}")
        for army in self.armies:
            if army.troops < 0:
                raise InvalidInput(f"state: army {army.name!r} has negative troops")
        for t in self.tosses:
            if not 0 <= t.player < n:
                raise InvalidInput(f"state: toss for player {t.player} out of range")
            army = self.armies[t.player]
            if t.machine is not None and t.machine >= len(army.machines):
                raise InvalidInput(f"state: toss names machine {t.machine} of {army.name!r}, which has none")
            if t.hero is not None and t.hero >= len(army.heroes):
                raise InvalidInput(f"state: toss names hero {t.hero} of {army.name!r}, which has none")
        if self.combat is not None and any(
            not 0 <= i < len(self.armies[self.current].machines) for i in self.combat.cannons
        ):
            raise InvalidInput(f"state: the combat names missing cannons {list(self.combat.cannons)!r}")
        if self.brawl is not None and not all(0 <= p < n for p in self.brawl):
            raise InvalidInput(f"state: brawl {list(self.brawl)!r} names a missing player")
        if self.outcome is not None and not all(0 <= p < n for p in self.outcome.winners):
            raise InvalidInput(f"state: outcome names a missing player {list(self.outcome.winners)!r}")


class LegalEvents:
    """The events allowed now (tosses excepted: any split of the awaited count is legal)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __iter__(self) -> Iterator[Event]:
        g = self.game
        wait = g.awaiting
        if wait == "toss":
            t = g.tosses[0]
            for dead in range(t.count + 1):
                yield Toss(t.count - dead, dead)
            return
        if wait == "fire_cannon":
            yield FireCannon(True)
            yield FireCannon(False)
            return
        if wait == "declare":
            yield Declare(False)
            yield Declare(True)
            return
        if wait == "shout":
            assert g.outcome is not None
            for p in g.outcome.winners:
                yield Shout(p)
            return
        if wait == "choose_heroes" or g.outcome is not None:
            return  # hero choices are subsets: checked by ``in``, not listed
        army = g.armies[g.current]
        if g.phase == "A" and not g.reinforced:
            for n in range(3):
                yield Reinforce(n)
        if g.phase in ("A", "B"):
            yield NoCombat()
            for p in range(len(g.armies)):
                if p != g.current:
                    yield Brawl(p)
        if g.phase == "D":
            for i, m in enumerate(army.machines):
                if not m.crewed and army.troops >= m.crew_size - m.crew:
                    yield Recrew(i)
            yield EndTurn()

    def __contains__(self, event: object) -> bool:
        return isinstance(event, EVENT_CLASSES) and applies(apply, self.game, event)

    def __bool__(self) -> bool:
        return any(True for _ in self) or self.game.awaiting == "choose_heroes"

    def count(self) -> int:
        return sum(1 for _ in self)


# ------------------------------------------------------------------------------------------------- apply


def _set_army(game: Game, player: int, army: Army) -> tuple[Army, ...]:
    return tuple(army if i == player else a for i, a in enumerate(game.armies))


def _drop_machine(army: Army, index: int) -> Army:
    return replace(army, machines=army.machines[:index] + army.machines[index + 1 :])


def _shift_after_removal(tosses: tuple[TossRequest, ...], player: int, index: int) -> tuple[TossRequest, ...]:
    out = []
    for t in tosses:
        if t.player == player and t.machine is not None:
            if t.machine == index:
                continue
            if t.machine > index:
                t = replace(t, machine=t.machine - 1)
        out.append(t)
    return tuple(out)


def _cannons(army: Army) -> tuple[int, ...]:
    return tuple(i for i, m in enumerate(army.machines) if m.kind == "cannon" and m.crewed)


def _player(game: Game, player: int) -> Army:
    if not 0 <= player < len(game.armies):
        raise IllegalAction(_say("goblins.error.no_player", player=player, last=len(game.armies) - 1))
    return game.armies[player]


def apply(game: Game, event: Event) -> Game:
    """The game after ``event``. Raises ``IllegalAction`` when the rules do not allow it now.

    In order: the end (only the tie-break's shout), the card effects any army may suffer at any time
    but during a toss, the decision the game waits for (``game.awaiting``, see ``_AWAITED``), then the
    event of the army whose turn it is (``_TURN``: one handler per event type).
    """
    wait = game.awaiting
    if game.outcome is not None:
        return _shout(game, event, wait)
    if isinstance(event, Shout):
        raise IllegalAction(_say("goblins.error.no_tie"))
    if isinstance(event, Adjust | DiscardHero | DiscardMachine):
        if wait == "toss":
            raise IllegalAction(_say("goblins.error.toss_first", event=repr(event_to_json(event))))
        return _card_effect(game, event)
    if wait == "toss":
        if not isinstance(event, Toss):
            raise IllegalAction(
                _say(
                    "goblins.error.toss_awaited", count=game.tosses[0].count, event=repr(event_to_json(event))
                )
            )
        return _toss(game, event)
    if isinstance(event, Toss):
        raise IllegalAction(_say("goblins.error.no_toss"))
    decision = _AWAITED.get(wait or "")
    if decision is not None:
        kind, refusal, step = decision
        if not isinstance(event, kind):
            raise IllegalAction(_say(refusal, event=repr(event_to_json(event))))
        return step(game, event)
    if isinstance(event, FireCannon | Declare | ChooseHeroes):
        raise IllegalAction(_say("goblins.error.not_awaited", event=repr(event.type)))
    turn = _TURN.get(type(event))
    if turn is None:
        raise InvalidInput(f"not a Goblins event: {event!r}")
    return turn(game, game.armies[game.current], event)


def _shout(game: Game, event: Event, wait: str | None) -> Game:
    """After the end, only the shout that breaks a tie («chi urla più forte»)."""
    assert game.outcome is not None
    if isinstance(event, Shout) and wait == "shout":
        if event.player not in game.outcome.winners:
            raise IllegalAction(
                _say("goblins.error.not_tied", player=event.player, tied=repr(list(game.outcome.winners)))
            )
        name = game.armies[event.player].name
        return replace(
            game, outcome=Outcome((event.player,), "shout"), log=(_say("goblins.log.shout", army=name),)
        )
    raise IllegalAction(_say("goblins.error.over", event=repr(event_to_json(event))))


def _reinforce(game: Game, army: Army, event: Reinforce) -> Game:
    if game.phase != "A" or game.reinforced:
        raise IllegalAction(_say("goblins.error.reinforce_once"))
    if not 0 <= event.goblins <= 2:
        raise IllegalAction(_say("goblins.error.reinforce_count", goblins=event.goblins))
    new = replace(army, troops=army.troops + event.goblins)
    return replace(
        game,
        armies=_set_army(game, game.current, new),
        reinforced=True,
        log=(
            _say(
                f"goblins.log.reinforce.{event.goblins}",
                army=army.name,
                goblins=event.goblins,
                cards=2 - event.goblins,
            ),
        ),
    )


def _play_hero(game: Game, army: Army, event: PlayHero) -> Game:
    if game.phase != "A":
        raise IllegalAction(_say("goblins.error.play_phase_a"))
    if army.troops < event.hero.cost:
        raise IllegalAction(
            _say(
                "goblins.error.hero_cost",
                hero=repr(event.hero.name),
                cost=event.hero.cost,
                army=army.name,
                troops=army.troops,
            )
        )
    new = replace(army, troops=army.troops - event.hero.cost, heroes=(*army.heroes, event.hero))
    text = _say("goblins.log.play_hero", army=army.name, hero=event.hero.name, cost=event.hero.cost)
    return replace(game, armies=_set_army(game, game.current, new), log=(text,))


def _play_machine(game: Game, army: Army, event: PlayMachine) -> Game:
    if game.phase != "A":
        raise IllegalAction(_say("goblins.error.play_phase_a"))
    m = event.machine
    if army.troops < m.crew_size:
        raise IllegalAction(
            _say(
                "goblins.error.machine_crew",
                machine=repr(m.name),
                crew=m.crew_size,
                army=army.name,
                troops=army.troops,
            )
        )
    new = replace(
        army,
        troops=army.troops - m.crew_size,
        machines=(*army.machines, replace(m, crew=m.crew_size)),
    )
    text = _say("goblins.log.play_machine", army=army.name, machine=m.name, crew=m.crew_size)
    return replace(game, armies=_set_army(game, game.current, new), log=(text,))


def _face_event(game: Game, army: Army, event: Face) -> Game:
    if game.phase not in ("A", "B", "C"):
        raise IllegalAction(_say("goblins.error.face_phase"))
    return _face(game, event.terrain)


def _no_combat(game: Game, army: Army, event: NoCombat) -> Game:
    if game.phase not in ("A", "B"):
        raise IllegalAction(_say("goblins.error.no_combat_phase"))
    return replace(game, phase="D", log=(_say("goblins.log.no_combat", army=army.name),))


def _recrew(game: Game, army: Army, event: Recrew) -> Game:
    if game.phase != "D":
        raise IllegalAction(_say("goblins.error.recrew_phase"))
    if not 0 <= event.machine < len(army.machines):
        raise IllegalAction(_say("goblins.error.no_machine", army=army.name, machine=event.machine))
    m = army.machines[event.machine]
    need = m.crew_size - m.crew
    if need == 0:
        raise IllegalAction(_say("goblins.error.crewed", machine=repr(m.name)))
    if army.troops < need:
        raise IllegalAction(
            _say(
                "goblins.error.recrew_troops",
                machine=repr(m.name),
                need=need,
                army=army.name,
                troops=army.troops,
            )
        )
    machines = tuple(
        replace(x, crew=x.crew_size) if i == event.machine else x for i, x in enumerate(army.machines)
    )
    new = replace(army, troops=army.troops - need, machines=machines)
    return replace(
        game,
        armies=_set_army(game, game.current, new),
        log=(_say("goblins.log.recrew", army=army.name, machine=m.name),),
    )


def _end_turn(game: Game, army: Army, event: EndTurn) -> Game:
    if game.phase != "D":
        raise IllegalAction(_say("goblins.error.end_phase", phase=game.phase))
    kept = tuple(m for m in army.machines if m.crewed)
    lost = [m.name for m in army.machines if not m.crewed]
    new = replace(army, machines=kept)
    nxt = (game.current + 1) % len(game.armies)
    text = (
        _say("goblins.log.end_turn_discarding", army=army.name, machines=", ".join(lost))
        if lost
        else _say("goblins.log.end_turn", army=army.name)
    )
    return replace(
        game,
        armies=_set_army(game, game.current, new),
        current=nxt,
        phase="A",
        reinforced=False,
        log=(text, _say("goblins.log.turn", army=game.armies[nxt].name)),
    )


_TURN: Final[Mapping[type, Callable[[Game, Army, Any], Game]]] = {
    Reinforce: _reinforce,
    PlayHero: _play_hero,
    PlayMachine: _play_machine,
    Face: _face_event,
    Brawl: lambda game, army, event: _brawl(game, event.defender),
    NoCombat: _no_combat,
    Recrew: _recrew,
    EndTurn: _end_turn,
}
"""The events of the army whose turn it is, when nothing else is awaited: one handler each."""


def _card_effect(game: Game, event: Adjust | DiscardHero | DiscardMachine) -> Game:
    army = _player(game, event.player)
    if isinstance(event, Adjust):
        if army.troops + event.troops < 0:
            raise IllegalAction(
                _say("goblins.error.adjust", army=army.name, troops=army.troops, eliminate=-event.troops)
            )
        new = replace(army, troops=army.troops + event.troops)
        text = _say("goblins.log.adjust", army=army.name, troops=f"{event.troops:+d}")
    elif isinstance(event, DiscardHero):
        if not 0 <= event.hero < len(army.heroes):
            raise IllegalAction(_say("goblins.error.no_hero", army=army.name, hero=event.hero))
        new = replace(army, heroes=army.heroes[: event.hero] + army.heroes[event.hero + 1 :])
        text = _say("goblins.log.discard_hero", army=army.name, hero=army.heroes[event.hero].name)
    else:
        if not 0 <= event.machine < len(army.machines):
            raise IllegalAction(_say("goblins.error.no_machine", army=army.name, machine=event.machine))
        if game.combat is not None and event.player == game.current:
            raise IllegalAction(_say("goblins.error.discard_in_combat"))
        new = _drop_machine(army, event.machine)
        text = _say("goblins.log.discard_machine", army=army.name, machine=army.machines[event.machine].name)
    game = replace(game, armies=_set_army(game, event.player, new), log=(text,))
    if game.combat is not None and game.combat.step == "declare" and event.player == game.current:
        game = _after_machines(replace(game, combat=replace(game.combat, step="tosses")))
    return game


def _face(game: Game, terrain: Terrain) -> Game:
    army = game.armies[game.current]
    if game.combat is not None:
        raise IllegalAction(_say("goblins.error.combat_on"))
    rams = tuple(
        TossRequest("ram", game.current, m.crew, machine=i)
        for i, m in enumerate(army.machines)
        if m.kind == "ram" and m.crewed
    )
    combat = Combat(terrain, cannons=_cannons(army))
    game = replace(
        game,
        phase="C",
        combat=combat,
        tosses=rams,
        log=(_say("goblins.log.face", army=army.name, terrain=terrain.name, defence=terrain.defence),),
    )
    return _advance(game)


def _advance(game: Game) -> Game:
    """Moves the combat on once no toss is awaited."""
    c = game.combat
    if c is None or game.tosses:
        return game
    if c.stage == "machines":
        if c.cannons:
            army = game.armies[game.current]
            if army.troops >= 2:
                return replace(game, combat=replace(c, step="cannon"))
            name = army.machines[c.cannons[0]].name
            text = _say("goblins.log.cannon_no_ammo", machine=name)
            return _advance(replace(game, combat=replace(c, cannons=c.cannons[1:]), log=(*game.log, text)))
        return _after_machines(game)
    if c.stage == "epic":
        army = game.armies[game.current]
        if c.all_dead:
            return _finish(game, won=True)
        survivors = tuple(
            TossRequest("survivor_crew", game.current, m.crew, machine=i)
            for i, m in enumerate(army.machines)
            if m.crew
        )
        if army.troops:
            survivors = (TossRequest("survivor_troops", game.current, army.troops), *survivors)
        text = _say("goblins.log.epic_failed")
        return (
            replace(game, combat=replace(c, stage="survivors"), tosses=survivors, log=(*game.log, text))
            if survivors
            else _finish(game, won=False)
        )
    return _finish(game, won=bool(c.won))


def active_reduction(army: Army, combat: Combat) -> int:
    """What the active machines take off the terrain's defence in ``combat``.

    While the machines are being tossed (stage ``"machines"``) ``combat.reduction`` holds what the Ram
    and Cannon tosses gave, and plain machines count while crewed; once the fight is decided the total is
    fixed in ``combat.reduction`` (a crew lost in the loss tosses does not change the defence faced).
    """
    if combat.stage != "machines":
        return combat.reduction
    return combat.reduction + sum(m.reduction for m in army.machines if m.kind == "plain" and m.crewed)


def _after_machines(game: Game) -> Game:
    c = game.combat
    assert c is not None
    army = game.armies[game.current]
    reduction = active_reduction(army, c)
    md = modified_defence(c.terrain, reduction)
    text = _say(
        "goblins.log.modified_defence",
        defence=c.terrain.defence,
        reduction=reduction,
        md=md,
        attack=army.attack,
    )
    if epic_death_allowed(army, c.terrain, reduction) and c.step != "declare":
        return replace(
            game, combat=replace(c, step="declare"), log=(*game.log, text, _say("goblins.log.epic_allowed"))
        )
    return _fight(replace(game, log=(*game.log, text)), epic=False)


def _fight(game: Game, *, epic: bool, heroes: Sequence[int] | None = None) -> Game:
    c = game.combat
    assert c is not None
    army = game.armies[game.current]
    reduction = active_reduction(army, c)
    md = modified_defence(c.terrain, reduction)
    if epic:
        tosses = tuple(
            TossRequest("epic_crew", game.current, m.crew, machine=i)
            for i, m in enumerate(army.machines)
            if m.crew
        )
        tosses = (TossRequest("epic_troops", game.current, army.troops), *tosses)
        return replace(
            game,
            combat=replace(c, step="tosses", stage="epic", epic=True, reduction=reduction),
            tosses=tosses,
            log=(*game.log, _say("goblins.log.epic", army=army.name)),
        )
    won = wins(army, c.terrain, reduction)
    if not requirements_met(army, c.terrain):
        verdict = _say(f"goblins.log.defeat_requires.{c.terrain.requires}", terrain=c.terrain.name)
    elif md <= 0:
        verdict = _say("goblins.log.automatic_victory")
    else:
        verdict = _say(f"goblins.log.{'victory' if won else 'defeat'}", attack=army.attack, md=md)
    if army.troops == 0 and len(army.heroes) > max(md, 0) > 0 and heroes is None:
        return replace(
            game,
            combat=replace(c, step="choose_heroes", stage="losses", reduction=reduction, won=won),
            log=(*game.log, verdict, _say("goblins.log.choose_heroes", md=md)),
        )
    tosses = loss_tosses(army, game.current, md, heroes)
    return _advance(
        replace(
            game,
            combat=replace(c, step="tosses", stage="losses", won=won, reduction=reduction),
            tosses=tosses,
            log=(*game.log, verdict) if heroes is None else game.log,  # the verdict came before the choice
        )
    )


def _fire(game: Game, event: FireCannon) -> Game:
    c = game.combat
    assert c is not None and c.cannons
    index, rest = c.cannons[0], c.cannons[1:]
    army = game.armies[game.current]
    if event.fire and army.troops < 2:
        raise IllegalAction(
            _say(
                "goblins.error.cannon_ammo",
                machine=army.machines[index].name,
                army=army.name,
                troops=army.troops,
            )
        )
    if event.fire:
        return replace(
            game,
            combat=replace(c, step="tosses", cannons=rest),
            tosses=(TossRequest("cannon", game.current, 2, machine=index),),
            log=(_say("goblins.log.cannon_fires", machine=army.machines[index].name),),
        )
    return _advance(
        replace(
            game,
            combat=replace(c, step="tosses", cannons=rest),
            log=(_say("goblins.log.cannon_holds", machine=army.machines[index].name),),
        )
    )


def _declare(game: Game, event: Declare) -> Game:
    return _fight(replace(game, log=()), epic=event.epic)


def _choose_heroes(game: Game, event: ChooseHeroes) -> Game:
    c = game.combat
    assert c is not None
    return _fight(replace(game, combat=replace(c, step="tosses"), log=()), epic=False, heroes=event.heroes)


def _finish(game: Game, *, won: bool) -> Game:
    c = game.combat
    assert c is not None
    army = game.armies[game.current]
    if won:
        new = replace(army, troops=army.troops + c.terrain.vp, pile=(*army.pile, c.terrain))
        centre = game.centre - (1 if c.terrain.kind == "centre" else 0)
        text = _say(
            "goblins.log.conquest", army=army.name, terrain=c.terrain.name, vp=c.terrain.vp, total=new.vp
        )
        game = replace(
            game,
            armies=_set_army(game, game.current, new),
            centre=centre,
            combat=None,
            phase="D",
            log=(*game.log, text),
        )
        if centre <= 0:
            order = ranking(game.armies)
            best = standing(game.armies[order[0]])
            winners = tuple(p for p in order if standing(game.armies[p]) == best)
            return replace(game, outcome=Outcome(winners), log=(*game.log, _say("goblins.log.centre_taken")))
        return game
    text = _say("goblins.log.defeated", army=army.name, terrain=c.terrain.name)
    return replace(game, combat=None, phase="D", log=(*game.log, text))


def _brawl(game: Game, defender: int) -> Game:
    if defender == game.current:
        raise IllegalAction(_say("goblins.error.brawl_self"))
    if game.combat is not None:
        raise IllegalAction(_say("goblins.error.combat_first"))
    a, d = game.current, defender
    att, dfn = game.armies[a], _player(game, d)
    va, vd = att.brawl_attack, dfn.brawl_attack
    armies = list(game.armies)
    log = [_say("goblins.log.brawl", attacker=att.name, attack=va, defender=dfn.name, defence=vd)]
    if va == vd:
        if att.pile and dfn.pile:
            armies[a] = replace(att, pile=(*att.pile[:-1], dfn.pile[-1]))
            armies[d] = replace(dfn, pile=(*dfn.pile[:-1], att.pile[-1]))
            log.append(_say("goblins.log.brawl_swap"))
        else:
            log.append(_say("goblins.log.brawl_tie_empty"))
        log.append(_say("goblins.log.back", army=att.name))
    else:
        w, lo = (a, d) if va > vd else (d, a)
        winner, loser = armies[w], armies[lo]
        if loser.pile:
            armies[w] = replace(winner, pile=(*winner.pile, loser.pile[-1]))
            armies[lo] = replace(loser, pile=loser.pile[:-1])
            log.append(
                _say("goblins.log.brawl_won", winner=winner.name, card=loser.pile[-1].name, loser=loser.name)
            )
        else:
            log.append(_say("goblins.log.brawl_won_empty", winner=winner.name, loser=loser.name))
        log.append(_say("goblins.log.moves_adjacent", army=loser.name))
    budget = min(va, vd)
    log.append(_say("goblins.log.brawl_losses", budget=budget))
    tosses = brawl_tosses(armies[a], a, budget) + brawl_tosses(armies[d], d, budget)
    game = replace(game, armies=tuple(armies), brawl=(a, d), tosses=tosses, log=tuple(log))
    return game if tosses else _end_brawl(game)


def _end_brawl(game: Game) -> Game:
    return replace(game, brawl=None, phase="D" if game.phase in ("A", "B") else game.phase)


def _toss(game: Game, event: Toss) -> Game:
    t = game.tosses[0]
    if event.alive + event.dead != t.count:
        raise IllegalAction(
            _say(
                "goblins.error.toss_count",
                count=t.count,
                alive=event.alive,
                dead=event.dead,
                total=event.alive + event.dead,
            )
        )
    rest = game.tosses[1:]
    army = game.armies[t.player]
    c = game.combat
    log: list[str] = [
        _say(
            f"goblins.log.toss.{t.purpose}", army=army.name, count=t.count, alive=event.alive, dead=event.dead
        )
    ]
    if t.purpose == "ram":
        assert t.machine is not None and c is not None
        ram = army.machines[t.machine]
        if event.dead:
            army = _drop_machine(army, t.machine)
            rest = _shift_after_removal(rest, t.player, t.machine)
            c = replace(c, cannons=tuple(i - (i > t.machine) for i in c.cannons))
            log.append(_say("goblins.log.ram_removed", machine=ram.name))
        else:
            c = replace(c, reduction=c.reduction + ram.reduction)
            log.append(_say("goblins.log.ram_active", machine=ram.name, reduction=ram.reduction))
    elif t.purpose == "cannon":
        assert t.machine is not None and c is not None
        cannon = army.machines[t.machine]
        army = replace(army, troops=army.troops - event.dead)
        if event.dead:
            c = replace(c, reduction=c.reduction + cannon.reduction * event.dead)
            log.append(
                _say("goblins.log.ammo_dead", dead=event.dead, reduction=cannon.reduction * event.dead)
            )
        else:
            army = _drop_machine(army, t.machine)
            rest = _shift_after_removal(rest, t.player, t.machine)
            c = replace(c, cannons=tuple(i - (i > t.machine) for i in c.cannons))
            log.append(_say("goblins.log.cannon_discarded", machine=cannon.name))
    elif t.purpose in ("troops", "epic_troops", "survivor_troops"):
        army = replace(army, troops=army.troops - event.dead)
        if event.dead:
            log.append(_say("goblins.log.troops_lost", army=army.name, dead=event.dead))
    elif t.purpose in ("crew", "epic_crew", "survivor_crew"):
        assert t.machine is not None
        m = army.machines[t.machine]
        machines = tuple(
            replace(x, crew=x.crew - event.dead) if i == t.machine else x for i, x in enumerate(army.machines)
        )
        army = replace(army, machines=machines)
        if event.dead:
            log.append(_say("goblins.log.crew_lost", dead=event.dead, machine=m.name))
    elif t.purpose == "hero":
        assert t.hero is not None
        hero = army.heroes[t.hero]
        if event.dead:
            army = replace(army, heroes=army.heroes[: t.hero] + army.heroes[t.hero + 1 :])
            rest = tuple(
                replace(r, hero=r.hero - 1)
                if r.player == t.player and r.hero is not None and r.hero > t.hero
                else r
                for r in rest
            )
            log.append(_say("goblins.log.hero_dies", hero=hero.name))
        else:
            log.append(_say("goblins.log.hero_lives", hero=hero.name))
    if c is not None and t.purpose in ("epic_troops", "epic_crew") and event.alive:
        c = replace(c, all_dead=False)
    game = replace(game, armies=_set_army(game, t.player, army), combat=c, tosses=rest, log=tuple(log))
    if rest:
        return game
    if game.brawl is not None:
        return _end_brawl(game)
    return _advance(game)


def new_game(names: Sequence[str], centre: int = 1) -> Game:
    """Shorthand for ``Game.new``."""
    return Game.new(names, centre)


_AWAITED: Final[Mapping[str, tuple[type, str, Callable[[Game, Any], Game]]]] = {
    "fire_cannon": (FireCannon, "goblins.error.cannon_first", _fire),
    "declare": (Declare, "goblins.error.declare_first", _declare),
    "choose_heroes": (ChooseHeroes, "goblins.error.heroes_first", _choose_heroes),
}
"""The decisions the game waits for (``game.awaiting``): the event taken, the refusal of any other, and
its handler."""
