"""The table's own die finder (``companion.tablefinder``): ``goblin-companion finder install FILE`` checks
and keeps a fitted finder, the table then reads with it, ``finder forget`` goes back to the shipped one;
a file that is no die finder is refused with what was wrong and the finder in use stays."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import pytest

from companion.cli import main as cli
from companion.config import Config
from companion.demo import DEMO_DIR
from companion.serve import vision_reader
from companion.tablefinder import MAX_BYTES, TableModels
from vision import read_table
from vision.learned import MODELS

ROOT = Path(__file__).resolve().parents[2]
#: a real finder that is not the shipped one: the one trained without aws (the leave-one-out benchmark's)
OTHER = ROOT / "benchmarks" / "models" / "finder-no-aws.onnx"


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "goblin.toml"
    path.write_text(f'state_dir = "{tmp_path / "state"}"\n')
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict | str]:
    status = cli(["finder", *args])
    out, err = capsys.readouterr()
    return status, json.loads(out) if status == 0 else err


def test_a_fitted_finder_is_installed_read_with_and_forgotten(
        tmp_path: Path, config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fitted = tmp_path / "finder-table.onnx"
    shutil.copyfile(OTHER, fitted)
    (tmp_path / "finder-table.onnx.json").write_text(json.dumps({"after": {"found_pct": 95.2}}))
    models = TableModels(tmp_path / "state")
    assert models() == MODELS
    assert run(capsys, "info", "--config", str(config)) == (0, {"finder": "shipped"})

    status, got = run(capsys, "install", str(fitted), "--config", str(config))
    assert status == 0 and isinstance(got, dict)
    assert got["demo_found"] >= 0.75 * got["demo_dice"] and got["card"] == {"after": {"found_pct": 95.2}}
    path = Path(got["installed"])
    assert path.parent == tmp_path / "state" / "models" and path.read_bytes() == OTHER.read_bytes()
    assert models() == (str(path), *MODELS[1:])
    assert run(capsys, "info", "--config", str(config))[1]["card"] == {"after": {"found_pct": 95.2}}

    # the camera's reader reads with it: as read_table with that finder, not as with the shipped one
    read, _ = vision_reader(replace(Config(), state_dir=str(tmp_path / "state")), models=models)
    frames = [cv2.imread(str(p)) for p in sorted(DEMO_DIR.glob("table_0*.jpg"))]
    boxes = [[d.bbox for d in read(f).dice] for f in frames]
    assert boxes == [[d.bbox for d in read_table(f, models=models()).dice] for f in frames]
    assert boxes != [[d.bbox for d in read_table(f).dice] for f in frames]

    assert run(capsys, "forget", "--config", str(config)) == (0, {"finder": "shipped", "forgot": 1})
    assert models() == MODELS and not list((tmp_path / "state" / "models").iterdir())


@pytest.mark.parametrize(("make", "says"), [
    (lambda p: p.write_bytes(b"\x08\x07not a network at all"), "not a network cv2.dnn can run"),
    (lambda p: shutil.copyfile(ROOT / "vision" / "models" / "faces.onnx", p), "is no die finder"),
    (lambda p: p.write_bytes(b"\0" * (MAX_BYTES + 1)), f"a finder is at most {MAX_BYTES}"),
    (lambda p: None, "cannot read"),
])
def test_what_is_no_die_finder_is_refused_and_the_finder_in_use_stays(
        tmp_path: Path, config: Path, capsys: pytest.CaptureFixture[str], make, says: str) -> None:
    shutil.copyfile(OTHER, tmp_path / "good.onnx")
    status, got = run(capsys, "install", str(tmp_path / "good.onnx"), "--config", str(config))
    assert status == 0
    bad = tmp_path / "bad.onnx"
    make(bad)
    status, err = run(capsys, "install", str(bad), "--config", str(config))
    assert status == 2 and says in err and err.count("\n") == 1
    assert TableModels(tmp_path / "state")()[0] == got["installed"]


def test_install_needs_a_file(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, err = run(capsys, "install", "--config", str(config))
    assert status == 2 and "needs a file" in err


def test_a_die_added_on_the_page_is_looked_for_with_the_tables_finder(
        tmp_path: Path, mock_factory: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.finder
    from companion.reading import TableReading
    from companion.serve import Companion
    from companion.tablefinder import install

    shutil.copyfile(OTHER, tmp_path / "fitted.onnx")
    path = install(tmp_path / "state", tmp_path / "fitted.onnx")["installed"]
    companion = Companion(replace(Config(), state_dir=str(tmp_path / "state")), camera=f"replay:{DEMO_DIR}",
                          pin_factory=mock_factory, button_poll=None, web=False)
    asked: list[str] = []
    looked = vision.finder.found_at
    monkeypatch.setattr(vision.finder, "found_at",
                        lambda *a, **k: asked.append(k["model"]) or looked(*a, **k))
    try:
        assert companion.worker is not None
        frame = cv2.imread(str(DEMO_DIR / "table_01.jpg"))
        companion.worker.last_read_frame = frame
        box, zone = companion._place_die(TableReading(frame.shape[1], frame.shape[0]), 221.5, 146.5)
    finally:
        companion.close()
    assert asked == [path] and zone == "p0" and box is not None
