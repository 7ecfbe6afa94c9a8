"""The table session: one game at the table, driven by the camera, the buttons and the phones.

The session is game-agnostic: it drives any ``companion.flow.Flow`` and keeps the rules out of its own
code. What it owns:

- **the log**: every confirmed action goes to the :class:`~companion.store.Store` before the session
  moves on, and on start the session replays the log through the flow, so after a crash it stands at
  exactly the last confirmed step;
- **the camera proposes, a person confirms**: :meth:`TableSession.offer_reading` only makes a *proposal*;
  nothing changes until CONFIRM (:meth:`~TableSession.confirm`) or a correction
  (:meth:`~TableSession.correct`, kept in the log with ``"manual": true``);
- **the selected choice** that the NEXT button moves and CONFIRM applies;
- **a version** that grows with every change the page should see, and :meth:`~TableSession.wait_for_change`
  for the page's live stream.

Thread-safe: GPIO callbacks, the vision worker and the web server's threads call in at once, so every
public method runs under one re-entrant lock. Errors (``companion.errors``) leave everything as it was;
``step=`` arguments guard against a phone acting on a table that moved on (:class:`StaleStep`);
``position=`` (the snapshot's ``"position"``) also tells apart two steps of the same count, one of
them undone.
"""

from __future__ import annotations

import json
import logging
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from companion.dice import rolls_of
from companion.dicesizes import DIE_SIDES  # the types a person may give a die the camera saw (fix_die)
from companion.errors import GoblinError, IllegalAction, InvalidInput
from companion.flow import Action, Choice, Expectation, Flow
from companion.games import available_games, find_game
from companion.messages import speaker, word
from companion.reading import MAX_OBJECTS, BBox, Die, TableReading
from companion.store import Event, GameRecord, Source, Store

log = logging.getLogger(__name__)

#: Camera states the page knows.
CAMERA_STATES: Final = ("starting", "ok", "lost", "retrying", "stopped", "none")



#: The session's refusals and malformed inputs in English (what ``str(error)`` says), by message key. The
#: page translates the key (``web/i18n/{it,en}.json``); a ``what`` parameter is a word it names in its own
#: language (``error.what.<name>``).
MESSAGES: Final[Mapping[str, str]] = {
    "error.input.int": "{what} must be an integer, not {value}",
    "error.input.no_choice": "no choice {index}: there are {n} choices now{range}",
    "error.input.no_die": "no die {index}: the camera saw {n} dice{range}",
    "error.input.die_sides": "a die has {options} sides, not {value}",
    "error.input.die_value": "a d{sides} shows 1..{sides}, not {value}",
    "error.input.die_place": "a die's place is two numbers from 0 to 1 (\"x\", \"y\": fractions of the "
                             "picture's width and height), not {value}",
    "error.input.no_room": "the reading holds {most} dice already: no more can be added",
    "error.input.name": "{what} {value}: a name has at most {most} characters of valid Unicode",
    "error.session.no_game": "no game is being played: start one first",
    "error.session.stale_step": "step {step} is stale: the table is at step {current}",
    "error.session.stale_position": "position {position} is stale: the table is at {current} "
                                    "(a step was undone or a game started since the page showed it)",
    "error.session.nothing_read": "nothing to confirm: the camera has no reading that fits ({prompt}); "
                                  "roll, or enter the values by hand",
    "error.session.nothing_selected": "nothing to confirm: select a choice first (NEXT)",
    "error.session.no_choices": "there is nothing to choose now",
    "error.session.no_choices_camera": "there is nothing to choose now: the camera should read the dice",
    "error.session.nothing_to_undo": "nothing to undo: no step of this game is confirmed yet",
    "error.session.nothing_to_fix": "the camera has read nothing to fix yet: enter the values by hand",
    "error.session.no_game_yet": "no game has been played yet",
    "error.session.no_such_game": "no game {game} in the log",
    "error.session.game_in_progress": "a match of {title} is in progress (step {step}): starting or resuming "
                                      "another one archives it; send \"archive\": true to go ahead",
    "error.session.not_resumable": "match {game} is over: it can be exported, not resumed",
    "error.session.no_advice": "{title} has no attack advisor",
}


_say = speaker(MESSAGES)


#: The most matches one page of the list holds (``matches()``); older ones come with ``before=``.
MATCHES_PAGE: Final = 50


class StaleStep(IllegalAction):
    """A request made for a step the table has left (another phone or a button was quicker)."""


class GameInProgress(IllegalAction):
    """A new game (or a resumed one) asked for while a match is in progress, without ``archive=True``."""

    code = "game-in-progress"


def _names(items: object) -> list[str]:
    if not isinstance(items, list):
        return []
    out = []
    for item in items:
        name = item.get("name") if isinstance(item, Mapping) else item
        if isinstance(name, str):
            out.append(name)
    return out


