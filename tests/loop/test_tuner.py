"""Tuning from the settings page (companion.tuner): a run in the background over the table's real set of
confirmed photos (the bundled demo photos, kept as three evenings of play), one run at a time, and
``/api/tune`` through the Flask test client."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.calibration import Calibrator
from companion.dataset import TableDataset
from companion.demo import DEMO_DIR
from companion.session import TableSession
from companion.tuner import (
    AUTO_EVERY,
    AUTO_FIRST,
    LEAST_PHOTOS,
    TooFewPhotos,
    Tuner,
    TuneRunning,
    TuneStopped,
    table_photos,
)
from tests.loop import labelled
from vision import Calibration
from vision.teach import EMBEDDING, HEAD_CLASSES, TableHead
from web import create_app

PIN = {"X-Table-PIN": "2468"}


def fill(data: TableDataset, evenings: int = 3) -> int:
    """The demo photos confirmed ``evenings`` times over, as the companion keeps them; how many photos."""
    truth = sorted(labelled.labels().values(), key=lambda r: r["file"])
    for _ in range(evenings):
        for r in truth:
            frame = cv2.imread(str(DEMO_DIR / r["file"]))
            data.add(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes(), r,
                     width=frame.shape[1], height=frame.shape[0])
    return evenings * len(truth)


@pytest.mark.slow
def test_a_background_run_measures_and_keeps_the_head_only_when_it_reads_better(tmp_path: Path) -> None:
    data = TableDataset(tmp_path / "dataset")
    calibrator = Calibrator(tmp_path / "calibration.json")
    tuner = Tuner(data, calibrator)
    assert tuner.state() == {"running": False, "photos": 0, "tuned": False, "last": None, "error": None,
                             "auto_in": None}
    with pytest.raises(TooFewPhotos, match=f"tune needs {LEAST_PHOTOS}"):
        tuner.start()
    photos = fill(data)
    started = tuner.start()
    assert started["running"] is True and started["photos"] == photos
    with pytest.raises(TuneRunning):
        tuner.start()                       # a second phone's tap while the first run reads
    tuner.wait(120)
    state = tuner.state()
    assert state["running"] is False and state["error"] is None
    last = state["last"]
    assert last["photos"] == photos and last["method"] == "head" and last["held_back_dice"] > 0
    better = last["right_after"] >= last["right_before"]
    kept = better and last["sure_wrong_after"] <= last["sure_wrong_before"]
    assert last["kept"] is kept and last["saved"] is kept and state["tuned"] is kept
    on_disk = Calibration.load(calibrator.path).head if calibrator.path.exists() else None
    assert (on_disk is not None) is kept


@pytest.mark.slow
def test_the_page_starts_a_run_with_the_pin_and_follows_it(tmp_path: Path, session: TableSession) -> None:
    data = TableDataset(tmp_path / "dataset")
    tuner = Tuner(data, Calibrator(tmp_path / "calibration.json"), auto=True)
    client = create_app({"TESTING": True, "TABLE_PIN": "2468"}, session=session, tuner=tuner).test_client()
    assert client.get("/api/tune").json["photos"] == 0
    assert client.post("/api/tune", json={}).status_code == 403            # the table's PIN first
    few = client.post("/api/tune", json={}, headers=PIN)
    assert few.status_code == 409 and few.json["error"] == "too-few-photos"
    fill(data)
    assert client.get("/api/tune").json["auto_in"] == AUTO_FIRST - 12
    assert f"Si adatta da solo tra {AUTO_FIRST - 12} foto confermate." in client.get("/settings").get_data(
        as_text=True)
    got = client.post("/api/tune", json={}, headers=PIN)
    assert got.status_code == 202 and got.json["running"] is True
    busy = client.post("/api/tune", json={}, headers=PIN)
    assert busy.status_code == 409 and busy.json["error"] == "tune-running"
    tuner.wait(120)
    assert client.get("/api/tune").json["last"]["photos"] == 12
    page = client.get("/settings").get_data(as_text=True)
    assert 'id="tune-button"' in page and "Adatta ai dadi del tavolo" in page
    assert "Foto confermate: 12." in page
    assert f"Si adatta da solo tra {AUTO_EVERY} foto confermate." in page      # counted from that run
    n = len(HEAD_CLASSES)
    tuner.calibrator.adopt_head(TableHead(np.ones((n, EMBEDDING)), np.zeros(n), "reader"))
    assert client.get("/api/tune").json["tuned"] is True
    assert client.post("/api/tune/forget", json={}).status_code == 403
    undone = client.post("/api/tune/forget", json={}, headers=PIN)
    assert undone.status_code == 200 and undone.json["tuned"] is False and not tuner.calibrator.path.exists()


def test_without_a_tuner_the_endpoints_say_so(session: TableSession) -> None:
    client = create_app({"TESTING": True}, session=session).test_client()
    got = client.get("/api/tune")
    assert got.status_code == 404 and "cannot tune" in got.json["detail"]
    assert 'id="tune"' not in client.get("/settings").get_data(as_text=True)


def confirm(data: TableDataset, tuner: Tuner, n: int) -> list[bool]:
    """``n`` demo photos confirmed one after another, as ``serve`` keeps them and tells the tuner: whether
    each started a run."""
    truth = sorted(labelled.labels().values(), key=lambda r: r["file"])
    started = []
    for i in range(n):
        r = truth[(len(data) + i) % len(truth)]
        frame = cv2.imread(str(DEMO_DIR / r["file"]))
        data.add(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes(), r,
                 width=frame.shape[1], height=frame.shape[0])
        started.append(tuner.note_confirmed())
    return started


@pytest.mark.slow
def test_runs_start_by_themselves_and_a_restart_does_not_set_the_count_back(tmp_path: Path) -> None:
    """The first run after ``AUTO_FIRST`` confirmed photos, then one every ``AUTO_EVERY``, counted in the
    table's set: a table switched off after every evening, with fewer confirms than that in one, was never
    tuned while the count lived in the companion's memory. A run the switching off cut short is run again."""
    data = TableDataset(tmp_path / "dataset")

    def switched_on() -> Tuner:
        return Tuner(data, Calibrator(tmp_path / "calibration.json"), auto=True)

    tuner = switched_on()
    assert not any(tuner.note_confirmed() for _ in range(AUTO_EVERY + 3))   # an empty set: nothing to tune
    assert not any(confirm(data, tuner, AUTO_FIRST - 1))                    # the first evening
    assert tuner.state()["auto_in"] == 1
    assert not Tuner(data, Calibrator(tmp_path / "calibration.json")).note_confirmed()   # auto_tune off
    tuner = switched_on()
    assert confirm(data, tuner, 1) == [True]
    tuner.stop(30)                                                          # switched off meanwhile
    assert tuner.state()["last"] is None
    tuner = switched_on()
    assert confirm(data, tuner, 1) == [True]                                # so it runs again
    tuner.wait(120)
    assert tuner.state()["last"]["photos"] == AUTO_FIRST + 1
    assert not any(confirm(data, tuner, AUTO_EVERY - 1))                    # counted from that run's start
    tuner = switched_on()
    assert confirm(data, tuner, 1) == [True] and tuner.state()["running"] is True
    tuner.stop(30)


