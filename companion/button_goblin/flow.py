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

Each action stands for an event of the match core (``companion.button_goblin.match``), which decides
what is legal: ``choices`` labels ``match.legal``, ``apply`` reads the JSON into an event and lets the
match apply it. The flow's own work is the table's: reading dice into slots and words for the page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

from companion.button_goblin import advisor
from companion.button_goblin import match as rules
from companion.button_goblin.core import (
    PASS,
    SKILL_NAMES,
    Attack,
    Die,
    Position,
    describe,
    match_outcome,
    refuse,
    scores,
)
from companion.button_goblin.jsonio import attack_action_json, attack_from_json
from companion.button_goblin.match import (
    Decline,
    Focus,
    Match,
    MatchEvent,
    Roll,
    Swing,
    needs_reading,
    physical,
)
from companion.button_goblin.roster import ROSTER, SWING_MAX, SWING_MIN, VE_MEANINGS
from companion.button_goblin.rules import RULES
from companion.errors import IllegalAction, InvalidInput
from companion.flow import JSON, Action, Choice, Expectation, Slot, TableFlow
from companion.messages import Message, message_json, word
from companion.reading import Die as SeenDie
from companion.reading import TableReading

Table = Match
"""The flow's state is the match (``companion.button_goblin.match``): the flow adds no state of its own."""

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

EVENT_KINDS: Final[Mapping[str, rules.EventKind]] = {
    "swing": "swing", "reading": "roll", "focus": "focus", "decline": "decline", "attack": "attack",
    "pass": "pass"}
"""The match event each action type stands for."""


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


def _suffixes(die: Die) -> list[tuple[str, int]]:
    """Each physical die of ``die`` with its slot suffix (``a``/``b`` for a twin's two)."""
    parts = physical(die)
    return [("" if len(parts) == 1 else "ab"[n], sides) for n, sides in enumerate(parts)]


def _slots(state: Table) -> list[Slot]:
    """One slot per physical die the match reads now (``match.to_read``)."""
    slots = []
    wanted = set(rules.to_read(state))
    for p, die, i in rules.rolled(state):
        if (p, i) not in wanted:
            continue
        parts = _suffixes(die)
        for n, (suffix, sides) in enumerate(parts):
            if not needs_reading(sides):
                continue
            half = "" if len(parts) == 1 else f" ({n + 1}/2)"
            slots.append(Slot(f"p{p}.{i}{suffix}", f"{state.names[p]} {die.size_text()}{half}", sides,
                              f"p{p}", 1, sides))
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


def _roll(state: Table, action: Action) -> Roll:
    """The match's ``Roll`` from a reading's slot values (a twin's two summed, d0 and d1 known)."""
    values = _values_from(action, _slots(state))
    wanted = set(rules.to_read(state))
    out = []
    for p, die, i in rules.rolled(state):
        if (p, i) in wanted:
            out.append((p, i, sum(values[f"p{p}.{i}{suffix}"] if needs_reading(sides) else sides
                                  for suffix, sides in _suffixes(die))))
    return Roll(tuple(out))


def _event(state: Table, action: Action) -> MatchEvent:
    """The match event an action stands for (its JSON checked; its legality is the match's)."""
    kind = action["type"]
    if kind == "swing":
        sizes = action.get("sizes", {})
        player = _player(action)
        if not isinstance(sizes, dict):
            raise InvalidInput(f"\"sizes\" must be an object like {{\"X\": 8}}, not {sizes!r}")
        return Swing(player, tuple(sizes.items()))
    if kind == "reading":
        return _roll(state, action)
    if kind == "focus":
        player = _player(action, state.focus_player)
        if player != state.focus_player:
            return Focus(player, ())  # the match refuses it: the focus is the other player's
        raw = action.get("dice")
        if not isinstance(raw, dict) or not raw:
            raise InvalidInput("a focus action needs \"dice\": {die index: lowered value}")
        dice = []
        for key, value in raw.items():
            try:
                index = int(key)
            except ValueError:
                raise InvalidInput(f"focus die index must be a number, not {key!r}") from None
            dice.append((index, _int(value, f"focus value of die {key}")))
        return Focus(player, tuple(dice))
    if kind == "decline":
        return Decline(_player(action, state.focus_player))
    if kind == "pass":
        return PASS
    body = {k: v for k, v in action.items() if k != "type"}
    if "kind" not in body:
        raise InvalidInput("an attack action needs \"kind\": power, skill, speed, berserk, shadow "
                           "or disintegration")
    body["type"] = body.pop("kind")
    assert state.position is not None
    return attack_from_json(body, state.position)


