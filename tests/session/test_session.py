"""The table session over a real SQLite file: the camera proposes, a person confirms, the log remembers."""

from __future__ import annotations

import contextlib
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from companion.errors import IllegalAction, InvalidInput
from companion.session import GameInProgress, StaleStep, TableSession
from companion.store import Store
from tests.readings import camera
from tests.session.conftest import D6_SETUP, MIXED_SETUP, camera_reading, play_step


def without_version(snap: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in snap.items() if k != "version"}


def rolled(session: TableSession, seed: int = 1) -> dict[str, Any]:
    """A Button Goblin game of d6s whose first roll is confirmed; the snapshot after it."""
    session.new_game("button-goblin", D6_SETUP)
    return play_step(session, random.Random(seed))


def test_no_game_yet_is_a_valid_snapshot(session: TableSession) -> None:
    snap = session.snapshot()
    assert snap["game"] is None and snap["step"] == 0 and snap["choices"] == [] and not snap["can_undo"]
    assert "button-goblin" in snap["games"]
    with pytest.raises(IllegalAction, match="no game is being played"):
        session.confirm()
    with pytest.raises(IllegalAction, match="no game has been played yet"):
        session.export()


def test_the_camera_proposes_and_nothing_changes_until_confirm(session: TableSession, store: Store) -> None:
    snap = session.new_game("button-goblin", D6_SETUP)
    assert snap["expects"]["kind"] == "dice" and len(snap["expects"]["slots"]) == 8
    reading = camera_reading(snap, random.Random(3))
    offered = session.offer_reading(reading, image=b"\xff\xd8jpeg")
    assert offered["proposal"]["action"]["type"] == "reading"
    assert offered["proposal"]["image"] is True and session.image() == b"\xff\xd8jpeg"
    assert offered["step"] == 0 and offered["view"]["phase"] == "roll"
    assert store.load().step == 0  # type: ignore[union-attr]
    confirmed = session.confirm(step=0)
    assert confirmed["step"] == 1 and confirmed["proposal"] is None
    assert confirmed["view"]["phase"] in ("play", "focus")
    assert confirmed["history"] == [{"step": 1, "action": offered["proposal"]["action"], "manual": False,
                                     "source": "camera"}]
    event = store.load().events[0]  # type: ignore[union-attr]
    assert event.reading == reading and event.proposal == offered["proposal"]["action"]


def test_a_reading_that_does_not_fit_clears_the_proposal(session: TableSession) -> None:
    snap = session.new_game("button-goblin", D6_SETUP)
    session.offer_reading(camera_reading(snap, random.Random(1)))
    two_dice = camera({"dice": [{"sides": 6, "value": 2, "zone": "p0"},
                                {"sides": 6, "value": 5, "zone": "p1"}]})
    snap = session.offer_reading(two_dice)
    assert snap["proposal"] is None and snap["reading"]["fits"] is False and snap["reading"]["dice"] == 2
    with pytest.raises(IllegalAction, match="nothing to confirm: the camera has no reading that fits"):
        session.confirm()
    with pytest.raises(InvalidInput, match="a reading is a JSON object"):
        session.offer_reading([1, 2])  # type: ignore[arg-type]


def test_a_correction_is_kept_and_marked_manual(session: TableSession, store: Store) -> None:
    snap = session.new_game("button-goblin", D6_SETUP)
    proposed = session.offer_reading(camera_reading(snap, random.Random(2)))["proposal"]["action"]
    fixed = {"type": "reading", "values": {k: 6 if v != 6 else 5 for k, v in proposed["values"].items()}}
    snap = session.correct(fixed, step=0)
    assert snap["history"][-1]["manual"] is True and snap["history"][-1]["source"] == "manual"
    event = store.load().events[-1]  # type: ignore[union-attr]
    assert event.manual and event.action == fixed and event.proposal == proposed
    assert snap["view"]["players"][0]["dice"][1]["value"] == fixed["values"]["p0.1"]


