"""The skirmish rules at the table: the flow between the rules core and the session.

The camera reads d6 dice: one slot per die of the roll the core awaits (two for the deployment and
first-card rolls, one per band, in zones ``p0``/``p1``; two for the rout test; three for a flight; one
or two for a charge; one for a test). Before every roll the page shows the target, every modifier and
the exact chance. After a failed roll by a hero with heroism points, the flow holds the dice and offers
to spend points (they may be spent after seeing the roll). Deaths call their morale and rout tests by
themselves; the flow asks which friends stood within 5 cm of the dead model.

Shots and assaults depend on table measurements: the choices offer the common cases (one shooter at an
enemy, an assault in base contact); the page's forms send the general actions (``view()["forms"]``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import IllegalAction, InvalidInput
from companion.flow import Action, Choice, Expectation, Flow, Slot
from companion.messages import Message, message_json
from companion.skirmish.checks import Check
from companion.skirmish.core import (
    CARD_NAMES,
    Assault,
    Band,
    Game,
    Line,
    Near,
    Roll,
    Shoot,
    apply,
    event_to_json,
    parse_event,
)

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
    "skirmish.error.nothing_held": "no roll is waiting for heroism points",
    "skirmish.error.spend_first": "say first whether heroism points are spent on the roll just read",
    "skirmish.error.no_death": "no death is waiting for the friends within 5 cm",
    "skirmish.error.not_in_play": "model {model} of {band} is not in play",
    "skirmish.error.no_dice": "no dice are awaited now",
}
"""The flow's own refusals, in English, by message key (the core's are in ``core.MESSAGES``)."""


def _say(key: str, /, **params: JSON) -> Message:
    return Message.of(MESSAGES, key, **params)


def _check(check: Check) -> JSON:
    """A test as the page shows it before the roll, its label also as a message the page translates."""
    return {**check.describe(), "label_message": message_json(check.label)}


@dataclass(frozen=True)
class Table:
    """The flow's state: the game, a roll held while heroism may be spent, the friends marked near."""

    game: Game
    held: tuple[int, ...] | None = None
    """Dice read and confirmed for a failed roll whose hero may still spend heroism points."""
    near: tuple[int, ...] = ()
    """Friends marked within 5 cm of the dead model, while the flow asks."""


def _needed(game: Game, dice: tuple[int, ...]) -> tuple[int, int] | None:
    """(fewest points that turn the roll, points available) when spending heroism could matter."""
    head = game.pending[0]
    if head.check is None or head.model is None or head.kind in ("deploy", "first"):
        return None
    points = game.bands[head.band].models[head.model].heroism
    need = head.check.target - sum(dice)
    if need <= 0 or points == 0 or need > points:
        return None
    return need, points