def match_summary(view: Mapping[str, Any], setup: Mapping[str, Any]) -> dict[str, Any]:
    """What the list of matches shows of a game: its players (or bands), whether it is over and who won
    (no name: a draw). Every game's view names them its own way."""
    players = _names(view.get("players")) or _names(view.get("bands")) or _names(setup.get("players"))
    outcome = view.get("outcome")
    winners: list[str] = []
    if isinstance(outcome, Mapping):
        names = outcome.get("winner_names")
        if isinstance(names, list):
            winners = [n for n in names if isinstance(n, str)]
        else:
            name = outcome.get("winner_name", outcome.get("name"))
            winners = [name] if isinstance(name, str) else []
    return {"players": players, "over": bool(view.get("over")), "winners": winners}


#: The most characters a player's or a band's name may have (they are shown on every phone).
MAX_NAME: Final = 40


def _text_ok(text: str) -> bool:
    """Valid Unicode that UTF-8 carries (no lone surrogate such as ``"\\ud800"``)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_names(setup: Mapping[str, Any]) -> None:
    """Raise InvalidInput unless every player's and band's name in ``setup`` is valid Unicode of at most
    :data:`MAX_NAME` characters (``players``: names or objects with a ``name``; ``bands``: objects with a
    ``name``). An empty name is the game's to default or refuse, and so are other shapes."""
    for key in ("players", "bands"):
        entries = setup.get(key)
        if not isinstance(entries, list):
            continue
        for n, entry in enumerate(entries):
            name = entry.get("name") if isinstance(entry, Mapping) else entry
            if not isinstance(name, str):
                continue
            if len(name) > MAX_NAME or not _text_ok(name):
                shown = repr(name[:MAX_NAME] + "...") if len(name) > MAX_NAME else repr(name)
                raise InvalidInput(_say("error.input.name", what=f"{key}[{n}]", value=shown, most=MAX_NAME))


def _check_int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(_say("error.input.int", what=word("error.what", what), value=repr(value)))
    return value


def _die_face(sides: object, value: object) -> tuple[int, int]:
    """A die's type and value as a person gave them, checked."""
    sides = _check_int(sides, "sides")
    value = _check_int(value, "value")
    if sides not in DIE_SIDES:
        raise InvalidInput(_say("error.input.die_sides", options=", ".join(map(str, DIE_SIDES)), value=sides))
    if not 1 <= value <= sides:
        raise InvalidInput(_say("error.input.die_value", sides=sides, value=value))
    return sides, value


def _place(value: object) -> float:
    """One coordinate of a tapped place: a finite number from 0 to 1."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value <= 1.0:
        raise InvalidInput(_say("error.input.die_place", value=repr(value)))
    return float(value)


def _placed_like(reading: TableReading, px: float, py: float) -> tuple[BBox, str | None]:
    """A die at (``px``, ``py``) like ``reading``'s others: a square there of their median long side (a
    twelfth of the frame's short side when there are none), inside the frame, in the zone of the die
    nearest to it (none when there are none)."""
    side = reading.die_side() or min(reading.width, reading.height) / 12
    side = max(1, min(round(side), reading.width, reading.height))
    x0 = min(max(0, round(px - side / 2)), reading.width - side)
    y0 = min(max(0, round(py - side / 2)), reading.height - side)
    nearest = min(reading.dice, default=None, key=lambda d: math.hypot(d.bbox[0] + d.bbox[2] / 2 - px,
                                                                      d.bbox[1] + d.bbox[3] / 2 - py))
    return (x0, y0, side, side), nearest.zone if nearest is not None else None


def unfit_reason(expectation: Expectation, reading: TableReading) -> tuple[str, dict[str, Any]] | None:
    """Why a camera reading that gives no proposal does not fit, as a message key the page translates and
    its values, where the players can act on it: no die (or token) in view, dice of another kind than the
    roll's (a d6 read where a d20 is rolled), dice whose faces could not be read. None when the reading
    holds dice that could fit (their values, zones or count do not): the page's general message."""
    if expectation.kind == "tokens":
        return ("table.unfit.no_tokens", {}) if not reading.tokens else None
    if not reading.dice:
        return "table.unfit.no_dice", {}
    wanted = [slot.sides for slot in expectation.slots]
    seen = [d.sides for d in reading.dice]
    if wanted and None not in wanted and None not in seen and not set(wanted) & set(seen):
        def kinds(sides: list[int | None]) -> str:
            return ", ".join(f"d{n}" for n in sorted({n for n in sides if n is not None}))
        return "table.unfit.sides", {"expected": kinds(wanted), "seen": kinds(seen)}
    if all(d.value is None for d in reading.dice):
        return "table.unfit.no_value", {}
    return None


def _plain(value: Any) -> Any:
    """A JSON-plain deep copy (tuples become lists, mappings dicts)."""
    return json.loads(json.dumps(value, allow_nan=False))


def expectation_json(expectation: Expectation | None) -> dict[str, Any] | None:
    """The page's form of a flow's :class:`~companion.flow.Expectation`."""
    if expectation is None:
        return None
    return {
        "kind": expectation.kind,
        "prompt": expectation.prompt,
        "params": _plain(dict(expectation.params)),
        "zone": expectation.zone,
        "count": expectation.count,
        "slots": [{"key": s.key, "label": s.label, "sides": s.sides, "zone": s.zone, "low": s.low,
                   "high": s.high if s.high is not None else s.sides} for s in expectation.slots],
    }