def test_a_stale_step_changes_nothing(session: TableSession) -> None:
    snap = rolled(session)
    before = session.snapshot()
    for call in (lambda: session.confirm(step=0), lambda: session.choose(0, step=7),
                 lambda: session.undo(step=0), lambda: session.next_choice(step=2),
                 lambda: session.new_game("button-goblin", D6_SETUP, step=0)):
        with pytest.raises(StaleStep, match=f"is stale: the table is at step {snap['step']}"):
            call()
    assert session.snapshot() == before
    assert issubclass(StaleStep, IllegalAction) and issubclass(StaleStep, ValueError)
    with pytest.raises(InvalidInput, match="step must be an integer, not '1'"):
        session.confirm(step="1")  # type: ignore[arg-type]


def test_a_position_tells_apart_a_step_undone_and_redone(session: TableSession, store: Store) -> None:
    first = rolled(session, seed=1)
    old_phone = first["position"]                       # a phone falls asleep here
    assert first["position"] == f"{first['game_id']}:1:{store.load().events[-1].id}"  # type: ignore[union-attr]
    session.undo(step=1, position=old_phone)            # another phone undoes
    redone = play_step(session, random.Random(9))       # and confirms a different roll
    assert redone["step"] == first["step"] == 1 and redone["position"] != old_phone
    before = session.snapshot()
    stale = f"position {old_phone} is stale: the table is at {redone['position']}"
    with pytest.raises(StaleStep, match=stale):
        session.confirm(step=1, position=old_phone)     # the step count alone would let it through
    assert session.snapshot() == before
    with pytest.raises(InvalidInput, match="position must be the snapshot's"):
        session.undo(position=3)  # type: ignore[arg-type]
    snap = session.undo(step=1, position=redone["position"])  # the current position is accepted
    assert snap["step"] == 0
    again = session.new_game("button-goblin", D6_SETUP, position=snap["position"])
    with pytest.raises(StaleStep):                      # a new game is a new position, even at step 0
        session.new_game("button-goblin", D6_SETUP, position=snap["position"])
    with Store(store.path) as reopened:                 # the position survives a restart
        assert TableSession(reopened).snapshot()["position"] == again["position"]


def test_bad_input_leaves_the_state_and_version_unchanged(session: TableSession, store: Store) -> None:
    rolled(session)
    before = session.snapshot()
    bad: list[tuple[Any, type[Exception], str]] = [
        (lambda: session.choose(99), InvalidInput, "no choice 99: there are"),
        (lambda: session.select(-1), InvalidInput, "no choice -1"),
        (lambda: session.choose("first"), InvalidInput, "choice index must be an integer"),
        (lambda: session.correct({"type": "reading", "values": {}}), IllegalAction, "no dice are to be read"),
        (lambda: session.correct({"kind": "attack"}), InvalidInput, "an action is a JSON object with a"),
        (lambda: session.correct({"type": "fly"}), InvalidInput, "unknown action type 'fly'"),
        (lambda: session.new_game("chess", {}), InvalidInput, "unknown game 'chess'"),
        (lambda: session.new_game("button-goblin", {"players": [{"button": "Nobody"}]}), InvalidInput,
         "players"),
        (lambda: session.new_game("button-goblin", []), InvalidInput, "setup must be a JSON object"),
        (lambda: session.set_camera_status({"state": "melted"}), InvalidInput, "camera status needs"),
    ]
    for call, error, message in bad:
        with pytest.raises(error, match=message):
            call()
    assert session.snapshot() == before
    assert store.load().step == 1 and len(store.games()) == 1  # type: ignore[union-attr]


