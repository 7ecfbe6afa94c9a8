"""A phone as the camera, through the API: ``POST /api/photo`` with a real photo, read by the real vision on
a running VisionWorker (no camera), proposed and confirmed; its caps, PIN, guard and refusals, each of
which leaves the table as it was (nothing proposed, nothing in the SQLite log)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.config import Config
from companion.photos import MAX_PHOTO_BYTES, PHOTOS_PER_MINUTE, PhotoDesk
from companion.serve import VisionWorker
from companion.session import TableSession
from companion.store import Store
from hardware.frames import FrameHolder
from tests.helpers import Clock
from web import create_app

PIN = "2468"
BURKS = next((p for p in (Path(__file__).resolve().parents[3] / "shared" / "dice-photos",
                          Path("/work/shared/dice-photos"))
              if (p / "burksbuilds__dicetower-dev").exists()), None)
DADOTECK = {"players": ["Anna", "Bruno"]}


def real_photo(name: str) -> bytes:
    assert BURKS is not None, "shared/dice-photos/burksbuilds__dicetower-dev is missing"
    return (BURKS / "burksbuilds__dicetower-dev" / "images" / name).read_bytes()


@pytest.fixture
def worker(session: TableSession) -> Iterator[VisionWorker]:
    """The real vision worker on a table with no camera: its frame holder never gets a frame."""
    worker = VisionWorker(session, FrameHolder(), config=Config()).start()
    yield worker
    worker.stop()


@pytest.fixture
def desk(session: TableSession, worker: VisionWorker, clock: Clock) -> PhotoDesk:
    return PhotoDesk(session, worker, clock=clock)


@pytest.fixture
def photo_app(session: TableSession, desk: PhotoDesk) -> Flask:
    session.new_game("dadoteck", DADOTECK)
    return create_app({"TESTING": True, "TABLE_PIN": PIN}, session=session, photos=desk)


@pytest.fixture
def client(photo_app: Flask) -> FlaskClient:
    return photo_app.test_client()


def post(client: FlaskClient, data: bytes, *, kind: str = "image/jpeg", pin: str | None = PIN,
         query: str = "", **headers: str) -> Any:
    if pin is not None:
        headers["X-Table-PIN"] = pin
    return client.post(f"/api/photo{query}", data=data, headers={"Content-Type": kind, **headers})


def untouched(session: TableSession) -> None:
    """Nothing was proposed, shown or confirmed."""
    snap = session.snapshot()
    assert snap["proposal"] is None and snap["step"] == 0 and session.image() is None
    assert session.export()["steps"] == 0


def test_a_real_photo_is_read_proposed_and_confirmed(client: FlaskClient, session: TableSession,
                                                     worker: VisionWorker, db: Path) -> None:
    answer = post(client, real_photo("D20_A_5.jpg"), query="?step=0")
    assert answer.status_code == 200, answer.get_json()
    data = answer.get_json()
    assert data["photo"]["width"] == 1776 and data["photo"]["height"] == 1840 and not data["photo"]["pending"]
    assert data["photo"]["read_ms"] is not None and data["photo"]["read_ms"] < 15000
    # the same loop as a camera frame: a proposal with the annotated photo, nothing confirmed yet
    assert data["proposal"]["action"] == {"type": "reading", "values": {"p0": 5}}
    image = session.image()
    assert data["step"] == 0 and image is not None and image[:2] == b"\xff\xd8"
    shown = cv2.imdecode(np.frombuffer(image, np.uint8), cv2.IMREAD_COLOR)  # what every phone downloads
    assert max(shown.shape[:2]) == 1280
    assert worker.last_read_frame is not None and worker.last_read_frame.shape == (1840, 1776, 3)
    confirmed = client.post("/api/confirm", json={"step": 0}, headers={"X-Table-PIN": PIN}).get_json()
    assert confirmed["step"] == 1
    last = confirmed["history"][-1]
    assert last["action"] == {"type": "reading", "values": {"p0": 5}} and last["source"] == "camera"
    with Store(db) as reopened:  # in the SQLite file, as a camera reading confirmed
        record = reopened.load()
        assert record is not None and [(e.action, e.source) for e in record.events] == [
            ({"type": "reading", "values": {"p0": 5}}, "camera")]


def test_the_photo_needs_the_pin(client: FlaskClient, session: TableSession) -> None:
    for pin, code in ((None, "pin-required"), ("1111", "wrong-pin")):
        answer = post(client, real_photo("D20_A_5.jpg"), pin=pin)
        assert answer.status_code == 403 and answer.get_json()["error"] == code
    untouched(session)


def test_too_many_bytes_is_413_before_reading(client: FlaskClient, session: TableSession) -> None:
    big = b"\xff\xd8" + b"\x00" * (MAX_PHOTO_BYTES + 10)
    answer = post(client, big)
    assert answer.status_code == 413
    data = answer.get_json()
    assert data["error"] == "payload-too-large" and data["key"] == "error.photo.too_large"
    assert data["params"]["limit"] == MAX_PHOTO_BYTES and str(MAX_PHOTO_BYTES) in data["detail"]
    untouched(session)


def test_too_many_pixels_is_refused_from_the_header(client: FlaskClient, session: TableSession,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # a small PNG whose header says 20000x20000: refused before decoding (imdecode is never called)
    png = cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1].tobytes()
    lying = png[:16] + (20000).to_bytes(4, "big") + (20000).to_bytes(4, "big") + png[24:]
    calls: list[int] = []
    monkeypatch.setattr(cv2, "imdecode", lambda *a: calls.append(1))
    answer = post(client, lying, kind="image/png")
    assert answer.status_code == 413, answer.get_json()
    data = answer.get_json()
    assert data["key"] == "error.photo.too_many_pixels" and "20000x20000" in data["detail"] and not calls
    untouched(session)


def test_a_jpeg_over_the_pixel_cap_is_read_at_half_its_size(client: FlaskClient, session: TableSession,
                                                            worker: VisionWorker) -> None:
    # a phone's high-resolution photo sent as it is (5000x5000, 25 MP, under 8 MB): decoded at half
    # its size by libjpeg instead of refused, and read as the camera's frames are
    photo = cv2.imdecode(np.frombuffer(real_photo("D20_A_5.jpg"), np.uint8), cv2.IMREAD_COLOR)
    big = cv2.imencode(".jpg", cv2.resize(photo, (5000, 5000)), [cv2.IMWRITE_JPEG_QUALITY, 80])[1].tobytes()
    assert len(big) < MAX_PHOTO_BYTES
    answer = post(client, big, query="?step=0")
    assert answer.status_code == 200, answer.get_json()
    data = answer.get_json()
    assert (data["photo"]["width"], data["photo"]["height"]) == (2500, 2500)
    assert data["proposal"]["action"] == {"type": "reading", "values": {"p0": 5}}
    assert worker.last_read_frame is not None and worker.last_read_frame.shape == (2500, 2500, 3)


@pytest.mark.parametrize("data", [b"", b"GIF89a not a photo at all", b"\xff\xd8\xff\xe0" + b"\x17" * 500],
                         ids=["empty", "gif", "corrupt-jpeg"])
def test_a_corrupt_or_non_image_upload_is_400(client: FlaskClient, session: TableSession,
                                              data: bytes) -> None:
    answer = post(client, data)
    assert answer.status_code == 400, answer.get_json()
    body = answer.get_json()
    assert body["error"] == "invalid-input" and body["key"] == "error.photo.not_image"
    untouched(session)


def test_a_cut_jpeg_is_400(client: FlaskClient, session: TableSession) -> None:
    whole = real_photo("D20_A_5.jpg")
    answer = post(client, whole[:600])  # the header survives (its size), the pixels do not
    assert answer.status_code == 400 and answer.get_json()["key"] == "error.photo.not_image"
    untouched(session)


@pytest.mark.parametrize("kind", ["application/json", "multipart/form-data; boundary=x", "text/plain",
                                  "application/octet-stream", "image/gif"])
def test_only_an_image_body_is_taken(client: FlaskClient, session: TableSession, kind: str) -> None:
    answer = post(client, real_photo("D20_A_5.jpg"), kind=kind)
    assert answer.status_code == 415 and answer.get_json()["error"] == "unsupported-media-type"
    assert "image/jpeg" in answer.get_json()["detail"]
    untouched(session)


def test_other_actions_still_refuse_an_image_body(client: FlaskClient) -> None:
    answer = client.post("/api/confirm", data=b"\xff\xd8",
                         headers={"Content-Type": "image/jpeg", "X-Table-PIN": PIN})
    assert answer.status_code == 415


def test_the_guard_applies(client: FlaskClient, session: TableSession) -> None:
    answer = post(client, real_photo("D20_A_5.jpg"), Origin="http://evil.example")
    assert answer.status_code == 403 and answer.get_json()["error"] == "cross-origin"
    answer = client.post("/api/photo", data=b"\xff\xd8",
                         headers={"Content-Type": "image/jpeg", "Host": "evil.example"})
    assert answer.status_code == 403 and answer.get_json()["error"] == "wrong-host"
    untouched(session)


def test_a_stale_step_changes_nothing(client: FlaskClient, session: TableSession) -> None:
    answer = post(client, real_photo("D20_A_5.jpg"), query="?step=4")
    assert answer.status_code == 409 and answer.get_json()["error"] == "stale-step"
    answer = post(client, real_photo("D20_A_5.jpg"), query="?step=zero")
    assert answer.status_code == 400
    untouched(session)


def test_no_roll_expected_is_409(session: TableSession, desk: PhotoDesk) -> None:
    app = create_app({"TESTING": True}, session=session, photos=desk)  # no game at the table
    answer = post(app.test_client(), real_photo("D20_A_5.jpg"), pin=None)
    assert answer.status_code == 409 and answer.get_json()["error"] == "nothing-to-read"
    assert answer.get_json()["key"] == "error.photo.nothing_expected"


def test_one_photo_at_a_time_and_a_few_a_minute(client: FlaskClient, session: TableSession,
                                               worker: VisionWorker, clock: Clock,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()
    reader = worker.photo_reader     # what reads a phone's photo (the camera's reader without its tray)
    assert reader is not None

    def slow(frame: Any) -> Any:
        gate.wait(10)
        return reader(frame)

    monkeypatch.setattr(worker, "photo_reader", slow)
    photo = real_photo("D20_A_5.jpg")
    first: list[Any] = []
    thread = threading.Thread(target=lambda: first.append(post(client, photo)))
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while worker._photo is None and not first and time.monotonic() < deadline:  # queued, being read
            time.sleep(0.01)
        busy = post(client, photo)
        assert busy.status_code == 429 and busy.get_json()["error"] == "too-many-photos"
        assert busy.headers["Retry-After"] == "2" and busy.get_json()["key"] == "error.photo.busy"
    finally:
        gate.set()
        thread.join(15)
    assert first[0].status_code == 200
    monkeypatch.setattr(worker, "photo_reader", reader)
    for _ in range(PHOTOS_PER_MINUTE - 1):
        assert post(client, photo).status_code == 200
        clock.now += 0.5
    limited = post(client, photo)
    assert limited.status_code == 429 and limited.get_json()["key"] == "error.photo.too_many"
    clock.now += 60
    assert post(client, photo).status_code == 200


def test_a_slow_reading_answers_202_and_lands_live(session: TableSession, worker: VisionWorker,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    session.new_game("dadoteck", DADOTECK)
    reader = worker.photo_reader
    assert reader is not None
    gate = threading.Event()
    monkeypatch.setattr(worker, "photo_reader", lambda frame: (gate.wait(10), reader(frame))[1])
    app = create_app({"TESTING": True}, session=session, photos=PhotoDesk(session, worker, wait=0.2))
    answer = post(app.test_client(), real_photo("D20_A_5.jpg"), pin=None)
    assert answer.status_code == 202 and answer.get_json()["photo"]["pending"]
    assert answer.get_json()["proposal"] is None
    version = session.version
    gate.set()
    deadline = time.monotonic() + 10
    while session.snapshot()["proposal"] is None and time.monotonic() < deadline:
        session.wait_for_change(version, 0.5)
    assert session.snapshot()["proposal"]["action"] == {"type": "reading", "values": {"p0": 5}}


def test_without_a_desk_the_endpoint_is_404(session: TableSession) -> None:
    app = create_app({"TESTING": True}, session=session)
    answer = post(app.test_client(), b"\xff\xd8", pin=None)
    assert answer.status_code == 404 and answer.get_json()["error"] == "not-found"


def test_every_photo_message_is_in_both_catalogues() -> None:
    import json
    import string

    from companion.photos import MESSAGES

    def names(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    for lang in ("it", "en"):
        catalogue = json.loads((Path(__file__).resolve().parents[2] / "web" / "i18n" / f"{lang}.json")
                               .read_text(encoding="utf-8"))
        for key, english in MESSAGES.items():
            assert key in catalogue, (lang, key)
            assert names(catalogue[key]) <= names(english), (lang, key)  # the reason stays in "detail"
        for code in ("payload-too-large", "unsupported-media-type", "too-many-photos", "nothing-to-read"):
            assert f"error.{code}" in catalogue, (lang, code)


def test_a_table_with_no_camera_plays_from_the_phone(tmp_path: Path) -> None:
    """``serve --camera none``: no capture loop, the camera state stays "none", the watchdog is still
    pinged, and a phone's photo goes through the whole loop: read, proposed, confirmed, kept."""
    from dataclasses import replace

    from companion.config import ButtonsConfig, CameraConfig, LedConfig
    from companion.serve import Companion, NoCamera

    config = replace(Config(state_dir=str(tmp_path / "state")), camera=CameraConfig(source="none"),
                     buttons=ButtonsConfig(enabled=False), led=LedConfig(enabled=False))
    with Companion(config) as companion:
        assert isinstance(companion.capture, NoCamera) and companion.capture.source.name == "none"
        client = companion.app.test_client()
        assert client.get("/api/state").get_json()["camera"]["state"] == "none"
        companion.session.new_game("dadoteck", DADOTECK)
        answer = post(client, real_photo("D20_A_5.jpg"), pin=None, query="?step=0")
        assert answer.status_code == 200, answer.get_json()
        assert answer.get_json()["proposal"]["action"] == {"type": "reading", "values": {"p0": 5}}
        assert client.post("/api/confirm", json={"step": 0}).get_json()["step"] == 1
        assert len(companion.dataset) == 1  # kept with its photo, as a camera frame would be
        # teach mode has no camera frame to teach from: it uses the phone's last photo
        assert companion._latest_frame() is not None
    # the systemd watchdog, which the capture loop pings with each frame, is pinged all the same
    pings: list[float] = []
    idle = NoCamera(lambda: pings.append(time.monotonic()), every=0.05).start()
    deadline = time.monotonic() + 5
    while len(pings) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    idle.stop()
    assert len(pings) >= 3