def test_stopping_the_companion_ends_a_run_at_its_next_photo(tmp_path: Path) -> None:
    data = TableDataset(tmp_path / "dataset")
    tuner = Tuner(data, Calibrator(tmp_path / "calibration.json"), auto=True)
    fill(data, evenings=7)                   # 28 photos: past AUTO_FIRST, so only the stop holds it back
    tuner.start()
    tuner.stop(30)
    state = tuner.state()
    assert state["running"] is False and state["last"] is None and state["error"] is None
    assert not (tmp_path / "calibration.json").exists()
    with pytest.raises(TuneStopped):
        tuner.start()
    assert tuner.note_confirmed() is False


def test_a_run_reads_the_set_as_it_was_when_it_started(tmp_path: Path) -> None:
    """Once the set is full every confirm drops its oldest photo; a run reads its held-back photos twice
    (before and after), so it reads from links made when it started."""
    data = TableDataset(tmp_path / "dataset", max_images=12)
    fill(data)
    frames = table_photos(data)
    (tmp_path / "first").mkdir()
    (tmp_path / "second").mkdir()
    pinned = frames.pinned(tmp_path / "first")
    min(data.root.glob("images/*.jpg")).unlink()           # the oldest photo dropped after the pinning
    assert len(pinned) == 12 and pinned[0][0].shape == frames[1][0].shape
    assert len(frames.pinned(tmp_path / "second")) == 11    # a photo already gone is left out

    tuner = Tuner(TableDataset(tmp_path / "set", max_images=12), Calibrator(tmp_path / "calibration.json"))
    fill(tuner.dataset)
    tuner.start()
    fill(tuner.dataset)                    # twelve more confirms drop every photo the run started with
    tuner.wait(120)
    state = tuner.state()
    assert state["error"] is None and state["last"]["photos"] == 12
    assert [p.name for p in (tmp_path / "set").iterdir() if p.name.startswith("tuning-")] == []