# ---------------------------------------------------------------------------------------- the flow


class ButtonGoblinFlow(TableFlow[Table]):
    """The ``companion.flow.Flow`` of Button Goblin."""

    form: ClassVar[Mapping[str, JSON]] = {
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
        return rules.from_setup(setup)

    def advise(self, state: Table, *, seed: int = 0) -> Mapping[str, JSON]:
        """What each legal attack of the player to move is worth (``advisor.to_json``): only asked for,
        never part of the view. ``IllegalAction`` unless the table is at a choice of attack."""
        if state.phase != "play" or state.position is None:
            raise IllegalAction(refuse("bg.illegal.no_advice", phase=repr(state.phase)))
        return advisor.to_json(advisor.advise(state.position, seed=seed))

    # -- apply ---------------------------------------------------------------------------------

    def apply(self, state: Table, action: Action) -> Table:
        """The match after ``action``: its JSON read into a match event, which the match applies (and
        refuses when ``match.legal`` does not hold it)."""
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise InvalidInput(f"an action is a JSON object with a \"type\", not {action!r}")
        kind = action["type"]
        rules.check_open(state)
        if kind not in EVENT_KINDS:
            raise InvalidInput(f"unknown action type {kind!r}; one of: {', '.join(EVENT_KINDS)}")
        unknown = sorted(set(action) - {"type", *ACTION_KEYS[kind]})
        if unknown:
            raise InvalidInput(f"a {kind!r} action has unknown key {unknown[0]!r}; "
                               f"known: {', '.join(ACTION_KEYS[kind]) or 'none besides type'}")
        rules.check_phase(state, EVENT_KINDS[kind])
        return rules.apply(state, _event(state, action))

    # -- questions -----------------------------------------------------------------------------

    def expects(self, state: Table) -> Expectation | None:
        if state.phase == "roll":
            prompt = "roll.tie" if state.tied_rolls else "roll.initial"
            return Expectation("dice", prompt, tuple(_slots(state)),
                               params={"round": state.round_number, "players": list(state.names)})
        if state.phase == "reroll" and state.reroll_player is not None:
            return Expectation("dice", "roll.reroll", tuple(_slots(state)),
                               params={"player": state.names[state.reroll_player]})
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
        """``match.legal``, labelled: the swing sizes, the focus moves, the attacks or the pass."""
        return [_label(state, event) for event in rules.legal(state)]

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


def _label(state: Table, event: MatchEvent) -> Choice:
    """The choice the players see for a legal event of the match."""
    if isinstance(event, Swing):
        name = state.names[event.player]
        if not event.sizes:
            sizes = state.sizes(event.player)
            shown = ", ".join(f"{k}=d{v}" for k, v in sorted(sizes.items()))
            return Choice({"type": "swing", "player": event.player, "sizes": {}}, f"{name}: keep {shown}",
                          "swing", "swing.keep", {"player": name, "sizes": sizes})
        ((letter, size),) = event.sizes
        return Choice({"type": "swing", "player": event.player, "sizes": {letter: size}},
                      f"{name}: swing {letter} = d{size}", "swing", "swing.size",
                      {"player": name, "letter": letter, "size": size})
    if isinstance(event, Focus):
        assert state.position is not None
        dice = state.position.players[event.player].dice
        words = ", ".join(f"{dice[i].size_text()} from {dice[i].value} down to {v}"
                          for i, v in sorted(event.dice))
        moved = {str(i): v for i, v in event.dice}
        return Choice({"type": "focus", "player": event.player, "dice": moved},
                      f"Focus: turn your {words} to take initiative", "focus", "focus.reduce",
                      {"player": state.names[event.player], "dice": dict(moved)})
    if isinstance(event, Decline):
        return Choice({"type": "decline", "player": event.player},
                      f"No focus: {state.names[1 - event.player]} keeps initiative", "focus", "focus.decline",
                      {"player": state.names[event.player]})
    assert state.position is not None
    if isinstance(event, Attack):
        return _attack_choice(state.position, event)
    return Choice({"type": "pass"}, f"Pass: {state.position.mover.name} has no legal attack", "pass", "pass")


def _attack_choice(position: Position, attack: Attack) -> Choice:
    action = {"type": "attack", "kind": attack.kind, **{k: v for k, v in attack_action_json(attack).items()
                                                      if k != "type"}}
    return Choice(action, describe(position, attack), attack.kind, f"attack.{attack.kind}",
                  {"fire": attack.fire_points(position), "attackers": list(attack.attackers),
                   "targets": list(attack.targets)})


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


FLOW: Final = ButtonGoblinFlow(RULES)