def test_teaching_from_a_phone_s_photo_reads_it_whole(tmp_path: Path) -> None:
    """A table with no camera teaches a die's look from the phone's last photo: that photo is read as the
    photo was (whole), not through the camera's tray, which was drawn on another picture."""
    from dataclasses import replace

    from companion.config import ButtonsConfig, CameraConfig, LedConfig
    from companion.serve import Companion

    corner = ((0.0, 0.0), (0.1, 0.0), (0.1, 0.1), (0.0, 0.1))  # a tray where the photo's die is not
    config = replace(Config(state_dir=str(tmp_path / "state")), buttons=ButtonsConfig(enabled=False),
                     camera=CameraConfig(source="none", tray=corner), led=LedConfig(enabled=False))
    with Companion(config) as companion:
        companion.session.new_game("dadoteck", DADOTECK)
        client = companion.app.test_client()
        assert post(client, real_photo("D20_A_5.jpg"), pin=None, query="?step=0").status_code == 200
        frame = companion._latest_frame()
        assert frame is not None and frame.shape == (1840, 1776, 3)
        dice = companion._read_dice(frame)["dice"]
        assert [d["value"] for d in dice] == [5]
        # a camera frame is still read through the tray: the same picture, not the photo read last
        assert companion._read_dice(frame.copy())["dice"] == []


