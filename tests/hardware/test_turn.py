"""``camera.turn``: a camera mounted upside down or on its side has its frames turned before they are read and
shown, so the table's far side is at the top, where the vision's reading of a die's top expects it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.config import Config, ConfigError, parse_config
from hardware.frames import CaptureLoop
from hardware.sources import ReplaySource, turned
from vision.data import photo_set

DEMO = Path(__file__).resolve().parents[2] / "companion" / "demo"


def _demo() -> np.ndarray:
    image = cv2.imread(str(DEMO / "table_01.jpg"))
    assert image is not None
    return image


def test_a_frame_is_turned_clockwise() -> None:
    image = _demo()
    h, w = image.shape[:2]
    assert turned(image, 0) is image
    right = turned(image, 90)
    assert right.shape == (w, h, 3)
    # clockwise: the top-left pixel goes to the top right, the bottom-left one to the top left
    assert (right[0, h - 1] == image[0, 0]).all() and (right[0, 0] == image[h - 1, 0]).all()
    assert (turned(image, 180) == image[::-1, ::-1]).all()
    assert (turned(turned(image, 90), 270) == image).all()
    with pytest.raises(ValueError, match="0, 90, 180 or 270"):
        turned(image, 45)


def test_the_capture_loop_publishes_turned_frames(tmp_path: Path) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    image = _demo()
    cv2.imwrite(str(folder / "table.png"), image)
    loop = CaptureLoop(ReplaySource(folder, frame_interval=0.01), turn=270, sleep=lambda s: None)
    try:
        assert loop.step()
        frame = loop.holder.latest()
        assert frame is not None
        assert (frame[1] == cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE)).all()
    finally:
        loop.stop()
    with pytest.raises(ValueError, match="turn"):
        CaptureLoop(ReplaySource(folder), turn=45)


@pytest.mark.parametrize("bad", [45, -90, 360, True, "180", 90.0])
def test_the_turn_setting_is_a_quarter_turn(bad: object) -> None:
    from companion.config import TURNS
    from hardware import sources

    assert TURNS == sources.TURNS       # the setting's turns are the ones a frame can be given
    assert Config().camera.turn == 0
    assert parse_config({"camera": {"turn": 180}}).camera.turn == 180
    assert parse_config({"camera": {"turn": 90}}).to_json()["camera"]["turn"] == 90
    with pytest.raises(ConfigError, match=r"camera\.turn must be 0, 90, 180 or 270"):
        parse_config({"camera": {"turn": bad}})


def test_the_table_turns_its_camera_as_set(tmp_path: Path) -> None:
    from companion.serve import Companion

    folder = tmp_path / "photos"
    folder.mkdir()
    image = _demo()
    cv2.imwrite(str(folder / "table.png"), image)
    config = replace(Config(), state_dir=str(tmp_path / "state"))
    config = replace(config, camera=replace(config.camera, turn=180))
    companion = Companion(config, camera=f"replay:{folder}", button_poll=None, web=False,
                          pin_factory=_mock_factory())
    try:
        assert isinstance(companion.capture, CaptureLoop) and companion.capture.turn == 180
        assert companion.capture.step()
        frame = companion.holder.latest()
        assert frame is not None and (frame[1] == image[::-1, ::-1]).all()
    finally:
        companion.close()


def _mock_factory() -> object:
    from gpiozero.pins.mock import MockFactory

    return MockFactory()


def test_scan_turns_a_photo_of_a_camera_mounted_upside_down(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    # aws IMG_20191112_101937: a phone photo from in front of the table (its lilac die's top "1" lies above
    # its front "5"); the same pixels upside down and on their side, turned back by --turn, read alike
    photo = next(p for p in photo_set("aws") if p.path.name == "IMG_20191112_101937.jpg")
    image = photo.load()
    upright = tmp_path / "upright.png"
    cv2.imwrite(str(upright), image)
    upside_down = tmp_path / "upside_down.png"
    cv2.imwrite(str(upside_down), cv2.rotate(image, cv2.ROTATE_180))
    on_its_side = tmp_path / "on_its_side.png"
    cv2.imwrite(str(on_its_side), cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE))
    assert main(["scan", str(upright), "--json"]) == 0
    assert main(["scan", str(upside_down), "--json", "--turn", "180"]) == 0
    assert main(["scan", str(on_its_side), "--json", "--turn", "90"]) == 0
    first, second, third = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert (first["width"], first["height"]) == (second["width"], second["height"]) == (512, 384)
    assert (third["width"], third["height"]) == (512, 384)
    assert len(first["dice"]) >= 5
    assert first["dice"] == second["dice"] == third["dice"]
    lilac = [d for d in first["dice"] if abs(d["bbox"][0] - 446) <= 6 and abs(d["bbox"][1] - 148) <= 6]
    assert [d["value"] for d in lilac] == [1]
    assert main(["scan", str(upright), "--turn", "45"]) == 2
    assert "--turn" in capsys.readouterr().err


def _vision_eval() -> object:
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "vision_eval.py"
    spec = importlib.util.spec_from_file_location("vision_eval", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("degrees", [90, 180, 270])
def test_the_benchmark_turns_the_boxes_back(degrees: int) -> None:
    """``vision_eval.py --turn``: what is read in the turned photo is matched to the labels of the photo."""
    from companion.reading import Die, TableReading

    def bright_box(image: np.ndarray) -> TableReading:
        x, y, w, h = cv2.boundingRect(cv2.findNonZero(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)))
        return TableReading(image.shape[1], image.shape[0], (Die((x, y, w, h), 6, 3, 0.9, None),))

    image = np.zeros((120, 200, 3), np.uint8)
    image[10:40, 150:170] = 255           # a 20 x 30 box at (150, 10), near the top right
    read = _vision_eval().turned_read(bright_box, degrees)  # type: ignore[attr-defined]
    reading = read(image)
    assert (reading.width, reading.height) == (200, 120)
    assert [d.bbox for d in reading.dice] == [(150, 10, 20, 30)]


def test_the_benchmark_scales_enlarged_boxes_back() -> None:
    """``vision_eval.py --enlarge``: what is read in the enlarged photo is matched in the photo's pixels."""
    from companion.reading import Die, TableReading

    def bright_box(image: np.ndarray) -> TableReading:
        x, y, w, h = cv2.boundingRect(cv2.findNonZero(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)))
        return TableReading(image.shape[1], image.shape[0], (Die((x, y, w, h), 6, 3, 0.9, None),))

    def bright_half(image: np.ndarray) -> TableReading:     # the enlargement's soft edge cut at half
        return bright_box(np.where(image > 127, image, 0).astype(np.uint8))

    image = np.zeros((120, 200, 3), np.uint8)
    image[10:40, 150:170] = 255
    read = _vision_eval().enlarged_read(bright_half, 4.0)  # type: ignore[attr-defined]
    reading = read(image)
    assert (reading.width, reading.height) == (200, 120)
    (box,) = [d.bbox for d in reading.dice]
    assert all(abs(a - b) <= 1 for a, b in zip(box, (150, 10, 20, 30), strict=True))