def test_next_cycles_the_choices_and_confirm_applies_the_selected_one(session: TableSession) -> None:
    snap = rolled(session)
    while snap["view"]["phase"] == "focus":  # decline focus, so an attack is to be chosen
        snap = session.choose(len(snap["choices"]) - 1)
    assert snap["view"]["phase"] == "play" and snap["selected"] is None
    count = len(snap["choices"])
    with pytest.raises(IllegalAction, match="select a choice first"):
        session.confirm()
    seen = [session.next_choice()["selected"] for _ in range(count + 1)]
    assert seen == [*range(count), 0]
    session.next_choice()
    chosen = session.snapshot()["choices"][1]["action"]
    snap = session.confirm(step=snap["step"])
    entry = dict(snap["history"][-1])
    said = entry.pop("said")  # what the attack did, said from the table before it
    assert entry == {"step": snap["step"], "action": chosen, "manual": False, "source": "choice"}
    assert said["key"].startswith("history.button-goblin.attack") and " captur" in said["text"]
    assert snap["selected"] is None


def test_undo_works_across_restarts(db: Path) -> None:
    rng = random.Random(5)
    with Store(db) as store:
        session = TableSession(store)
        session.new_game("button-goblin", MIXED_SETUP)
        for _ in range(12):
            play_step(session, rng)
        at_12 = session.snapshot()
    with Store(db) as store:
        again = TableSession(store)
        assert without_version(again.snapshot()) == without_version(at_12)
        undone = again.undo(step=12)
        assert undone["step"] == 11
    with Store(db) as store:
        third = TableSession(store)
        assert third.snapshot()["step"] == 11 and third.snapshot()["history"] == undone["history"]
        assert third.snapshot()["view"] == undone["view"]
        play_step(third, rng)
        assert third.step == 12
        record = store.load(with_undone=True)
        assert record is not None and [e.undone for e in record.events].count("undo") == 1


def test_undo_at_the_start_says_nothing_to_undo(session: TableSession) -> None:
    session.new_game("button-goblin", D6_SETUP)
    with pytest.raises(IllegalAction, match="nothing to undo"):
        session.undo()


def test_a_finished_match_exports_and_undo_reopens_it(session: TableSession, store: Store) -> None:
    rng = random.Random(0)
    session.new_game("button-goblin", D6_SETUP)
    while not session.snapshot()["over"]:
        play_step(session, rng)
    exported = session.export()
    assert exported["over"] and exported["game"] == "button-goblin" and exported["setup"] == D6_SETUP
    assert [e["step"] for e in exported["events"]] == list(range(1, exported["steps"] + 1))
    assert max(exported["view"]["rounds_won"]) == 3
    assert store.games()[0]["finished"] is not None
    session.undo()
    assert store.games()[0]["finished"] is None and not session.snapshot()["over"]
    assert len(session.export()["undone"]) == 1
    assert play_step(session, rng)["over"]
    with pytest.raises(IllegalAction, match="the match is over"):
        session.correct({"type": "pass"})


def test_an_event_the_rules_no_longer_accept_is_set_aside_on_replay(db: Path) -> None:
    with Store(db) as store:
        session = TableSession(store)
        rolled(session)
        assert store.load() is not None
        store.append(session.game_id or 0, 2, {"type": "swing", "player": 0, "sizes": {"X": 8}},
                     source="manual")
    with Store(db) as store:
        session = TableSession(store)
        snap = session.snapshot()
        assert snap["step"] == 1 and "step 2 of the saved game no longer applies" in snap["notice"]
        assert [e.undone for e in store.load(with_undone=True).events][-1].startswith("replay: ")  # type: ignore[union-attr]
        play_step(session, random.Random(1))
        assert session.step == 2


def test_a_new_game_keeps_the_old_one_exportable(session: TableSession) -> None:
    rolled(session)
    first = session.game_id
    with pytest.raises(GameInProgress, match="in progress"):
        session.new_game("button-goblin", MIXED_SETUP, step=1)
    session.new_game("button-goblin", MIXED_SETUP, step=1, archive=True)
    assert session.step == 0 and session.game_id != first
    old = session.export(first)
    assert old["steps"] == 1 and old["view"]["phase"] in ("play", "focus")


