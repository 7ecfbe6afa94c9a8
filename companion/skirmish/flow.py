"""The skirmish rules at the table: the flow between the rules core and the session.

The camera reads d6 dice: one slot per die of the roll the core awaits (two for the deployment and
first-card rolls, one per band, in zones ``p0``/``p1``; two for the rout test; three for a flight; one
or two for a charge; one for a test). Before every roll the page shows the target, every modifier and
the exact chance. After a failed roll that its hero's heroism points can turn, the reading is held
(the core's ``hold``) and the choices offer to spend points (they may be spent after seeing the roll).
Deaths call their morale and rout tests by themselves; the choices ask which friends stood within 5 cm
of the dead model (``mark_near``, then ``near``). The state is the core's ``Game``; ``choices`` words
``RULES.legal``.

Shots and assaults depend on table measurements: the choices offer the common cases (one shooter at an
enemy, an assault in base contact); the page's forms send the general actions (``view()["forms"]``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from companion.errors import IllegalAction, InvalidInput
from companion.flow import Action, Choice, Expectation, Flow, Slot, TableFlow
from companion.messages import Message, message_json, speaker
from companion.reading import TableReading
from companion.skirmish.checks import Check
from companion.skirmish.core import (
    CARD_NAMES,
    Assault,
    Band,
    ChooseFirst,
    EndCard,
    EndGame,
    Event,
    Game,
    Hold,
    Line,
    MarkNear,
    Near,
    OffTable,
    PlayCard,
    Roll,
    Shoot,
    Spend,
    event_to_json,
    heroism_need,
)
from companion.skirmish.rules import RULES

JSON = Any

ROLL_PROMPTS = {
    "deploy": "deployment: each band rolls a die, the lowest picks a side and deploys first",
    "first": "first card: each band rolls a die, the highest chooses who plays first",
    "charge": "charge",
    "tiro": "shooting test",
    "assalto": "assault test",
    "salvezza": "save",
    "morale": "morale test (4+)",
    "rout": "rout test (2d6, 8 or more)",
    "flee": "flight: 3d6 cm toward the model's own edge",
}


MESSAGES = {
    "skirmish.error.no_dice": "no dice are awaited now",
}
"""The flow's own refusals, in English, by message key (the core's are in ``core.MESSAGES``)."""


_say = speaker(MESSAGES)


def _check(check: Check) -> JSON:
    """A test as the page shows it before the roll, its label also as a message the page translates."""
    return {**check.describe(), "label_message": message_json(check.label)}


def _label(game: Game, event: Event) -> Choice | None:
    """A listed event in words, or None for what the players do not pick from a list (a roll is read
    by the camera or typed in, the game's end has its form)."""
    if isinstance(event, Roll | Hold | EndGame):
        return None
    action = event_to_json(event)
    if isinstance(event, Spend):
        if event.points == 0:
            return Choice(action, "Keep the roll (it fails)", "heroism", "skirmish.keep", {"points": 0})
        n = event.points
        return Choice(action, f"Spend {n} heroism point{'s' if n > 1 else ''}", "heroism", "skirmish.spend",
                      {"points": n})
    if isinstance(event, MarkNear):
        m, marked = game.bands[game.pending[0].band].models[event.model], event.model in game.near
        return Choice(action, f"{m.name} was within 5 cm" + (" ✓" if marked else ""), "near",
                      "skirmish.mark_near.marked" if marked else "skirmish.mark_near",
                      {"model": m.name, "marked": marked})
    if isinstance(event, Near):
        return Choice(action, "Done: no other friend within 5 cm", "near", "skirmish.near_done")
    if isinstance(event, OffTable):
        head = game.pending[0]
        name = game.bands[head.band].models[head.model or 0].name
        if event.off:
            return Choice(action, f"{name} left the table", "flee", "skirmish.off_table.yes",
                          {"off": True, "model": name})
        return Choice(action, f"{name} is still on the table", "flee", "skirmish.off_table.no",
                      {"off": False, "model": name})
    if isinstance(event, ChooseFirst):
        band = game.bands[event.band].name
        return Choice(action, f"{band} plays first", "order", "skirmish.choose_first", {"band": band})
    if isinstance(event, PlayCard):
        band, card = game.bands[game.to_play].name, CARD_NAMES[event.card]
        return Choice(action, f"{band} plays {card}", "card", "skirmish.play_card", {"card": card})
    if isinstance(event, EndCard):
        assert game.card is not None
        return Choice(action, f"End {CARD_NAMES[game.card]}", "card", "skirmish.end_card")
    raise AssertionError(f"a listed skirmish event the flow cannot word: {event!r}")


def _suggestion(game: Game, event: Shoot | Assault) -> Choice:
    """A common shot or assault, in words (the legal view takes it; it is not listed)."""
    band, enemy = game.bands[game.to_play], game.bands[1 - game.to_play]
    action = event_to_json(event)
    if isinstance(event, Assault):
        m, e = band.models[event.attacker], enemy.models[event.target]
        return Choice(action, f"{m.name} assaults {e.name} (in contact)", "assault", "skirmish.assault",
                      {"attacker": m.name, "target": e.name})
    line = event.lines[0]
    m, e = band.models[line.shooter], enemy.models[event.target]
    text = f"{m.name} shoots {e.name}" + (" in cover" if line.cover else "")
    text += " (nearest, within 30 cm, moved 8 cm or less)"
    return Choice(action, text, "shoot", "skirmish.shoot_cover" if line.cover else "skirmish.shoot",
                  {"shooter": m.name, "target": e.name, "cover": line.cover})


class SkirmishFlow(TableFlow[Game]):
    """The table flow of the skirmish rules (``companion.flow.Flow``) over the core's ``Game``."""

    form: ClassVar[Mapping[str, JSON]] = {
        "fields": [
            {
                "key": "bands",
                "type": "bands",
                "min": 2,
                "max": 2,
                "label": "Two bands: a name and its models",
                "item": {"name": "text", "models": "notations"},
                "model_example": "Lorien|T3|A3|S4|P20|eroe2|capitano",
                "model_help": "name|T4|A3|S5|P10 plus eroe1-4, possente, cavalleria, ignora_terreno, mago, "
                              "capitano",
            },
            {
                "key": "time_limit_min",
                "type": "int",
                "min": 0,
                "max": 600,
                "default": 60,
                "label": "Game clock in minutes (0: none; one hour is suggested)",
            },
        ],
    }

    def start(self, setup: Mapping[str, JSON]) -> Game:
        if not isinstance(setup, Mapping):
            raise InvalidInput(f"the setup must be a JSON object, got {setup!r}")
        bands = setup.get("bands")
        if not isinstance(bands, list) or len(bands) != 2:
            raise InvalidInput(f"setup 'bands' must be a list of two bands, got {bands!r}"[:200])
        minutes = setup.get("time_limit_min", 60)
        if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 0:
            raise InvalidInput(f"setup 'time_limit_min' must be a whole number of minutes, got {minutes!r}")
        return Game.new([Band.from_json(b) for b in bands], minutes * 60 or None)

    # ------------------------------------------------------------------------------------------ actions

    def apply(self, state: Game, action: Action) -> Game:
        """A reading (held for heroism when the rules allow it, else rolled), or a core event; a stored
        ``near_done`` (the flow's word before ``near`` was offered) answers with the friends marked."""
        if not isinstance(action, Mapping):
            raise InvalidInput(f"an action must be a JSON object, got {action!r}")
        kind = action.get("type")
        if kind == "reading":
            dice = self._reading(state, action)
            hold = Hold(dice)
            return RULES.apply(state, hold if hold in RULES.legal(state) else Roll(dice))
        if kind == "near_done":
            return RULES.apply(state, Near(state.near))
        return RULES.apply(state, RULES.event_from_json(state, action))

    def _reading(self, state: Game, action: Action) -> tuple[int, ...]:
        want = self.expects(state)
        if want is None:
            raise IllegalAction(_say("skirmish.error.no_dice"))
        values = action.get("values")
        if not isinstance(values, Mapping):
            raise InvalidInput(f"a dice reading needs 'values': {{slot: value}}, got {dict(action)!r}")
        dice = []
        for slot in want.slots:
            value = values.get(slot.key)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
                text = f"slot {slot.key!r} ({slot.label}) needs a d6 value 1-6, got {value!r}"
                raise InvalidInput(Message("error.input.slot_value", text,
                                           {"slot": slot.label, "sides": 6, "value": repr(value)}))
            dice.append(value)
        extra = set(values) - {s.key for s in want.slots}
        if extra:
            raise InvalidInput(f"the reading names slots that are not expected: {sorted(extra)!r}")
        return tuple(dice)

    # ----------------------------------------------------------------------------------------- readings

    def expects(self, state: Game) -> Expectation | None:
        game = state
        if game.held is not None or not game.pending or game.outcome is not None:
            return None
        head = game.pending[0]
        if head.kind in ("near", "off_table"):
            return None
        if head.kind in ("deploy", "first"):
            slots = tuple(Slot(f"p{i}", f"{game.bands[i].name} d6", 6, f"p{i}") for i in (0, 1))
        else:
            slots = tuple(Slot(f"d{i}", f"d6 #{i + 1}", 6) for i in range(head.dice))
        who = (
            game.bands[head.band].name
            if head.model is None
            else game.bands[head.band].models[head.model].name
        )
        params: dict[str, JSON] = {
            "band": game.bands[head.band].name,
            "who": who,
            "dice": head.dice,
            "what": ROLL_PROMPTS[head.kind],
        }
        if game.check is not None:
            params["check"] = _check(game.check)
        return Expectation(kind="dice", prompt=f"skirmish.roll.{head.kind}", slots=slots, params=params)

    def propose(self, state: Game, reading: TableReading) -> Action | None:
        want = self.expects(state)
        if want is None:
            return None
        dice = [d for d in reading.dice if d.sides in (6, None)]
        if any(d.value is None or not 1 <= d.value <= 6 for d in dice):
            return None  # a die the camera cannot read: the players enter it by hand
        if want.slots and want.slots[0].zone is not None:
            values = {}
            for slot in want.slots:
                here = [d for d in dice if d.zone == slot.zone]
                if len(here) != 1:
                    return None
                values[slot.key] = here[0].value
            return {"type": "reading", "values": values}
        if len(dice) != len(want.slots):
            return None
        ordered = sorted(dice, key=lambda d: d.bbox)
        return {
            "type": "reading",
            "values": {s.key: d.value for s, d in zip(want.slots, ordered, strict=True)},
        }

    # ------------------------------------------------------------------------------------------ choices

    def choices(self, state: Game) -> Sequence[Choice]:
        """``RULES.legal`` labelled (rolls come from the camera, the end of the game from its form), and
        the common shots and assaults (one shooter at an enemy within range, an assault in base contact)
        that the legal view takes, as suggestions: the rules decide, the flow only words them."""
        game = state
        legal = RULES.legal(game)
        out = [choice for event in legal if (choice := _label(game, event)) is not None]
        if game.stage == "card" and game.card is not None and not game.pending and game.outcome is None:
            band, enemy = game.bands[game.to_play], game.bands[1 - game.to_play]
            suggested: list[Shoot | Assault] = []
            for i in range(len(band.models)):
                for j in range(len(enemy.models)):
                    suggested += [Shoot((Line(i, 0.0, cover=cover),), j) for cover in (False, True)]
                    suggested.append(Assault(i, j))
            at = next(k for k, c in enumerate(out) if c.action["type"] == "end_card")
            out[at:at] = [_suggestion(game, event) for event in suggested if event in legal]
        return out

    # --------------------------------------------------------------------------------------------- view

    def view(self, state: Game) -> Mapping[str, JSON]:
        game = state
        bands = []
        for side, band in enumerate(game.bands):
            bands.append(
                {
                    "index": side,
                    "name": band.name,
                    "models": [
                        {
                            "index": i,
                            "name": m.name,
                            "profile": m.notation(),
                            "status": m.status,
                            "tiro": m.tiro,
                            "assalto": m.assalto,
                            "salvezza": m.salvezza,
                            "points": m.points,
                            "abilities": sorted(m.abilities),
                            "level": m.level,
                            "heroism": m.heroism,
                            "captain": m.captain,
                            "acted": side == game.to_play and i in game.acted,
                        }
                        for i, m in enumerate(band.models)
                    ],
                    "hand": [{"card": c, "name": CARD_NAMES[c]} for c in band.hand],
                    "played": [{"card": c, "name": CARD_NAMES[c]} for c in CARD_NAMES if c not in band.hand],
                    "turns": band.turns,
                    "strength": band.strength,
                    "start": len(band.models),
                    "below_half": band.below_half,
                    "rout_tested": band.rout_tested,
                    "vp": game.points[side],
                }
            )
        head = game.pending[0] if game.pending else None
        awaiting: JSON = None
        if head is not None:
            awaiting = {
                "kind": head.kind,
                "band": head.band,
                "model": head.model,
                "dice": head.dice,
                "what": ROLL_PROMPTS.get(head.kind, head.kind),
                "check": None if game.check is None else _check(game.check),
            }
        held: JSON = None
        if game.held is not None:
            need = heroism_need(game, game.held)
            held = {
                "dice": list(game.held),
                "spend_at_least": need[0] if need else None,
                "points": need[1] if need else 0,
            }
        pending = [
            {
                "kind": p.kind,
                "band": p.band,
                "band_name": game.bands[p.band].name,
                "model": p.model,
                "model_name": None if p.model is None else game.bands[p.band].models[p.model].name,
                "dice": p.dice,
                "what": ROLL_PROMPTS.get(p.kind, p.kind),
            }
            for p in game.pending
        ]
        outcome = game.outcome
        return {
            "game": self.game,
            "title": self.title,
            "phase": game.stage,
            "over": outcome is not None,
            "bands": bands,
            "to_play": game.to_play,
            "card": None if game.card is None else {"card": game.card, "name": CARD_NAMES[game.card]},
            "deploys_first": game.deploys_first,
            "chooser": game.chooser,
            "awaiting": awaiting,
            "pending": pending,
            "held": held,
            "near": list(game.near),
            "points": list(game.points),
            "turn": min(b.turns for b in game.bands) + 1,
            "clock": {"limit_s": game.time_limit, "elapsed_s": game.elapsed},
            "log": [message_json(line) for line in game.log],
            "outcome": None
            if outcome is None
            else {
                **outcome.to_json(),
                "winner_name": None if outcome.winner is None else game.bands[outcome.winner].name,
            },
            "forms": self._forms(state),
        }

    @staticmethod
    def _forms(state: Game) -> list[JSON]:
        game = state
        if game.outcome is not None or game.pending or game.held is not None:
            return []
        forms: list[JSON] = [
            {"type": "clock", "fields": {"elapsed": "seconds since the game began"}},
            {"type": "end_game", "fields": {}},
        ]
        if game.stage in ("play", "card"):
            forms.append({"type": "kill", "fields": {"band": "band index", "model": "model index"}})
        if game.stage == "card":
            forms.append(
                {
                    "type": "disengage",
                    "fields": {
                        "model": "model index leaving a combat",
                        "enemies": "enemy model indices in base contact",
                    },
                }
            )
        if game.stage == "card" and game.card is not None and game.card.startswith("tiro"):
            forms.append(
                {
                    "type": "shoot",
                    "fields": {
                        "target": "enemy model index",
                        "target_engaged": "bool",
                        "shooters": "list of {model, distance (cm), moved (cm), engaged, cover, "
                        "nearer: list of {cover, engaged}}",
                    },
                }
            )
        if game.stage == "card" and game.card is not None and game.card.startswith("assalto"):
            forms.append(
                {
                    "type": "assault",
                    "fields": {
                        "attacker": "model index",
                        "target": "enemy model index",
                        "distance": "cm left to base contact (0: in contact)",
                        "extra_contacts": "bool",
                        "contact_this_turn": "bool",
                    },
                }
            )
        return forms


FLOW: Flow[Game] = SkirmishFlow(RULES)
"""The flow ``companion.games.find_game("skirmish")`` returns (typed so mypy checks the protocol)."""
