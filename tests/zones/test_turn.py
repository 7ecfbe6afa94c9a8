"""The camera's turn set from the settings page (companion.turn, web.turn): kept in the state directory,
applied to the running capture loop, and the page's zones and tray turning with the picture."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.config import ButtonsConfig, CameraConfig, Config, LedConfig
from companion.errors import InvalidInput
from companion.serve import Companion, NoCamera
from companion.turn import MAX_FILE_BYTES, NoCameraToTurn, TurnKeeper
from companion.zones import PRESETS, TOSS, ZoneKeeper, preset_zones, turn_point, turn_polygon
from hardware.frames import CaptureLoop
from tests.loop.conftest import still

DEFAULT = Config().zones
PIN = {"X-Table-Pin": "2468"}
CORNERS = {"top-left": (0.0, 0.0), "top-right": (1.0, 0.0), "bottom-right": (1.0, 1.0),
           "bottom-left": (0.0, 1.0)}
#: where each corner of the table goes once the picture turns clockwise by so many degrees
TURNED = {90: {"top-left": "top-right", "top-right": "bottom-right", "bottom-right": "bottom-left",
               "bottom-left": "top-left"},
          180: {"top-left": "bottom-right", "top-right": "bottom-left", "bottom-right": "top-left",
                "bottom-left": "top-right"},
          270: {"top-left": "bottom-left", "top-right": "top-left", "bottom-right": "top-right",
                "bottom-left": "bottom-right"}}


def config(state: Path, **camera: Any) -> Config:
    return replace(Config(state_dir=str(state), pin="2468"), camera=CameraConfig(source="replay", **camera),
                   buttons=ButtonsConfig(enabled=False), led=LedConfig(enabled=False))


def error_of(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.json["error"] == code
    return str(response.json["detail"])


@pytest.mark.parametrize("degrees", [90, 180, 270])
def test_the_corners_of_the_picture_go_to_the_right_corners(degrees: int) -> None:
    for name, (x, y) in CORNERS.items():
        assert tuple(turn_point(x, y, degrees)) == CORNERS[TURNED[degrees][name]], name
    assert turn_point(0.3, 0.2, 0) == [0.3, 0.2]
    assert turn_point(0.3, 0.2, 90) == [0.8, 0.3]          # near the top: near the right side once turned
    assert turn_point(0.3, 0.2, 180) == [0.7, 0.8]         # 1 - 0.3 is 0.7, not 0.7000000000000001
    with pytest.raises(InvalidInput, match="not 45"):
        turn_point(0.5, 0.5, 45)


def test_turned_halves_are_the_presets_they_became_and_turning_back_gives_them_again() -> None:
    assert turn_polygon(PRESETS["left-right"]["p0"], 90) == PRESETS["top-bottom"]["p0"]
    assert turn_polygon(PRESETS["left-right"]["p0"], 180) == PRESETS["right-left"]["p0"]
    assert turn_polygon(PRESETS["left-right"]["p0"], 270) == PRESETS["bottom-top"]["p0"]
    tilted = [[0.8, 0.15], [0.9, 0.7], [0.2, 0.9], [0.1, 0.2]]     # from its top-most point
    for degrees in (90, 180, 270):
        assert turn_polygon(turn_polygon(tilted, degrees), 360 - degrees) == tilted


def test_a_page_turn_is_kept_wins_over_the_file_and_is_forgotten_on_reset(tmp_path: Path) -> None:
    zones = ZoneKeeper(tmp_path / "zones.json", DEFAULT)
    keeper = TurnKeeper(tmp_path / "camera.json", 90, zones=zones)
    assert keeper.state() == {"turn": 90, "source": "config", "camera": False, "configured": 90,
                              "file": str(tmp_path / "camera.json"), "error": None}
    with pytest.raises(NoCameraToTurn, match="no camera"):      # the phones' photos come upright
        keeper.set(180)
    applied: list[int] = []
    keeper.follow(applied.append)
    assert keeper.set(180)["source"] == "page" and applied == [180]
    assert json.loads(keeper.path.read_text(encoding="utf-8")) == {"turn": 180}
    assert TurnKeeper(keeper.path, 90).current() == 180                        # a restart
    for bad in (45, "180", True, 180.0, [180], -90, 360):
        with pytest.raises(InvalidInput, match="turn must be 0, 90, 180 or 270"):
            keeper.set(bad)
    assert keeper.current() == 180 and applied == [180]
    assert keeper.set(None)["source"] == "config" and applied == [180, 90]
    assert not keeper.path.exists() and keeper.current() == 90


def test_an_unreadable_or_huge_file_leaves_the_configured_turn_and_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "camera.json"
    for text, words in (('{"turn": 45}', "not 45"), ("[180]", 'not an object with "turn"'),
                        ("{", "Expecting"), (" " * MAX_FILE_BYTES + "{}", f"bigger than {MAX_FILE_BYTES}")):
        path.write_text(text, encoding="utf-8")
        keeper = TurnKeeper(path, 270)
        assert keeper.current() == 270 and words in keeper.state()["error"], text
    keeper.follow(lambda degrees: None)
    keeper.set(0)
    assert keeper.state()["error"] is None and json.loads(path.read_text(encoding="utf-8")) == {"turn": 0}
    assert path.with_name("camera.json.unreadable").stat().st_size > MAX_FILE_BYTES


def test_the_page_zones_and_tray_turn_with_the_picture_and_the_file_zones_stay(tmp_path: Path) -> None:
    configured_tray = ((0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9))
    zones = ZoneKeeper(tmp_path / "zones.json", DEFAULT, configured_tray)
    keeper = TurnKeeper(tmp_path / "camera.json", 0, zones=zones)
    keeper.follow(lambda degrees: None)
    keeper.set(90)                                          # nothing set on the page: nothing turns
    assert zones.current() == DEFAULT and zones.tray() == [list(p) for p in configured_tray]
    assert not zones.path.exists()
    zones.choose("left-right", toss=True)
    tray = [[0.1, 0.0], [0.6, 0.0], [0.6, 0.5], [0.1, 0.5]]  # the top-left part of the picture at 90
    zones.set_tray(tray)
    keeper.set(270)                                         # 180 more: the top-left part is bottom-right
    assert zones.tray() == [[0.4, 0.5], [0.9, 0.5], [0.9, 1.0], [0.4, 1.0]]
    assert zones.current() == {"toss": TOSS, **PRESETS["right-left"]}       # the middle stays the middle
    assert zones.state()["preset"] == "right-left" and zones.state()["toss"]
    assert json.loads(zones.path.read_text(encoding="utf-8"))["tray"] == zones.tray()
    keeper.set(None)                                        # back to 0: 90 more, the right side down
    assert zones.current() == {"toss": turn_polygon(TOSS, 90), **PRESETS["bottom-top"]}
    keeper.set(90)
    assert zones.current() == preset_zones("left-right", True) and zones.tray() == tray


def test_the_api_sets_the_running_camera_turn_and_a_new_companion_keeps_it(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with Companion(config(state, turn=90), settle=still) as companion:
        assert isinstance(companion.capture, CaptureLoop) and companion.capture.turn == 90
        client = companion.app.test_client()
        assert client.get("/api/camera/turn").json == {
            "turn": 90, "source": "config", "camera": True, "configured": 90,
            "file": str(state / "camera.json"), "error": None}
        error_of(client.post("/api/camera/turn", json={"turn": 180}), 403, "pin-required")
        right = [[0.5, 0], [1, 0], [1, 1], [0.5, 1]]
        assert client.post("/api/zones/tray", json={"tray": right}, headers=PIN).status_code == 200
        done = client.post("/api/camera/turn", json={"turn": 180}, headers=PIN)
        assert done.status_code == 200 and done.json["turn"] == 180 and done.json["source"] == "page"
        assert companion.capture.turn == 180                    # the next frame, no restart
        assert companion.zones.tray() == [[0.0, 0.5], [1.0, 0.5], [1.0, 1.0], [0.0, 1.0]]  # the bottom half
        for raw, words in (("{", "not valid JSON"), ("[180]", "not a JSON object")):
            response = client.post("/api/camera/turn", data=raw, headers={**PIN, "Content-Type":
                                                                         "application/json"})
            assert response.status_code == 400 and response.json["error"] == "invalid-input", raw
            assert words.split()[-1] in response.json["detail"] or response.json.get("key"), response.json
        for body in ({"turn": 45}, {"turn": "180"}, {"turn": True}, {"turn": 180.5}):
            shown = repr(body["turn"])
            detail = error_of(client.post("/api/camera/turn", json=body, headers=PIN), 400, "invalid-input")
            assert "turn must be 0, 90, 180 or 270" in detail and shown in detail, detail
        assert 'the body needs "turn"' in error_of(
            client.post("/api/camera/turn", json={}, headers=PIN), 400, "invalid-input")
        assert client.get("/api/camera/turn").json["turn"] == 180 and companion.capture.turn == 180
        assert companion.zones.tray() == [[0.0, 0.5], [1.0, 0.5], [1.0, 1.0], [0.0, 1.0]]  # nothing lost
        html = client.get("/settings").get_data(as_text=True)
        assert 'id="turn-card"' in html and 'data-turn="180" aria-pressed="true"' in html
    with Companion(config(state, turn=90), settle=still) as again:
        assert again.capture.turn == 180 and again.zones.tray() == [[0.0, 0.5], [1.0, 0.5], [1.0, 1.0],
                                                                    [0.0, 1.0]]
        done = again.app.test_client().post("/api/camera/turn", json={"turn": None}, headers=PIN).json
        assert (done["turn"], done["source"]) == (90, "config") and again.capture.turn == 90
        assert again.zones.tray() == [[0.5, 0.0], [1.0, 0.0], [1.0, 1.0], [0.5, 1.0]]   # the right half again
        assert not (state / "camera.json").exists()


def test_a_table_without_a_camera_refuses_a_turn(tmp_path: Path) -> None:
    with Companion(config(tmp_path / "state"), camera="none", settle=still) as companion:
        assert isinstance(companion.capture, NoCamera)
        client = companion.app.test_client()
        assert client.get("/api/camera/turn").json["camera"] is False
        error_of(client.post("/api/camera/turn", json={"turn": 180}, headers=PIN), 409, "no-camera")
        assert client.get("/api/camera/turn").json["turn"] == 0
        assert 'id="turn-no-camera"' in client.get("/settings").get_data(as_text=True)