def test_the_camera_does_not_replace_a_photo_s_reading_within_its_step(session: TableSession) -> None:
    """With a camera too (a replay, a Pi camera looking elsewhere), the phone's photo holds for its step: a
    camera scene that settles afterwards is not offered over it; once the table moves on, the camera reads
    again."""
    from companion.photos import PhotoJob
    from companion.serve import still_frames

    def reader(frame: Any) -> dict[str, Any]:  # a photo of 5, a camera frame of 17
        value = 5 if frame.shape[0] == 40 else 17
        return {"width": frame.shape[1], "height": frame.shape[0], "tokens": [],
                "dice": [{"bbox": [1, 1, 5, 5], "sides": 20, "value": value, "confidence": 0.99,
                          "zone": "p0"}]}

    worker = VisionWorker(session, FrameHolder(), reader=reader, settle=still_frames)
    session.new_game("dadoteck", DADOTECK)
    job = PhotoJob(np.zeros((40, 30, 3), np.uint8), (session.game_id, session.step))
    worker.submit_photo(job)
    assert worker.read_photo() and job.error is None
    assert session.snapshot()["proposal"]["action"]["values"] == {"p0": 5}
    camera = np.full((60, 80, 3), 90, np.uint8)
    assert sum(worker.feed(camera) for _ in range(6)) == 0  # a still camera scene: not over the photo
    assert session.snapshot()["proposal"]["action"]["values"] == {"p0": 5}
    session.confirm()  # Anna placed; Bruno's roll is next: the camera reads again
    other = np.full((60, 80, 3), 200, np.uint8)
    assert sum(worker.feed(other) for _ in range(6)) == 1
    assert session.snapshot()["proposal"]["action"]["values"] == {"p1": 17}


