"""Telling the players' dice apart by their look (vision.looks): drawn dice of eight colours on two trays
under five lights and a light gradient, taught once and recognised every time; dice that look alike are
never told apart; a die taught from the camera gets the rolls of confirmed readings it is seen in, through
the book and through ``serve``'s composition root with a replayed camera."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.config import ButtonsConfig, CameraConfig, Config, LedConfig
from companion.dice import MAX_LOOKS, DiceBook, NoPicture, NothingToTeach
from companion.serve import Companion
from companion.session import TableSession
from companion.store import Store
from tests.dice.conftest import PIG
from tests.helpers import Camera, wait_until
from tests.loop.conftest import still
from vision import read_table, synth
from vision.errors import InvalidVisionInput
from vision.looks import MATCH, die_look, look_distance, nearest_die

COLOURS = {"red": (40, 40, 200), "blue": (200, 80, 30), "white": (235, 235, 235), "green": (60, 160, 60),
           "black": (30, 30, 30), "yellow": (40, 210, 230), "grey": (140, 140, 140), "orange": (30, 120, 240)}

pytestmark = pytest.mark.usefixtures("pig")


def drawn(dice: list[tuple[str, int, float, float]], *, kind: str = "felt", gain: float = 1.0,
          seed: int = 1) -> np.ndarray:
    """A tray with a d6 per ``(colour, value, x, y)``, lit at ``gain`` with a light falloff."""
    img = synth.tray(seed=seed, kind=kind)
    for n, (colour, value, x, y) in enumerate(dice):
        pip = (235, 235, 235) if colour == "black" else (20, 20, 20)
        synth.draw_die(img, x, y, 56, value, body=COLOURS[colour], pip=pip, angle=17 * n + 5 * seed)
    return synth.lighting(img, gain=gain, gradient=0.25, noise=3.0, seed=seed)


@pytest.mark.parametrize("kind", ["felt", "wood"])
def test_eight_colours_are_told_apart_under_every_light(kind: str) -> None:
    taught = {name: [die_look(drawn([(name, 3, 200, 200)], kind=kind), (172, 172, 56, 56))]
              for name in COLOURS}
    for gain in (0.6, 0.7, 0.85, 1.15, 1.3):
        for name in COLOURS:
            look = die_look(drawn([(name, 5, 420, 300)], kind=kind, gain=gain, seed=2), (392, 272, 56, 56))
            found = nearest_die(look, dict(enumerate(taught.values())))
            assert found == list(COLOURS).index(name), (kind, gain, name)
            assert look_distance(look, taught[name][0]) < MATCH / 4, (kind, gain, name)


def test_dice_that_look_alike_or_nothing_taught_are_not_told_apart() -> None:
    red = die_look(drawn([("red", 2, 200, 200)]), (172, 172, 56, 56))
    other_red = die_look(drawn([("red", 6, 300, 250)], seed=3), (272, 222, 56, 56))
    assert nearest_die(red, {1: [other_red], 2: [other_red]}) is None  # which of the two reds?
    assert nearest_die(red, {}) is None
    blue = die_look(drawn([("blue", 2, 200, 200)]), (172, 172, 56, 56))
    assert nearest_die(blue, {1: [red]}) is None  # a blue die is no taught die at all


def test_bad_frames_and_boxes_are_refused() -> None:
    frame = drawn([("red", 1, 100, 100)])
    for bad in (frame[..., 0], frame.astype(np.float32), "frame"):
        with pytest.raises(InvalidVisionInput, match="frame"):
            die_look(bad, (0, 0, 10, 10))  # type: ignore[arg-type]
    for box in ((0, 0, 10), (0, 0, float("nan"), 5), (900, 900, 10, 10), (5, 5, 0, 0)):
        with pytest.raises(InvalidVisionInput, match="bbox"):
            die_look(frame, box)
    corner = drawn([("red", 1, 16, 16)])  # a die half out of the picture: its box is clipped
    assert die_look(corner, (-12, -12, 56, 56))[1] > 60  # r = R / (R + G + B): red


Table = tuple[TableSession, DiceBook, Camera, int, int]


def reader(frame: np.ndarray) -> dict[str, Any]:
    return read_table(frame).to_json()


@pytest.fixture
def table(store: Store) -> Iterator[Table]:
    camera = Camera()
    book = DiceBook(store, frames=camera, reader=reader)
    red = book.name_die("il d6 rosso", 6, "red")["id"]
    blue = book.name_die("il d6 blu", 6, "blue")["id"]
    session = TableSession(store)
    session.new_game("pig", PIG)
    yield session, book, camera, red, blue


def roll(session: TableSession, book: DiceBook, frame: np.ndarray) -> dict[str, Any]:
    """The camera reads ``frame``, a person confirms, the book gives the rolls by their look."""
    reading = reader(frame)
    snap = session.offer_reading(reading)
    assert snap["proposal"] is not None
    session.confirm()
    return {"given": book.attribute_by_look(reading, frame), "reading": reading}


def test_taught_dice_get_the_rolls_they_are_seen_in(table: Table) -> None:
    session, book, camera, red, blue = table
    camera.frame = drawn([("red", 2, 320, 240)])
    assert book.teach_look(red)["taught"] == 1
    camera.frame = drawn([("blue", 6, 300, 200)], gain=0.8, seed=4)
    taught = book.teach_look(blue)
    assert taught["taught"] == 1 and taught["looks"] == 1
    # two d6 at the table: without the look nobody would know; with it, the red one rolled a 4
    assert roll(session, book, drawn([("red", 4, 150, 300)], gain=0.7, seed=5))["given"] == 1
    assert roll(session, book, drawn([("blue", 3, 500, 150)], gain=1.2, seed=6))["given"] == 1
    assert [f["count"] for f in book.die_report(red)["faces"]] == [0, 0, 0, 1, 0, 0]
    assert [f["count"] for f in book.die_report(blue)["faces"]] == [0, 0, 1, 0, 0, 0]
    # Pig reads one die of the tray: the other die's look finds no roll of the step to take
    done = roll(session, book, drawn([("blue", 5, 200, 200), ("red", 2, 450, 300)], seed=7))
    first = min(done["reading"]["dice"], key=lambda d: d["bbox"][0])  # Pig's proposal: the first d6 read
    assert done["given"] == 1
    assert book.report()["unattributed"]["rolls"] == 0
    assert book.die_report(blue)["rolls"] + book.die_report(red)["rolls"] == 3
    assert first["value"] in (5, 2)
    # two reds in one reading: one die cannot show two faces, so neither roll is given
    session.new_game("button-goblin", {"players": [
        {"name": "Anna", "button": "Lobo", "swing": {"X": 6, "W": 6, "Y": 6}},
        {"name": "Bruno", "button": "Lobo", "swing": {"X": 6, "W": 6, "Y": 6}}]}, archive=True)
    waiting = book.report()["unattributed"]["rolls"]
    frame = drawn([("red", 2, 120, 200), ("red", 5, 250, 200), ("blue", 1, 420, 200)], seed=8)
    given = book.attribute_by_look(reader(frame), frame)
    assert given == 0 and book.report()["unattributed"]["rolls"] == waiting


def test_teaching_needs_a_picture_with_the_die(table: Table) -> None:
    session, book, camera, red, _ = table
    with pytest.raises(NoPicture, match="no picture yet"):
        book.teach_look(red)
    camera.frame = synth.tray(seed=3)
    with pytest.raises(NothingToTeach, match="no d6 found in the picture: put il d6 rosso alone"):
        book.teach_look(red)
    with pytest.raises(NoPicture, match="no camera"):
        DiceBook(session.store).teach_look(red)
    camera.frame = drawn([("red", 2, 320, 240)])
    for n in range(MAX_LOOKS + 2):
        assert book.teach_look(red)["taught"] == min(n + 1, MAX_LOOKS)
    assert book.forget_looks(red)["looks"] == 0
    assert session.store.die(red).looks == ()  # type: ignore[union-attr]


def test_serve_teaches_from_the_camera_and_gives_confirmed_rolls_by_look(tmp_path: Path) -> None:
    replay = tmp_path / "replay"
    replay.mkdir()
    shots = {"0-red": drawn([("red", 2, 320, 240)]), "1-blue": drawn([("blue", 6, 320, 240)], seed=2),
             "2-roll": drawn([("red", 4, 200, 300)], gain=0.8, seed=3)}
    for name, image in shots.items():
        assert cv2.imwrite(str(replay / f"{name}.png"), image)
    state = tmp_path / "state"
    with Store(state) as store:
        book = DiceBook(store)
        red = book.name_die("il d6 rosso", 6, "red")["id"]
        blue = book.name_die("il d6 blu", 6, "blue")["id"]
        TableSession(store).new_game("pig", PIG)
    config = replace(Config(state_dir=str(state)), camera=CameraConfig(source=f"replay:{replay}"),
                     buttons=ButtonsConfig(enabled=False), led=LedConfig(enabled=False))
    with Companion(config, settle=still) as companion:
        client = companion.app.test_client()
        assert client.get("/api/dice").json["can_teach"] is True

        def showing(name: str) -> bool:
            latest = companion.holder.latest()
            return latest is not None and np.array_equal(latest[1], cv2.imread(str(replay / f"{name}.png")))

        wait_until(lambda: showing("0-red"))
        assert client.post(f"/api/dice/{red}/teach", json={}).json["looks"] == 1
        companion.capture.source.advance()
        wait_until(lambda: showing("1-blue"))
        assert client.post(f"/api/dice/{blue}/teach", json={}).json["looks"] == 1
        companion.capture.source.advance()
        wait_until(lambda: (p := companion.session.snapshot()["proposal"])
                   and p["action"]["values"]["die"] == 4)
        assert client.post("/api/confirm", json={}).status_code == 200
        report = client.get("/api/dice").json
        assert [d["rolls"] for d in report["dice"]] == [1, 0] and report["unattributed"]["rolls"] == 0
        assert report["dice"][0]["faces"][3]["count"] == 1 and report["dice"][0]["camera"] == 1
