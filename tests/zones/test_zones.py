"""The tray's zones set from the phone: the keeper and its file, the API, the vision reader that uses
them at the next reading, and ``serve``'s wiring. Real files, real vision on drawn dice."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.config import ButtonsConfig, CameraConfig, Config, LedConfig
from companion.errors import InvalidInput
from companion.serve import Companion, vision_reader
from companion.session import TableSession
from companion.zones import PRESETS, TOSS, ZoneKeeper, preset_zones
from tests.loop.conftest import still
from vision import synth
from web import create_app

PIN = {"X-Table-PIN": "2468"}
DEFAULT = Config().zones


@pytest.fixture
def keeper(tmp_path: Path) -> ZoneKeeper:
    return ZoneKeeper(tmp_path / "state" / "zones.json", DEFAULT)


def test_without_a_file_the_configured_zones_apply(keeper: ZoneKeeper) -> None:
    state = keeper.state()
    assert state["zones"] == DEFAULT and state["source"] == "config" and state["error"] is None
    assert (state["preset"], state["toss"]) == ("left-right", False)
    assert state["presets"] == ["left-right", "right-left", "top-bottom", "bottom-top"]
    assert not keeper.path.exists()


def test_a_preset_is_kept_in_the_file_and_loaded_again(keeper: ZoneKeeper) -> None:
    before = keeper.version
    state = keeper.choose("bottom-top", toss=True)
    assert keeper.version > before
    assert list(state["zones"]) == ["toss", "p0", "p1"]      # the toss zone first: it wins its middle
    assert state["zones"]["p0"] == [[0.0, 0.5], [1.0, 0.5], [1.0, 1.0], [0.0, 1.0]]
    assert (state["source"], state["preset"], state["toss"]) == ("page", "bottom-top", True)
    assert json.loads(keeper.path.read_text(encoding="utf-8")) == {"zones": state["zones"]}
    again = ZoneKeeper(keeper.path, DEFAULT)                  # a restart
    assert again.current() == state["zones"] and again.state()["preset"] == "bottom-top"
    keeper.current()["p0"].clear()                            # callers get copies
    assert keeper.current() == state["zones"]


def test_custom_zones_are_checked_and_bad_ones_change_nothing(keeper: ZoneKeeper) -> None:
    keeper.choose("right-left")
    thirds = {"p0": [[0, 0], [0.33, 0], [0.33, 1], [0, 1]], "p1": [[0.67, 0], [1, 0], [1, 1], [0.67, 1]]}
    assert keeper.set(thirds)["preset"] is None
    for bad, words in (({}, "must name at least one zone"),
                       ({"p0": [[0, 0], [1, 0]]}, "zones.p0 must be a polygon of at least 3"),
                       ({"p0": [[0, 0], [1.5, 0], [1, 1]]}, "zones.p0: point [1.5, 0] is outside the frame"),
                       ({"p0": [[0, 0], ["a", 0], [1, 1]]}, "each point is [x, y]"),
                       ([1, 2], "must name at least one zone")):
        with pytest.raises(InvalidInput, match=words.replace("[", r"\[").replace("]", r"\]")):
            keeper.set(bad)
    with pytest.raises(InvalidInput, match="preset must be one of left-right, right-left"):
        keeper.choose("diagonal")
    with pytest.raises(InvalidInput, match="toss must be true or false, not 'yes'"):
        keeper.choose("top-bottom", toss="yes")
    assert keeper.current() == {k: [[float(x), float(y)] for x, y in v] for k, v in thirds.items()}
    assert ZoneKeeper(keeper.path, DEFAULT).current() == keeper.current()


def test_a_corrupt_file_keeps_the_configured_zones_and_is_set_aside(keeper: ZoneKeeper) -> None:
    keeper.path.parent.mkdir(parents=True)
    keeper.path.write_text('{"zones": {"p0": [[0, 0], [2, 0], [1, 1]]}}', encoding="utf-8")
    broken = ZoneKeeper(keeper.path, DEFAULT)
    assert broken.current() == DEFAULT and broken.state()["source"] == "config"
    assert "cannot be used" in broken.state()["error"] and "outside the frame" in broken.state()["error"]
    keeper.path.write_text("{not json", encoding="utf-8")
    broken.reload()
    assert "cannot be used" in broken.state()["error"]
    broken.choose("top-bottom")
    assert broken.state()["error"] is None
    assert keeper.path.with_name("zones.json.unreadable").read_text(encoding="utf-8") == "{not json"
    assert broken.reset()["source"] == "config" and not keeper.path.exists()


@pytest.mark.parametrize("preset, left_top, right_bottom", [
    ("left-right", "p0", "p1"), ("right-left", "p1", "p0"), ("top-bottom", "p0", "p1"),
    ("bottom-top", "p1", "p0")])
def test_the_reader_uses_the_zones_in_force_at_each_reading(
        keeper: ZoneKeeper, preset: str, left_top: str, right_bottom: str) -> None:
    frame = synth.tray(seed=4)
    synth.draw_die(frame, 120, 100, 60, 5)    # the left half, the top half
    synth.draw_die(frame, 520, 380, 60, 2)    # the right half, the bottom half
    read, _ = vision_reader(Config(), zones=keeper.current)

    def zones_by_place() -> dict[str, str]:
        """Each die's zone by where it lies (not by its value: this test is about zones, not reading)."""
        out = {}
        for d in read(frame).to_json()["dice"]:
            x, y, w, h = d["bbox"]
            cx, cy = x + w / 2, y + h / 2
            middle = abs(cx - 320) < 60 and abs(cy - 240) < 60
            out["middle" if middle else "left" if cx < 320 else "right"] = d["zone"]
        return out

    assert zones_by_place() == {"left": "p0", "right": "p1"}      # the configured halves
    keeper.choose(preset)
    assert zones_by_place() == {"left": left_top, "right": right_bottom}
    keeper.choose(preset, toss=True)
    synth.draw_die(frame, 320, 240, 60, 3)    # the middle of the tray
    assert zones_by_place()["middle"] == "toss"


