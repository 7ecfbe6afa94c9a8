"""Button Goblin's ``companion.rules.Rules``: a whole match, or one round from rolled dice.

``new_game`` takes either setup and the state says which it is:

- ``{"players": [{"name", "button", "ve", "swing"}, ...]}`` (the table flow's setup): a ``Match``, first
  to three rounds, with the swing sizes, the roll, the focus duel, the attacks, their re-rolls and the
  rounds between (``companion.button_goblin.matchjson``); it ends with ``Outcome("match", (winner,))``.
- ``{"position": NOTATION}``: one round's ``Position``, its attacks and the pass
  (``companion.button_goblin.roundrules``); it ends with ``Outcome("round", (winner,))`` or
  ``Outcome("tie")``.

A state's JSON with a ``"phase"`` is a match's, any other a position's. Each method hands the state (or
the event) to the rules it belongs to, so a round answers exactly as it did before matches were here.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.button_goblin.core import Action, Position
from companion.button_goblin.match import Match, MatchEvent
from companion.button_goblin.matchjson import MATCH_RULES
from companion.button_goblin.roundrules import ROUND_RULES
from companion.rules import JSON, LegalView, Outcome, Rules

State = Match | Position
Event = MatchEvent | Action


class ButtonGoblinRules:
    """The rules of a match (``MATCH_RULES``) or of a round (``ROUND_RULES``), by the state given."""

    name = "button-goblin"
    title = "Button Goblin"

    @staticmethod
    def of(state: State) -> Rules[State, Event]:
        """The rules ``state`` is played by."""
        rules = MATCH_RULES if isinstance(state, Match) else ROUND_RULES
        return rules  # type: ignore[return-value]

    def new_game(self, setup: Mapping[str, JSON]) -> State:
        """A match from the flow's setup (``"players"``), else a round (``"position"``)."""
        if isinstance(setup, Mapping) and "players" in setup:
            return MATCH_RULES.new_game(setup)
        return ROUND_RULES.new_game(setup)

    def legal(self, state: State) -> LegalView[Event]:
        return self.of(state).legal(state)

    def apply(self, state: State, event: Event) -> State:
        return self.of(state).apply(state, event)

    def outcome(self, state: State) -> Outcome | None:
        return self.of(state).outcome(state)

    def awaiting(self, state: State) -> tuple[int, ...]:
        return self.of(state).awaiting(state)

    def event_to_json(self, event: Event) -> dict[str, JSON]:
        return MATCH_RULES.event_to_json(event)  # a round's attacks and pass are a match's too

    def event_from_json(self, state: State, data: JSON) -> Event:
        return self.of(state).event_from_json(state, data)

    def event_notation(self, event: Event) -> str:
        return MATCH_RULES.event_notation(event)

    def parse_event(self, state: State, text: str) -> Event:
        return self.of(state).parse_event(state, text)

    def state_to_json(self, state: State) -> JSON:
        return self.of(state).state_to_json(state)

    def state_from_json(self, data: JSON) -> State:
        """A match's state (it has a ``"phase"``) or a round's position."""
        if isinstance(data, Mapping) and "phase" in data:
            return MATCH_RULES.state_from_json(data)
        return ROUND_RULES.state_from_json(data)

    def __repr__(self) -> str:
        return "<Button Goblin rules: a match, or a round>"


RULES: Rules[State, Event] = ButtonGoblinRules()

__all__ = ["MATCH_RULES", "ROUND_RULES", "RULES"]