def test_a_photo_for_a_step_the_table_left_is_dropped(session: TableSession) -> None:
    from companion.photos import PhotoJob, PhotoMoved

    worker = VisionWorker(session, FrameHolder(), reader=lambda frame: {"dice": [], "tokens": []})
    session.new_game("dadoteck", DADOTECK)
    job = PhotoJob(np.zeros((40, 30, 3), np.uint8), (session.game_id, session.step))
    session.correct({"type": "reading", "values": {"p0": 9}})  # entered by hand meanwhile
    worker.submit_photo(job)
    assert worker.read_photo()
    assert isinstance(job.error, PhotoMoved) and session.snapshot()["proposal"] is None


def test_a_new_game_does_not_show_the_last_match_s_photo(client: FlaskClient, session: TableSession) -> None:
    """The photo (and its proposal) belong to the match it was taken in: a new game, or a match resumed,
    starts with no picture, so no phone shows the previous match's dice as this one's."""
    answer = post(client, real_photo("D20_A_5.jpg"), query="?step=0")
    assert answer.status_code == 200, answer.get_json()
    assert session.image() is not None and client.get("/api/snapshot.jpg").status_code == 200
    first = session.game_id
    started = client.post("/api/new-game", json={"game": "dadoteck", "setup": DADOTECK, "archive": True},
                          headers={"X-Table-PIN": PIN})
    assert started.status_code == 200, started.get_json()
    assert started.get_json()["image"] is False and started.get_json()["proposal"] is None
    assert session.image() is None and client.get("/api/snapshot.jpg").status_code == 404
    # a photo of the new match is shown; resuming the other match drops it again
    assert post(client, real_photo("D20_A_5.jpg"), query="?step=0").status_code == 200
    assert session.image() is not None
    resumed = client.post("/api/resume", json={"game_id": first, "archive": True},
                          headers={"X-Table-PIN": PIN})
    assert resumed.status_code == 200, resumed.get_json()
    assert resumed.get_json()["image"] is False and session.image() is None


def test_after_a_new_game_the_camera_shows_the_tray_again(session: TableSession) -> None:
    """With a camera, the picture dropped by a new game comes back with the camera's scene lying there."""
    from companion.serve import still_frames

    worker = VisionWorker(session, FrameHolder(), reader=None, settle=still_frames)
    session.new_game("dadoteck", DADOTECK)
    camera = np.full((60, 80, 3), 90, np.uint8)
    for _ in range(6):
        worker.feed(camera)
    assert session.image() is not None
    session.new_game("dadoteck", DADOTECK, archive=True)
    assert session.image() is None
    for _ in range(2):
        worker.feed(camera)  # the same still scene: shown again for the new match
    assert session.image() is not None