@pytest.fixture
def app(session: TableSession, keeper: ZoneKeeper) -> Flask:
    return create_app({"TESTING": True, "TABLE_PIN": "2468"}, session=session, zones=keeper)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def error_of(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.json["error"] == code
    return str(response.json["detail"])


def test_the_api_sets_and_resets_the_zones_with_the_pin(client: FlaskClient, keeper: ZoneKeeper) -> None:
    assert client.get("/api/zones").json["source"] == "config"          # spectators may look
    error_of(client.post("/api/zones", json={"preset": "top-bottom"}), 403, "pin-required")
    assert not keeper.path.exists()
    done = client.post("/api/zones", json={"preset": "top-bottom", "toss": True}, headers=PIN).json
    assert done["zones"] == preset_zones("top-bottom", True) and done["zones"]["toss"] == TOSS
    custom = {"p0": [[0, 0], [1, 0], [1, 0.4], [0, 0.4]], "p1": [[0, 0.6], [1, 0.6], [1, 1], [0, 1]]}
    assert client.post("/api/zones", json={"zones": custom}, headers=PIN).json["preset"] is None
    for body, words in (({}, 'the body needs "preset"'), ({"preset": "up-down"}, "preset must be one of"),
                        ({"preset": "left-right", "zones": custom}, 'give "preset" or "zones", not both'),
                        ({"zones": {"p0": [[0, 0]]}}, "zones.p0 must be a polygon"),
                        ({"preset": "left-right", "toss": 1}, "toss must be true or false")):
        assert words in error_of(client.post("/api/zones", json=body, headers=PIN), 400, "invalid-input")
    assert keeper.state()["preset"] is None and keeper.current()["p0"][2] == [1.0, 0.4]  # unchanged
    html = client.get("/settings").get_data(as_text=True)
    assert 'id="zones-card"' in html and 'data-source="page"' in html and 'data-zone="p1"' in html
    assert client.post("/api/zones/reset", json={}, headers=PIN).json["source"] == "config"
    assert not keeper.path.exists()


def test_without_a_keeper_the_endpoints_say_so(session: TableSession) -> None:
    client = create_app({"TESTING": True}, session=session).test_client()
    assert "without a zone keeper" in error_of(client.get("/api/zones"), 404, "not-found")
    assert 'id="zones-card"' not in client.get("/settings").get_data(as_text=True)


def test_serve_keeps_the_page_zones_in_the_state_dir_and_the_worker_follows(tmp_path: Path) -> None:
    state = tmp_path / "state"
    config = replace(Config(state_dir=str(state)), camera=CameraConfig(source="replay"),
                     buttons=ButtonsConfig(enabled=False), led=LedConfig(enabled=False))
    with Companion(config, settle=still) as companion:
        assert companion.zones.path == state / "zones.json"
        assert companion.worker is not None and companion.worker.zones() == DEFAULT
        client = companion.app.test_client()
        assert client.post("/api/zones", json={"preset": "right-left"}).status_code == 200
        assert companion.worker.zones() == PRESETS["right-left"]   # the next reading, no restart
    with Companion(config, settle=still, web=False) as again:
        assert again.worker is not None and again.worker.zones() == PRESETS["right-left"]


def test_the_page_tray_is_kept_beside_the_zones_and_wins_over_the_file(tmp_path: Path) -> None:
    """``set_tray`` writes ``"tray"`` into the same file; setting or resetting the zones keeps it; ``None``
    gives ``camera.tray`` back; a bad outline changes nothing."""
    configured = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    keeper = ZoneKeeper(tmp_path / "zones.json", DEFAULT, configured)
    assert keeper.tray() == [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
    assert keeper.state()["tray_source"] == "config"
    middle = [[0.2, 0.1], [0.8, 0.1], [0.8, 0.9], [0.2, 0.9]]
    state = keeper.set_tray(middle)
    assert (state["tray"], state["tray_source"], state["source"]) == (middle, "page", "config")
    assert json.loads(keeper.path.read_text(encoding="utf-8")) == {"tray": middle}
    keeper.choose("top-bottom")
    assert json.loads(keeper.path.read_text(encoding="utf-8"))["tray"] == middle
    assert ZoneKeeper(keeper.path, DEFAULT, configured).tray() == middle          # a restart
    keeper.reset()                                                                # the zones only
    assert keeper.current() == DEFAULT and keeper.tray() == middle
    for bad, words in (([[0, 0], [1, 1]], "tray needs a polygon of 3+ points"),
                       ([[0.5, 0], [0.51, 0], [0.51, 1]], "spans less than 0.05"),
                       ("all", "tray needs a polygon")):
        with pytest.raises(InvalidInput, match=None) as caught:
            keeper.set_tray(bad)
        assert words in str(caught.value)
    assert keeper.tray() == middle
    assert keeper.set_tray(None)["tray_source"] == "config" and not keeper.path.exists()
    assert ZoneKeeper(tmp_path / "none.json", DEFAULT).tray() is None              # no camera.tray: all


def test_a_bad_tray_in_the_file_keeps_the_configured_zones_and_tray(tmp_path: Path) -> None:
    path = tmp_path / "zones.json"
    path.write_text(json.dumps({"zones": PRESETS["top-bottom"], "tray": [[0, 0], [2, 0], [1, 1]]}))
    keeper = ZoneKeeper(path, DEFAULT)
    assert keeper.current() == DEFAULT and keeper.tray() is None
    assert "cannot be used" in keeper.state()["error"] and "[2, 0]" in keeper.state()["error"]


def test_the_reader_reads_only_the_tray_in_force(keeper: ZoneKeeper) -> None:
    frame = synth.tray(seed=4)
    synth.draw_die(frame, 120, 100, 60, 5)    # the left half
    synth.draw_die(frame, 520, 380, 60, 2)    # the right half
    read, shown = vision_reader(Config(), zones=keeper.current, tray=keeper.tray)
    assert sorted(d.value for d in read(frame).dice) == [2, 5]
    keeper.set_tray([[0.5, 0], [1, 0], [1, 1], [0.5, 1]])
    reading = read(frame)
    assert [d.value for d in reading.dice] == [2]                                # the next reading
    assert (shown(frame, reading)[:, 318:322] == 255).all(axis=2).any(axis=1).mean() > 0.9


def test_the_api_sets_the_tray_with_the_pin(client: FlaskClient, keeper: ZoneKeeper) -> None:
    right = [[0.5, 0], [1, 0], [1, 1], [0.5, 1]]
    error_of(client.post("/api/zones/tray", json={"tray": right}), 403, "pin-required")
    done = client.post("/api/zones/tray", json={"tray": right}, headers=PIN).json
    assert done["tray"] == right and done["tray_source"] == "page"
    assert client.get("/api/zones").json["tray"] == right
    for body, words in (({}, 'the body needs "tray"'), ({"tray": [[0, 0]]}, "tray needs a polygon")):
        assert words in error_of(client.post("/api/zones/tray", json=body, headers=PIN), 400, "invalid-input")
    assert keeper.tray() == right
    assert client.post("/api/zones/tray", json={"tray": None}, headers=PIN).json["tray"] is None


def test_serve_reads_the_configured_tray_until_the_page_sets_one(tmp_path: Path) -> None:
    config = replace(Config(state_dir=str(tmp_path / "state")),
                     camera=CameraConfig(source="replay", tray=((0.1, 0.1), (0.9, 0.1), (0.9, 0.9))),
                     buttons=ButtonsConfig(enabled=False), led=LedConfig(enabled=False))
    with Companion(config, settle=still) as companion:
        assert companion.zones.tray() == [[0.1, 0.1], [0.9, 0.1], [0.9, 0.9]]
        client = companion.app.test_client()
        whole = [[0, 0], [1, 0], [1, 1], [0, 1]]
        assert client.post("/api/zones/tray", json={"tray": whole}).status_code == 200
        assert companion.zones.tray() == whole


def test_a_phone_photo_is_read_whole_while_the_camera_reads_its_tray(
        session: TableSession, keeper: ZoneKeeper) -> None:
    """The tray is drawn on the camera's picture; a phone frames its photo its own way, so its photo is read
    whole (and drawn without the camera's outline)."""
    from companion.serve import VisionWorker, still_frames
    from hardware.frames import FrameHolder

    frame = synth.tray(seed=4)
    synth.draw_die(frame, 120, 100, 60, 5)    # the left half
    synth.draw_die(frame, 520, 380, 60, 2)    # the right half
    keeper.set_tray([[0.5, 0], [1, 0], [1, 1], [0.5, 1]])
    worker = VisionWorker(session, FrameHolder(), settle=still_frames, zones=keeper.current, tray=keeper.tray)
    assert [d.value for d in worker._read(frame).dice] == [2]
    assert sorted(d.value for d in worker._read(frame, photo=True).dice) == [2, 5]
    camera = worker._annotated(frame, worker._read(frame), "the frame")
    photo = worker._annotated(frame, worker._read(frame, photo=True), "the photo", photo=True)
    assert (camera[:, 318:322] == 255).all(axis=2).any(axis=1).mean() > 0.9
    assert (photo[:, 318:322] == 255).all(axis=2).any(axis=1).mean() < 0.1