class SkirmishFlow:
    """The table flow of the skirmish rules (``companion.flow.Flow``)."""

    game = "skirmish"
    title = "Skirmish rules"

    def setup_schema(self) -> Mapping[str, JSON]:
        model = "name|T4|A3|S5|P10 plus eroe1-4, possente, cavalleria, ignora_terreno, mago, capitano"
        return {
            "game": self.game,
            "title": self.title,
            "fields": [
                {
                    "key": "bands",
                    "type": "bands",
                    "min": 2,
                    "max": 2,
                    "label": "Two bands: a name and its models",
                    "item": {"name": "text", "models": "notations"},
                    "model_example": "Lorien|T3|A3|S4|P20|eroe2|capitano",
                    "model_help": model,
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

    def start(self, setup: Mapping[str, JSON]) -> Table:
        if not isinstance(setup, Mapping):
            raise InvalidInput(f"the setup must be a JSON object, got {setup!r}")
        bands = setup.get("bands")
        if not isinstance(bands, list) or len(bands) != 2:
            raise InvalidInput(f"setup 'bands' must be a list of two bands, got {bands!r}"[:200])
        minutes = setup.get("time_limit_min", 60)
        if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 0:
            raise InvalidInput(f"setup 'time_limit_min' must be a whole number of minutes, got {minutes!r}")
        return Table(Game.new([Band.from_json(b) for b in bands], minutes * 60 or None))

    # ------------------------------------------------------------------------------------------ actions

    def apply(self, state: Table, action: Action) -> Table:
        if not isinstance(action, Mapping):
            raise InvalidInput(f"an action must be a JSON object, got {action!r}")
        kind = action.get("type")
        game = state.game
        if kind == "reading":
            return self._reading(state, action)
        if kind == "spend":
            if state.held is None:
                raise IllegalAction(_say("skirmish.error.nothing_held"))
            points = action.get("points")
            if isinstance(points, bool) or not isinstance(points, int) or points < 0:
                raise InvalidInput(f"'spend' needs a number of points, got {points!r}")
            return Table(apply(game, Roll(state.held, points)))
        if state.held is not None:
            raise IllegalAction(_say("skirmish.error.spend_first"))
        if kind == "mark_near":
            if not game.pending or game.pending[0].kind != "near":
                raise IllegalAction(_say("skirmish.error.no_death"))
            model = action.get("model")
            if isinstance(model, bool) or not isinstance(model, int):
                raise InvalidInput(f"'mark_near' needs a model index, got {model!r}")
            band = game.bands[game.pending[0].band]
            if not 0 <= model < len(band.models) or not band.models[model].in_play:
                raise IllegalAction(_say("skirmish.error.not_in_play", model=model, band=band.name))
            marked = tuple(sorted(set(state.near) ^ {model}))
            return replace(state, near=marked)
        if kind == "near_done":
            return Table(apply(game, Near(state.near)))
        return Table(apply(game, parse_event(action)))

    def _reading(self, state: Table, action: Action) -> Table:
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
        roll = tuple(dice)
        if _needed(state.game, roll) is not None:
            return Table(state.game, held=roll)
        return Table(apply(state.game, Roll(roll)))

    # ----------------------------------------------------------------------------------------- readings

    def expects(self, state: Table) -> Expectation | None:
        game = state.game
        if state.held is not None or not game.pending or game.outcome is not None:
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

    def propose(self, state: Table, reading: Mapping[str, JSON]) -> Action | None:
        want = self.expects(state)
        if want is None or not isinstance(reading, Mapping) or not isinstance(reading.get("dice"), list):
            return None
        dice = [d for d in reading["dice"] if isinstance(d, Mapping) and d.get("sides") in (6, None)]
        if any(not isinstance(d.get("value"), int) or not 1 <= d["value"] <= 6 for d in dice):
            return None  # a die the camera cannot read: the players enter it by hand
        if want.slots and want.slots[0].zone is not None:
            values = {}
            for slot in want.slots:
                here = [d for d in dice if d.get("zone") == slot.zone]
                if len(here) != 1:
                    return None
                values[slot.key] = here[0]["value"]
            return {"type": "reading", "values": values}
        if len(dice) != len(want.slots):
            return None
        ordered = sorted(dice, key=lambda d: tuple(d.get("bbox") or (0, 0)))
        return {
            "type": "reading",
            "values": {s.key: d["value"] for s, d in zip(want.slots, ordered, strict=True)},
        }

    # ------------------------------------------------------------------------------------------ choices

    def choices(self, state: Table) -> Sequence[Choice]:
        game = state.game
        if game.outcome is not None:
            return ()
        if state.held is not None:
            need = _needed(game, state.held)
            assert need is not None
            low, points = need
            out = [
                Choice(
                    {"type": "spend", "points": 0},
                    "Keep the roll (it fails)",
                    "heroism",
                    "skirmish.keep",
                    {"points": 0},
                )
            ]
            out += [
                Choice(
                    {"type": "spend", "points": n},
                    f"Spend {n} heroism point{'s' if n > 1 else ''}",
                    "heroism",
                    "skirmish.spend",
                    {"points": n},
                )
                for n in range(low, points + 1)
            ]
            return out
        if game.pending:
            head = game.pending[0]
            band = game.bands[head.band]
            if head.kind == "near":
                out = [
                    Choice(
                        {"type": "mark_near", "model": i},
                        f"{m.name} was within 5 cm" + (" ✓" if i in state.near else ""),
                        "near",
                        "skirmish.mark_near.marked" if i in state.near else "skirmish.mark_near",
                        {"model": m.name, "marked": i in state.near},
                    )
                    for i, m in enumerate(band.models)
                    if m.in_play
                ]
                out.append(
                    Choice(
                        {"type": "near_done"},
                        "Done: no other friend within 5 cm",
                        "near",
                        "skirmish.near_done",
                    )
                )
                return out
            if head.kind == "off_table":
                name = band.models[head.model or 0].name
                return [
                    Choice(
                        {"type": "off_table", "off": True},
                        f"{name} left the table",
                        "flee",
                        "skirmish.off_table.yes",
                        {"off": True, "model": name},
                    ),
                    Choice(
                        {"type": "off_table", "off": False},
                        f"{name} is still on the table",
                        "flee",
                        "skirmish.off_table.no",
                        {"off": False, "model": name},
                    ),
                ]
            return ()  # a roll is awaited: the camera or the correction form
        out = []
        if game.stage == "choose_first":
            for b in (0, 1):
                out.append(
                    Choice(
                        {"type": "choose_first", "band": b},
                        f"{game.bands[b].name} plays first",
                        "order",
                        "skirmish.choose_first",
                        {"band": game.bands[b].name},
                    )
                )
            return out
        side = game.to_play
        band, enemy = game.bands[side], game.bands[1 - side]
        if game.stage == "play":
            for card in band.hand:
                out.append(
                    Choice(
                        {"type": "play_card", "card": card},
                        f"{band.name} plays {CARD_NAMES[card]}",
                        "card",
                        "skirmish.play_card",
                        {"card": CARD_NAMES[card]},
                    )
                )
        if game.stage == "card" and game.card is not None:
            targets = [(j, e) for j, e in enumerate(enemy.models) if e.in_play]
            for i, m in enumerate(band.models):
                if not m.in_play or i in game.acted:
                    continue
                for j, e in targets:
                    tiro = game.card.startswith("tiro")
                    if tiro and m.tiro is not None and len(game.acted) < int(game.card[-1]):  # 2/3 shooters
                        for cover in (False, True):
                            event = Shoot((Line(i, 0.0, cover=cover),), j)
                            text = f"{m.name} shoots {e.name}" + (" in cover" if cover else "")
                            text += " (nearest, within 30 cm, moved 8 cm or less)"
                            out.append(
                                Choice(
                                    event_to_json(event),
                                    text,
                                    "shoot",
                                    "skirmish.shoot_cover" if cover else "skirmish.shoot",
                                    {"shooter": m.name, "target": e.name, "cover": cover},
                                )
                            )
                    if game.card.startswith("assalto") and len(game.acted) < int(game.card[-1]):
                        event2 = Assault(i, j)
                        out.append(
                            Choice(
                                event_to_json(event2),
                                f"{m.name} assaults {e.name} (in contact)",
                                "assault",
                                "skirmish.assault",
                                {"attacker": m.name, "target": e.name},
                            )
                        )
            out.append(
                Choice({"type": "end_card"}, f"End {CARD_NAMES[game.card]}", "card", "skirmish.end_card")
            )
        return out

    # --------------------------------------------------------------------------------------------- view

    def view(self, state: Table) -> Mapping[str, JSON]:
        game = state.game
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
        if state.held is not None:
            need = _needed(game, state.held)
            held = {
                "dice": list(state.held),
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
            "near": list(state.near),
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
    def _forms(state: Table) -> list[JSON]:
        game = state.game
        if game.outcome is not None or game.pending or state.held is not None:
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


FLOW: Flow[Table] = SkirmishFlow()
"""The flow ``companion.games.find_game("skirmish")`` returns (typed so mypy checks the protocol)."""