def choice_json(index: int, choice: Choice) -> dict[str, Any]:
    return {"index": index, "label": choice.label, "key": choice.key, "params": _plain(dict(choice.params)),
            "group": choice.group, "action": _plain(dict(choice.action))}


#: Steps of history the snapshot carries (the most recent); :meth:`TableSession.history` pages the rest.
HISTORY_RECENT: Final = 30
#: The most steps one :meth:`TableSession.history` page holds.
HISTORY_PAGE: Final = 500


class Snapshot(dict[str, Any]):
    """A snapshot (a plain dict) that also keeps the session's JSON text of it (``text``)."""

    __slots__ = ("text",)

    def __init__(self, data: dict[str, Any], text: str) -> None:
        super().__init__(data)
        self.text = text


class TableSession:
    """One table: the current game, rebuilt from the log, and what the camera and the players are doing.

    Parameters
    ----------
    store
        The event log; the session replays its current game on start.
    flows
        ``name -> Flow`` (default :func:`companion.games.find_game`); raises ``InvalidInput`` for an
        unknown game.
    """

    def __init__(self, store: Store, *, flows: Callable[[str], Flow[Any]] = find_game) -> None:
        self.store = store
        self._flows = flows
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._version = 0
        self._game_id: int | None = None
        self._flow: Flow[Any] | None = None
        self._setup: dict[str, Any] = {}
        self._states: list[Any] = []
        self._events: list[Event] = []
        self._choices: list[Choice] | None = None
        self._selected: int | None = None
        self._proposal: dict[str, Any] | None = None
        self._proposal_state: Any = None
        self._reading: dict[str, Any] | None = None
        self._seen: TableReading | None = None  # the camera's last reading (fix_die corrects it)
        self._seen_image = False
        self._removed = 0  # dice of the camera's last reading a person removed (not dice at all)
        self._image: bytes | None = None
        self._camera: dict[str, Any] = {"state": "none", "message": ""}
        self._notice: str | None = None
        self._message: str | None = None
        self._snapshot_text: str | None = None
        self._snapshot_version = -1
        self._said: dict[int, dict[str, Any] | None] = {}  # event id -> what the flow said it did
        #: called with the camera's reading (as confirmed, corrections included: a die a person added is
        #: ``"added"``) and how many of the camera's dice a person removed, after each confirmed proposal:
        #: ``serve`` keeps it with its frame in the table's own set (``companion.dataset``)
        self.on_reading_confirmed: Callable[[dict[str, Any], int], None] | None = None
        #: where a die a person added lies (``add_die``): ``(reading, x, y) -> (bbox or None, zone)`` with
        #: x, y in the reading's pixels; ``serve`` looks at the frame read there and the zones in force
        self.place_die: Callable[[TableReading, float, float], tuple[BBox | None, str | None]] | None = None
        with self._lock:
            record = store.load()
            if record is not None:
                self._replay(record)

    # -- loading ----------------------------------------------------------------------------------

    def _replay(self, record: GameRecord) -> None:
        """Rebuild ``record``'s state; an event the flow no longer accepts is dropped with what follows."""
        flow = self._flows(record.game)
        states = [flow.start(record.setup)]
        events: list[Event] = []
        for event in record.events:
            try:
                states.append(flow.apply(states[-1], event.action))
            except GoblinError as error:
                reason = f"replay: {error}"
                log.error("event log: step %d of game %d no longer applies (%s); it and the %d after it "
                          "are set aside", event.step, record.id, error, record.step - event.step)
                self.store.undo(record.id, event.step, reason)
                self._notice = (f"step {event.step} of the saved game no longer applies ({error}); "
                                f"the table resumes at step {event.step - 1}")
                break
            events.append(event)
        self._game_id, self._flow, self._setup = record.id, flow, record.setup
        self._states, self._events = states, events
        self._choices = None

    def _reset_turn(self) -> None:
        self._choices = None
        self._selected = None
        self._proposal = None
        self._proposal_state = None
        self._reading = None
        self._seen = None
        self._removed = 0
        self._notice = None
        self._message = None

    def _bump(self) -> None:
        self._version += 1
        self._changed.notify_all()

    # -- state -------------------------------------------------------------------------------------

    @property
    def version(self) -> int:
        with self._lock:
            return self._version

    @property
    def step(self) -> int:
        """How many actions of the current game are confirmed (0 before the first, or with no game)."""
        with self._lock:
            return len(self._events)

    @property
    def position(self) -> str:
        """The snapshot's ``"position"`` now (game, step, last event): what an answer worked out for the
        position at the table, such as :meth:`advice`, may be kept under."""
        with self._lock:
            return self._position()

    @property
    def game_id(self) -> int | None:
        """The log's id of the current game (a new game gets a new id)."""
        with self._lock:
            return self._game_id

    def _state(self) -> Any:
        return self._states[-1]

    def _need_game(self) -> Flow[Any]:
        if self._flow is None:
            raise IllegalAction(_say("error.session.no_game"))
        return self._flow

    def _position(self) -> str:
        """Which confirmed position the table is at: the game, the step, and the last event's identity.

        Unlike the step count, it changes when a step is undone and another one confirmed in its place,
        so a phone that missed both cannot act on a table it never saw."""
        last = self._events[-1].id if self._events else 0
        return f"{self._game_id or 0}:{len(self._events)}:{last}"

    def _check_step(self, step: int | None, position: str | None = None) -> None:
        if step is not None:
            _check_int(step, "step")
            current = len(self._events)
            if step != current:
                raise StaleStep(_say("error.session.stale_step", step=step, current=current))
        if position is not None:
            if not isinstance(position, str):
                raise InvalidInput(f"position must be the snapshot's \"position\" text, not {position!r}")
            if position != self._position():
                raise StaleStep(_say("error.session.stale_position", position=position,
                                     current=self._position()))

    def check_position(self, step: int | None = None, position: str | None = None) -> None:
        """Raise StaleStep unless ``step`` and ``position`` (each optional) are the table's now: for a
        request whose work is done elsewhere first (a phone's photo is read on the vision worker)."""
        with self._lock:
            self._check_step(step, position)

    def _current_choices(self) -> list[Choice]:
        if self._choices is None:
            self._choices = [] if self._flow is None else list(self._flow.choices(self._state()))
        return self._choices

    def expecting(self) -> dict[str, Any] | None:
        """What the camera should read now (the snapshot's ``expects``), or None."""
        with self._lock:
            if self._flow is None:
                return None
            return expectation_json(self._flow.expects(self._state()))

    # -- the page's view ---------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        """Everything the page shows, as plain JSON data (a fresh copy), with the JSON text it was read
        from (``.text``: what the API answers and the live streams send, written once per version)."""
        with self._lock:
            text = self.snapshot_json()
        return Snapshot(json.loads(text), text)

    def snapshot_json(self) -> str:
        """:meth:`snapshot` as JSON text, computed once per version (cheap for many live streams): ASCII
        and compact, the way the app's ``jsonify`` writes (``web``: keys in the session's order), so the
        API can answer with it as is."""
        with self._lock:
            if self._snapshot_version != self._version or self._snapshot_text is None:
                self._snapshot_text = json.dumps(self._build_snapshot(), allow_nan=False,
                                                 separators=(",", ":"))
                self._snapshot_version = self._version
            return self._snapshot_text

    def _build_snapshot(self) -> dict[str, Any]:
        flow = self._flow
        view = None if flow is None else _plain(dict(flow.view(self._state())))
        expects = None if flow is None else expectation_json(flow.expects(self._state()))
        return {
            "version": self._version,
            "step": len(self._events),
            "position": self._position(),
            "game_id": self._game_id,
            "game": None if flow is None else flow.game,
            "title": None if flow is None else flow.title,
            "view": view,
            "expects": expects,
            "proposal": self._proposal,  # JSON already: dumped with the rest
            "reading": self._reading,
            "choices": [choice_json(i, c) for i, c in enumerate(self._current_choices())],
            "selected": self._selected,
            "history": [self._history_entry(i, self._events[i])
                        for i in range(max(0, len(self._events) - HISTORY_RECENT), len(self._events))],
            "history_from": max(1, len(self._events) - HISTORY_RECENT + 1),
            "camera": dict(self._camera),
            "over": bool(view.get("over")) if view is not None else False,
            "can_undo": bool(self._events),
            "image": self._image is not None,
            "notice": self._notice,
            "message": self._message,
            "games": available_games(),
        }

    def advice(self, *, seed: int = 0) -> dict[str, Any]:
        """The game's advice for the position at the table (a flow's optional ``advise(state, seed=)``,
        Button Goblin's attack advisor), with the step it is for. Worked out outside the lock: the
        state is immutable, and the other phones are not kept waiting."""
        with self._lock:
            flow = self._need_game()
            state, step, position = self._state(), len(self._events), self._position()
        advise = getattr(flow, "advise", None)
        if advise is None:
            raise IllegalAction(_say("error.session.no_advice", title=flow.title))
        said = _plain(advise(state, seed=seed))
        return {"step": step, "position": position, "game": flow.game, "advice": said}

    def snapshot_text(self) -> tuple[int, str]:
        """The version and :meth:`snapshot_json` of the same moment (what a live stream sends)."""
        with self._lock:
            return self._version, self.snapshot_json()

    def history(self, start: int = 1, limit: int = HISTORY_PAGE) -> dict[str, Any]:
        """Confirmed steps ``start`` .. ``start + limit - 1`` of the current game (the snapshot carries only
        the last :data:`HISTORY_RECENT`): ``{"game_id", "steps", "from", "history": [...]}``."""
        start = _check_int(start, "first step")
        limit = _check_int(limit, "limit")
        if start < 1 or not 1 <= limit <= HISTORY_PAGE:
            raise InvalidInput(f"history pages start at step 1 or later and hold 1..{HISTORY_PAGE} steps, "
                               f"not from {start} limit {limit}")
        with self._lock:
            return {"game_id": self._game_id, "steps": len(self._events), "from": start,
                    "history": [self._history_entry(i, self._events[i])
                                for i in range(start - 1, min(len(self._events), start - 1 + limit))]}

    def _history_entry(self, index: int, event: Event) -> dict[str, Any]:
        """One step of the history; ``"said"`` (``{key, params, text}``) when the flow can say what it did
        from the table before it (``describe(state, action)``, optional), worked out once per event."""
        entry: dict[str, Any] = {"step": event.step, "action": event.action, "manual": event.manual,
                                 "source": event.source}
        if event.id not in self._said:
            describe = getattr(self._flow, "describe", None)
            said = None
            if describe is not None:
                try:
                    said = describe(self._states[index], event.action)
                except GoblinError as error:
                    log.warning("cannot describe step %d: %s", event.step, error)
                said = None if said is None else _plain(dict(said))
            self._said[event.id] = said
        if self._said[event.id] is not None:
            entry["said"] = self._said[event.id]
        return entry

    def wait_for_change(self, version: int, timeout: float) -> int:
        """Block until the version is above ``version`` or ``timeout`` seconds pass; the version now."""
        with self._changed:
            self._changed.wait_for(lambda: self._version > version, timeout)
            return self._version

    def image(self) -> bytes | None:
        """The latest annotated camera JPEG, or None."""
        with self._lock:
            return self._image

    def setup_schema(self, game: str) -> dict[str, Any]:
        """What the setup page asks for ``game``."""
        flow = self._flows(game)
        return dict(_plain(dict(flow.setup_schema())), game=flow.game, title=flow.title)

    # -- game -------------------------------------------------------------------------------------

    def in_progress(self) -> bool:
        """A match is at the table with a confirmed step and not over: replacing it needs ``archive``."""
        with self._lock:
            return (self._flow is not None and bool(self._events)
                    and not self._flow.view(self._state()).get("over"))

    def _check_archive(self, archive: bool) -> None:
        if not isinstance(archive, bool):
            raise InvalidInput(f"archive must be true or false, not {archive!r}")
        if not archive and self.in_progress():
            assert self._flow is not None
            raise GameInProgress(_say("error.session.game_in_progress", title=self._flow.title,
                                      game=self._flow.game, step=len(self._events)))

    def _summary(self) -> dict[str, Any] | None:
        """The current game's :func:`match_summary` (None: no game)."""
        if self._flow is None:
            return None
        return match_summary(_plain(dict(self._flow.view(self._state()))), self._setup)

    def new_game(self, game: str, setup: Mapping[str, Any], *, step: int | None = None,
                 position: str | None = None, archive: bool = False) -> Snapshot:
        """Start ``game`` with ``setup`` (the setup page's JSON). The match at the table is archived, never
        lost; while it is in progress (:meth:`in_progress`) that needs ``archive=True`` (the page asks),
        else :class:`GameInProgress`."""
        with self._lock:
            self._check_step(step, position)
            if not isinstance(game, str):
                raise InvalidInput(f"game must be a name such as 'button-goblin', not {game!r}")
            if not isinstance(setup, Mapping):
                raise InvalidInput(f"setup must be a JSON object, not {setup!r}")
            check_names(setup)
            flow = self._flows(game)
            state = flow.start(setup)
            self._check_archive(archive)
            previous = self._game_id
            game_id = self.store.start_game(flow.game, setup, summary=self._summary())
            self._game_id, self._flow, self._setup = game_id, flow, _plain(dict(setup))
            self._states, self._events = [state], []
            self._reset_turn()
            self._image = None  # the last match's photo (or frame) is not this one's: the camera shows anew
            self._bump()
            log.info("new game %d: %s%s", game_id, flow.game,
                     "" if previous is None else f" (game {previous} archived)")
            return self.snapshot()

    def resume(self, game_id: int, *, step: int | None = None, position: str | None = None,
               archive: bool = False) -> Snapshot:
        """Bring back archived match ``game_id`` that was not finished; the match at the table is
        archived (while in progress, that needs ``archive=True`` as for :meth:`new_game`)."""
        with self._lock:
            self._check_step(step, position)
            game_id = _check_int(game_id, "game")
            record = self.store.load(game_id)
            if record is None:
                raise IllegalAction(_say("error.session.no_such_game", game=game_id))
            if record.finished is not None:
                raise IllegalAction(_say("error.session.not_resumable", game=game_id))
            if game_id == self._game_id:
                return self.snapshot()
            self._check_archive(archive)
            self._flows(record.game)  # an unknown game is refused before anything changes
            previous = self._game_id
            self.store.resume(game_id, summary=self._summary())
            self._reset_turn()
            self._image = None  # the other match's photo is not this one's
            self._replay(record)
            self._bump()
            log.info("game %d resumed at step %d (game %s archived)", game_id, len(self._events), previous)
            return self.snapshot()

    def _commit(self, action: Action, source: Source, *, new_state: Any = None,
                proposal: Mapping[str, Any] | None = None) -> Snapshot:
        flow = self._need_game()
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise InvalidInput(f"an action is a JSON object with a \"type\", not {action!r}")
        plain = _plain(dict(action))
        if new_state is None:
            new_state = flow.apply(self._state(), plain)
        assert self._game_id is not None
        event = self.store.append(
            self._game_id, len(self._events) + 1, plain, source=source,
            proposal=None if proposal is None else proposal.get("action"),
            reading=None if proposal is None else proposal.get("reading"),
            rolls=rolls_of(flow.expects(self._state()), plain, source))  # the players' dice (companion.dice)
        self._states.append(new_state)
        self._events.append(event)
        self._reset_turn()
        if flow.view(new_state).get("over"):
            self.store.finish(self._game_id)
        self._bump()
        log.info("step %d (%s): %s", event.step, source, plain)
        return self.snapshot()

    def confirm(self, *, step: int | None = None,
                position: str | None = None) -> Snapshot:
        """CONFIRM: accept the camera's proposal if one waits, else apply the selected choice."""
        with self._lock:
            self._check_step(step, position)
            self._need_game()
            if self._proposal is not None:
                source: Source = "manual" if self._proposal.get("fixed") else "camera"
                reading = self._proposal.get("reading")
                removed = self._removed
                snapshot = self._commit(self._proposal["action"], source, new_state=self._proposal_state,
                                        proposal=self._proposal)
                if self.on_reading_confirmed is not None and isinstance(reading, dict):
                    try:
                        self.on_reading_confirmed(reading, removed)
                    except Exception:  # keeping the table's own photo must never undo a confirm
                        log.exception("keeping the confirmed reading for the table's set failed")
                return snapshot
            if self._selected is not None:
                return self._commit(self._current_choices()[self._selected].action, "choice")
            expects = self.expecting()
            if expects is not None:
                raise IllegalAction(_say("error.session.nothing_read", prompt=expects["prompt"]))
            raise IllegalAction(_say("error.session.nothing_selected"))

    def next_choice(self, *, step: int | None = None,
                position: str | None = None) -> Snapshot:
        """NEXT: select the next legal choice (after the last comes the first)."""
        with self._lock:
            self._check_step(step, position)
            self._need_game()
            choices = self._current_choices()
            if not choices:
                raise IllegalAction(_say("error.session.no_choices_camera" if self.expecting()
                                         else "error.session.no_choices"))
            self._selected = 0 if self._selected is None else (self._selected + 1) % len(choices)
            self._bump()
            return self.snapshot()

    def _choice_index(self, index: object) -> int:
        index = _check_int(index, "choice index")
        choices = self._current_choices()
        if not 0 <= index < len(choices):
            raise InvalidInput(_say("error.input.no_choice", index=index, n=len(choices),
                                    range=f" (0..{len(choices) - 1})" if choices else ""))
        return index

    def select(self, index: int, *, step: int | None = None,
                position: str | None = None) -> Snapshot:
        """Select choice ``index`` (what CONFIRM will apply), without applying it."""
        with self._lock:
            self._check_step(step, position)
            self._need_game()
            self._selected = self._choice_index(index)
            self._bump()
            return self.snapshot()

    def choose(self, index: int, *, step: int | None = None,
                position: str | None = None) -> Snapshot:
        """Apply choice ``index`` at once (a tap on the page)."""
        with self._lock:
            self._check_step(step, position)
            self._need_game()
            return self._commit(self._current_choices()[self._choice_index(index)].action, "choice")

    def correct(self, action: Mapping[str, Any], *, step: int | None = None,
                position: str | None = None) -> Snapshot:
        """Apply an action a person entered (usually a reading that fixes the camera's); logged as manual."""
        with self._lock:
            self._check_step(step, position)
            self._need_game()
            return self._commit(action, "manual", proposal=self._proposal)

    def undo(self, *, step: int | None = None,
                position: str | None = None) -> Snapshot:
        """Take back the last confirmed step of the current game (also after a restart)."""
        with self._lock:
            self._check_step(step, position)
            self._need_game()
            if not self._events:
                raise IllegalAction(_say("error.session.nothing_to_undo"))
            assert self._game_id is not None
            last = self._events[-1]
            was_over = bool(self._need_game().view(self._state()).get("over"))
            self.store.undo(self._game_id, last.step)
            self._events.pop()
            self._states.pop()
            if was_over:
                self.store.finish(self._game_id, False)
            self._reset_turn()
            self._bump()
            log.info("undo step %d: %s", last.step, last.action)
            return self.snapshot()

    # -- camera ------------------------------------------------------------------------------------

    def offer_reading(self, reading: TableReading | Mapping[str, Any], *,
                      image: bytes | None = None) -> Snapshot:
        """What the camera read (a ``TableReading``, or its JSON): becomes the proposal if it fits what is
        expected.

        Nothing is confirmed. A reading that does not fit clears the proposal (the table changed).
        """
        if not isinstance(reading, TableReading):
            reading = TableReading.from_json(reading)
        if image is not None and not isinstance(image, bytes | bytearray):
            raise InvalidInput(f"image must be JPEG bytes, not {type(image).__name__}")
        with self._lock:
            self._propose(reading, image=image is not None)
            if image is not None:
                self._image = bytes(image)
            self._bump()
            return self.snapshot()

    def fix_die(self, index: int, *, sides: int | None = None, value: int | None = None,
                remove: bool = False, step: int | None = None,
                position: str | None = None) -> Snapshot:
        """A person fixes one die of the camera's last reading: its type and value, or that it is no die
        at all (``remove``). The reading is proposed again as if the camera had read it so, and CONFIRM
        then logs it as manual. Nothing is confirmed here."""
        with self._lock:
            reading = self._reading_to_fix(step, position)
            dice = list(reading.dice)
            index = _check_int(index, "die index")
            if not 0 <= index < len(dice):
                raise InvalidInput(_say("error.input.no_die", index=index, n=len(dice),
                                        range=f" (0..{len(dice) - 1})" if dice else ""))
            if remove:
                self._removed += not dice[index].added
                del dice[index]
            else:
                dice[index] = dice[index].fixed(*_die_face(sides, value))
            self._propose(replace(reading, dice=tuple(dice)), image=self._seen_image, fixed=True)
            self._bump()
            return self.snapshot()

    def _reading_to_fix(self, step: int | None, position: str | None) -> TableReading:
        """The camera's last reading, which a person fixes at ``step`` (the lock held)."""
        self._check_step(step, position)
        self._need_game()
        if self._seen is None:
            raise IllegalAction(_say("error.session.nothing_to_fix"))
        return self._seen

    def add_die(self, x: float, y: float, *, sides: int, value: int, step: int | None = None,
                position: str | None = None) -> Snapshot:
        """A person adds a die the camera missed in its last reading: the die lies at ``x``, ``y``
        (fractions 0..1 of the picture's width and height, where they tapped it) and shows ``value`` on a
        ``sides``-sided die. Its box is what ``place_die`` finds there, else a square the size of the
        reading's other dice. The reading is proposed again with it, as ``fix_die`` does; the added die is
        manual, and a confirmed reading keeps its box in the table's own set. Nothing is confirmed here."""
        with self._lock:
            reading = self._reading_to_fix(step, position)
            if len(reading.dice) >= MAX_OBJECTS:
                raise InvalidInput(_say("error.input.no_room", most=MAX_OBJECTS))
            fx, fy = _place(x), _place(y)
            face = _die_face(sides, value)
            px, py = fx * reading.width, fy * reading.height
            bbox, zone = _placed_like(reading, px, py)
            if self.place_die is not None:
                try:
                    found, found_zone = self.place_die(reading, px, py)
                except Exception:  # looking closer must never lose what the person says
                    log.exception("placing an added die failed: it gets a box of the dice's size")
                else:
                    bbox, zone = found or bbox, found_zone or zone
            die = Die(bbox, None, None, 1.0, zone, added=True).fixed(*face)
            self._propose(replace(reading, dice=(*reading.dice, die)), image=self._seen_image, fixed=True)
            self._bump()
            return self.snapshot()

    def _propose(self, reading: TableReading, *, image: bool, fixed: bool = False) -> None:
        """Make ``reading`` (with an ``image`` of its own or not) the table's current one, and its
        proposal if it fits. The proposal carries the reading's JSON: what the event log keeps."""
        proposal: dict[str, Any] | None = None
        proposal_state: Any = None
        why = "nothing is expected now"
        why_key: tuple[str, dict[str, Any]] | None = None
        expectation = None if self._flow is None else self._flow.expects(self._state())
        if self._flow is not None and expectation is not None:
            try:
                action = self._flow.propose(self._state(), reading)
            except Exception as error:
                raise InvalidInput(f"the reading does not fit the game: {error}") from error
            why = "the reading does not fit what is expected"
            why_key = unfit_reason(expectation, reading)
            if action is not None:
                try:
                    proposal_state = self._flow.apply(self._state(), action)
                except GoblinError as error:
                    why = f"the proposal does not apply: {error}"
                    why_key = None
                    log.warning("camera proposal %s does not apply: %s", action, error)
                else:
                    proposal = {"action": _plain(dict(action)), "reading": reading.to_json(),
                                "image": image}
                    if fixed:
                        proposal["fixed"] = True
        self._proposal, self._proposal_state = proposal, proposal_state
        self._seen, self._seen_image = reading, image
        if not fixed:   # the camera's own reading: nobody removed anything from it yet
            self._removed = 0
        key, params = why_key if proposal is None and why_key is not None else (None, {})
        self._reading = {"dice": len(reading.dice), "tokens": len(reading.tokens),
                         "fits": proposal is not None, "why": None if proposal is not None else why,
                         "why_key": key, "why_params": params,
                         "light": reading.light,
                         "fixed": fixed,
                         "seen": [{"index": i, "sides": d.sides, "value": d.value, "zone": d.zone,
                                   "manual": d.manual} for i, d in enumerate(reading.dice)]}

    def note(self, message: str) -> None:
        """Show a passing message (e.g. why a button press did nothing) until the table moves on."""
        with self._lock:
            self._message = str(message)
            self._bump()

    def set_image(self, image: bytes) -> None:
        """Show a new annotated camera JPEG without a reading."""
        with self._lock:
            self._image = bytes(image)
            self._bump()

    def set_camera_status(self, status: Mapping[str, Any]) -> None:
        """``{"state": "ok"|"lost"|"retrying"|..., "message": str}``; the page shows it."""
        if not isinstance(status, Mapping) or status.get("state") not in CAMERA_STATES:
            raise InvalidInput(f"camera status needs \"state\" in {CAMERA_STATES}, not {status!r}")
        new = {"message": "", **_plain(dict(status))}
        with self._lock:
            if new != self._camera:
                self._camera = new
                self._bump()

    # -- export ------------------------------------------------------------------------------------

    def export(self, game_id: int | None = None) -> dict[str, Any]:
        """A game (default: the current one) as JSON: setup, every live step, what was undone, final view."""
        with self._lock:
            record = self.store.load(game_id if game_id is not None else self._game_id, with_undone=True)
            if record is None:
                raise IllegalAction(_say("error.session.no_game_yet") if game_id is None
                                    else _say("error.session.no_such_game", game=game_id))
            flow = self._flows(record.game)
            live = sorted((e for e in record.events if e.undone is None), key=lambda e: e.step)
            if record.id == self._game_id:
                state = self._state()
            else:
                state = flow.start(record.setup)
                for event in live:
                    state = flow.apply(state, event.action)
            view = _plain(dict(flow.view(state)))
            return {
                "format": "goblin-companion/match-1",
                "game_id": record.id,
                "game": record.game,
                "title": flow.title,
                "setup": record.setup,
                "started": record.started,
                "finished": record.finished,
                "over": bool(view.get("over")),
                "steps": len(live),
                "events": [e.to_json() for e in live],
                "undone": [e.to_json() for e in record.events if e.undone is not None],
                "view": view,
                "exported": time.time(),
            }

    def games(self) -> list[dict[str, Any]]:
        """Every game in the log, newest first."""
        return self.store.games()

    def matches(self, *, limit: int = MATCHES_PAGE, before: int | None = None) -> dict[str, Any]:
        """A page of the list of matches, newest first: ``{"matches": [...], "more": bool}``, at most
        ``limit`` (1..:data:`MATCHES_PAGE`) with ids below ``before`` (None: from the newest). Each has
        ``game_id``, ``game``, ``title``, ``started``, ``finished``, ``archived`` (None for the one at the
        table), ``current``, ``steps``, ``players``, ``over``, ``winners`` and ``resumable`` (archived
        and not finished)."""
        limit = _check_int(limit, "limit")
        if before is not None:
            before = _check_int(before, "before")
        if not 1 <= limit <= MATCHES_PAGE:
            raise InvalidInput(f"a page of matches holds 1..{MATCHES_PAGE}, not {limit}")
        with self._lock:
            out = []
            rows = self.store.matches(limit=limit + 1, before=before)
            for row in rows[:limit]:
                if row["id"] == self._game_id:
                    summary = self._summary()
                else:
                    summary = row["summary"]
                    if summary is None:  # a file from before the list: computed once, then kept
                        summary = self._replayed_summary(row["id"])
                        self.store.set_summary(row["id"], summary)
                try:
                    title = self._flows(row["game"]).title
                except GoblinError:
                    title = row["game"]
                out.append({
                    "game_id": row["id"], "game": row["game"], "title": title, "started": row["started"],
                    "finished": row["finished"], "archived": row["archived"],
                    "current": row["id"] == self._game_id, "steps": row["steps"], **(summary or {}),
                    "resumable": row["archived"] is not None and row["finished"] is None,
                })
            return {"matches": out, "more": len(rows) > limit}

    def _replayed_summary(self, game_id: int) -> dict[str, Any]:
        record = self.store.load(game_id)
        assert record is not None
        try:
            flow = self._flows(record.game)
            state = flow.start(record.setup)
            for event in record.events:
                state = flow.apply(state, event.action)
            return match_summary(_plain(dict(flow.view(state))), record.setup)
        except GoblinError as error:
            log.warning("event log: game %d does not replay (%s); listed from its setup", game_id, error)
            return match_summary({"over": record.finished is not None}, record.setup)

    def __repr__(self) -> str:
        game = None if self._flow is None else self._flow.game
        return f"<TableSession {game or 'no game'} step={len(self._events)} version={self._version}>"


def replay_actions(flow: Flow[Any], setup: Mapping[str, Any], actions: Sequence[Action]) -> Any:
    """The state after ``actions`` from ``setup`` (a helper for tests and tools)."""
    state = flow.start(setup)
    for action in actions:
        state = flow.apply(state, action)
    return state