def test_wait_for_change_wakes_on_a_confirm_from_another_thread(session: TableSession) -> None:
    snap = session.new_game("button-goblin", D6_SETUP)
    session.offer_reading(camera_reading(snap, random.Random(4)))
    version = session.version
    assert session.wait_for_change(version, 0.05) == version  # nothing happened: timeout
    timer = threading.Timer(0.1, session.confirm)
    started = time.perf_counter()
    timer.start()
    woke = session.wait_for_change(version, 5.0)
    elapsed = time.perf_counter() - started
    timer.join()
    assert woke > version and elapsed < 2.0 and session.step == 1


def test_camera_status_bumps_the_version_only_when_it_changes(session: TableSession) -> None:
    version = session.version
    session.set_camera_status({"state": "lost", "message": "cable"})
    session.set_camera_status({"state": "lost", "message": "cable"})
    assert session.version == version + 1
    assert session.snapshot()["camera"] == {"state": "lost", "message": "cable"}


def test_threads_pressing_buttons_at_once_keep_the_log_consistent(db: Path) -> None:
    with Store(db) as store:
        session = TableSession(store)
        session.new_game("button-goblin", D6_SETUP)
        errors: list[BaseException] = []

        def player(seed: int) -> None:
            rng = random.Random(seed)
            for _ in range(40):
                try:
                    play_step(session, rng)
                except (IllegalAction, InvalidInput, AssertionError):
                    continue  # another thread moved the table on: a stale step or a cleared proposal
                except BaseException as error:  # pragma: no cover - what the test is looking for
                    errors.append(error)

        def presser() -> None:
            for _ in range(200):
                with contextlib.suppress(IllegalAction):
                    session.next_choice()
                session.snapshot()

        threads = [threading.Thread(target=player, args=(n,)) for n in range(4)]
        threads.append(threading.Thread(target=presser))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert errors == []
        steps = session.step
        assert steps > 10
        record = store.load()
        assert record is not None and [e.step for e in record.events] == list(range(1, steps + 1))
        live_view = session.snapshot()["view"]
    with Store(db) as store:
        assert TableSession(store).snapshot()["view"] == live_view


def test_a_reading_that_does_not_fit_says_what_the_players_can_change(session: TableSession) -> None:
    # Dadoteck rolls a d20: a d6 in view is named, for the page to say in the players' language
    session.new_game("dadoteck", {"players": ["Anna", "Bruno"]})
    reading = session.offer_reading(camera({"dice": [{"sides": 6, "value": 4}]}))["reading"]
    assert reading["fits"] is False
    assert reading["why_key"] == "table.unfit.sides"
    assert reading["why_params"] == {"expected": "d20", "seen": "d6"}
    reading = session.offer_reading(camera({"dice": []}))["reading"]
    assert (reading["why_key"], reading["why_params"]) == ("table.unfit.no_dice", {})
    reading = session.offer_reading(camera({"dice": [{"sides": 20, "value": None}]}))["reading"]
    assert reading["why_key"] == "table.unfit.no_value"
    # a die of unknown kind may be the d20: no claim about kinds, only that no face was read
    reading = session.offer_reading(camera({"dice": [{"sides": None, "value": None}]}))["reading"]
    assert reading["why_key"] == "table.unfit.no_value"
    snap = session.offer_reading(camera({"dice": [{"sides": 20, "value": 13}]}))
    assert snap["proposal"] is not None
    assert (snap["reading"]["why_key"], snap["reading"]["why_params"]) == (None, {})


def test_a_reading_of_the_right_dice_that_still_does_not_fit_keeps_the_general_reason(
        session: TableSession) -> None:
    snap = session.new_game("button-goblin", D6_SETUP)
    session.offer_reading(camera_reading(snap, random.Random(1)))
    two_dice = camera({"dice": [{"sides": 6, "value": 2, "zone": "p0"},
                                {"sides": 6, "value": 5, "zone": "p1"}]})
    reading = session.offer_reading(two_dice)["reading"]
    assert reading["why"] == "the reading does not fit what is expected" and reading["why_key"] is None
