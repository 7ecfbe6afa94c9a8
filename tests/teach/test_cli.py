"""``goblin-companion teach`` on real image files: one JSON line, or exit 2 with one clear stderr line."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from vision import Calibration, read_table


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["teach", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_teach_both_faces_then_scan_reads_the_table(tmp_path: Path, photos: dict[str, Path],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    cal = tmp_path / "table.json"
    status, out, err = run(capsys, str(photos["alive"]), "--kind", "token", "--label", "alive",
                           "--calibration", str(cal))
    assert status == 0 and err == ""
    line = json.loads(out)
    assert line == {"calibration": str(cal), "kind": "token", "label": "alive", "learned": 3,
                    "files": [{"file": str(photos["alive"]), "learned": 3}], "forgot": False,
                    "examples": 3, "tokens": {"alive": 3}, "faces": {}, "tuned": False}
    assert out.count("\n") == 1
    status, out, _ = run(capsys, str(photos["dead"]), "--label", "dead", "--calibration", str(cal))
    assert status == 0 and json.loads(out)["tokens"] == {"alive": 3, "dead": 3}
    assert main(["scan", "--json", "--calibration", str(cal), str(photos["mixed"])]) == 0
    scanned = json.loads(capsys.readouterr().out)
    assert sorted(t["face"] for t in scanned["tokens"]) == ["alive"] * 3 + ["dead"] * 2


def test_the_default_file_is_the_one_serve_reads(tmp_path: Path, photos: dict[str, Path],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    config = tmp_path / "companion.toml"
    config.write_text(f'state_dir = "{state}"\n', encoding="utf-8")
    status, out, _ = run(capsys, str(photos["alive"]), "--label", "alive", "--config", str(config))
    assert status == 0 and json.loads(out)["calibration"] == str(state / "calibration.json")
    assert Calibration.load(state / "calibration.json").labels("token") == ["alive"]


@pytest.mark.parametrize("which, args, words", [
    ("corrupt", ["--label", "alive"], "not an image OpenCV can decode"),
    ("missing", ["--label", "alive"], "No such file"),
    ("empty", ["--label", "alive"], "no goblin token found"),
    ("alive", ["--label", "skull"], "\"alive\" or \"dead\", not 'skull'"),
    ("alive", [], "--label is needed"),
    ("alive", ["--label", "alive", "--kind", "coin"], "kind must be"),
    ("alive", ["--label", "6"], "\"alive\" or \"dead\", not '6'"),
])
def test_errors_exit_2_with_one_clear_line_and_change_nothing(
        tmp_path: Path, photos: dict[str, Path], capsys: pytest.CaptureFixture[str], which: str,
        args: list[str], words: str) -> None:
    cal = tmp_path / "table.json"
    run(capsys, str(photos["dead"]), "--label", "dead", "--calibration", str(cal))
    before = cal.read_bytes()
    image = str(tmp_path / "nope.jpg") if which == "missing" else str(photos[which])
    # a good photo listed first is not learned either: all the photos, or none
    status, out, err = run(capsys, str(photos["alive"]), image, *args, "--calibration", str(cal))
    assert status == 2 and out == ""
    assert err.startswith("goblin-companion teach: ") and err.count("\n") == 1 and words in err
    assert cal.read_bytes() == before


def test_an_unreadable_calibration_needs_forget(tmp_path: Path, photos: dict[str, Path],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    cal = tmp_path / "table.json"
    cal.write_text("{", encoding="utf-8")
    status, _, err = run(capsys, str(photos["alive"]), "--label", "alive", "--calibration", str(cal))
    assert status == 2 and "not JSON" in err and "--forget" in err
    status, out, _ = run(capsys, str(photos["alive"]), "--label", "alive", "--calibration", str(cal),
                         "--forget")
    assert status == 0 and json.loads(out)["forgot"] is True and json.loads(out)["examples"] == 3
    reading = read_table(cv2.imread(str(photos["alive"])), calibration=Calibration.load(cal))
    assert reading.count_tokens() == {"alive": 3}
    status, out, _ = run(capsys, "--forget", "--calibration", str(cal))
    assert status == 0 and json.loads(out)["examples"] == 0 and not cal.exists()
    status, _, err = run(capsys, "--calibration", str(cal))
    assert status == 2 and "no image given" in err


def test_forget_keeps_the_head_tune_fitted(tmp_path: Path, photos: dict[str, Path],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import numpy as np

    from vision.teach import EMBEDDING, HEAD_CLASSES, TableHead

    cal = tmp_path / "table.json"
    head = TableHead(np.ones((len(HEAD_CLASSES), EMBEDDING)), np.zeros(len(HEAD_CLASSES)), "reader")
    assert run(capsys, str(photos["alive"]), "--label", "alive", "--calibration", str(cal))[0] == 0
    Calibration.load(cal).with_head(head).save(cal)
    status, out, _ = run(capsys, "--forget", "--calibration", str(cal))
    assert status == 0 and json.loads(out)["examples"] == 0 and json.loads(out)["tuned"] is True
    assert Calibration.load(cal).head.same(head) and not Calibration.load(cal).examples
