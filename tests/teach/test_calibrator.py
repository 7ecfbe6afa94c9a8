"""The calibration file as the companion keeps it: loaded at start, taught, forgotten; an unreadable file
leaves the table running uncalibrated and says why."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.calibration import Calibrator, NoPicture, NothingToTeach, learn
from companion.errors import InvalidInput
from tests.helpers import Camera
from tests.teach.conftest import tray
from vision import Calibration, read_table


def test_no_file_is_uncalibrated_and_teaching_writes_it(tmp_path: Path, camera: Camera) -> None:
    path = tmp_path / "state" / "calibration.json"
    cal = Calibrator(path, frames=camera)
    assert cal.current() is None
    assert cal.state() == {"calibrated": False, "examples": 0, "tokens": {}, "faces": {}, "tuned": False,
                           "file": str(path),
                           "error": None, "last": None}
    camera.frame = tray(["alive"] * 3, seed=1)
    got = cal.teach_from_camera(kind="token", label="alive")
    assert got["learned"] == 3 and got["tokens"] == {"alive": 3} and got["calibrated"] is True
    camera.frame = tray(["dead"] * 2, seed=2)
    got = cal.teach_from_camera(kind="token", label="dead")
    assert got["learned"] == 2 and got["tokens"] == {"alive": 3, "dead": 2}
    assert got["last"] == {"kind": "token", "label": "dead", "learned": 2}
    # the file is what a restart (and `scan --calibration`) reads
    assert Calibration.load(path) == cal.current()
    assert Calibrator(path).state()["tokens"] == {"alive": 3, "dead": 2}
    assert sorted(p.name for p in path.parent.iterdir()) == ["calibration.json"]  # no temporary left
    reading = read_table(tray(["alive", "dead", "dead", "alive", "alive"], seed=7, kind="wood", gain=0.85),
                         calibration=Calibrator(path).current())
    assert reading.count_tokens() == {"alive": 3, "dead": 2}


@pytest.mark.parametrize("content, words", [
    ("{", "not JSON"),
    ('{"format": "something else"}', "not a goblin-companion-calibration"),
    ('{"format": "goblin-companion-calibration", "version": 1, "size": 32, "examples": 5}', "TypeError"),
    (b"\xff\xfe\x00garbage", "not JSON"),
])
def test_an_unreadable_file_leaves_the_table_uncalibrated_and_says_why(
        tmp_path: Path, camera: Camera, content: str | bytes, words: str) -> None:
    path = tmp_path / "calibration.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    cal = Calibrator(path, frames=camera)
    state = cal.state()
    assert cal.current() is None and state["calibrated"] is False
    assert words in state["error"] and "calibration.json" in state["error"]
    # teaching again replaces it; the unreadable file is kept aside, not destroyed
    before = path.read_bytes()
    camera.frame = tray(["dead"] * 3, seed=2)
    assert cal.teach_from_camera(kind="token", label="dead")["error"] is None
    assert (tmp_path / "calibration.json.unreadable").read_bytes() == before
    assert Calibration.load(path).labels("token") == ["dead"]


def test_a_file_that_cannot_be_opened_is_an_error_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    path.mkdir()  # e.g. a directory where the file should be
    state = Calibrator(path).state()
    assert state["calibrated"] is False and "calibration.json" in state["error"]


def test_a_failed_write_leaves_the_old_file_whole(tmp_path: Path, camera: Camera,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "calibration.json"
    cal = Calibrator(path, frames=camera)
    camera.frame = tray(["alive"] * 3, seed=1)
    cal.teach_from_camera(kind="token", label="alive")
    before = path.read_bytes()

    def power_cut(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", power_cut)
    camera.frame = tray(["dead"] * 3, seed=2)
    with pytest.raises(InvalidInput, match="No space left"):
        cal.teach_from_camera(kind="token", label="dead")
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["calibration.json"]  # the temporary is gone
    assert cal.state()["tokens"] == {"alive": 3}  # what is in memory is what is on disk


def test_nothing_to_teach_and_no_picture_change_nothing(tmp_path: Path, camera: Camera) -> None:
    from vision import synth

    path = tmp_path / "calibration.json"
    cal = Calibrator(path, frames=camera)
    with pytest.raises(NoPicture, match="no picture yet"):
        cal.teach_from_camera(kind="token", label="alive")
    camera.frame = synth.tray(seed=4)
    with pytest.raises(NothingToTeach, match="no goblin token"):
        cal.teach_from_camera(kind="token", label="alive")
    assert not path.exists() and cal.current() is None


@pytest.mark.parametrize("kind, label, words", [
    ("coin", "alive", "kind must be"), ("token", "skull", "\"alive\" or \"dead\""), ("token", "", "label"),
    ("token", None, "label"), ("face", "six", "value it stands for"), ("face", "0", "1..100"),
])
def test_bad_kind_or_label_names_what_was_wrong(tmp_path: Path, camera: Camera, kind: object,
                                                label: object, words: str) -> None:
    camera.frame = tray(["alive"], seed=1)
    with pytest.raises(InvalidInput, match=words):
        Calibrator(tmp_path / "c.json", frames=camera).teach_from_camera(kind=kind, label=label)


def test_forget_removes_the_file_even_an_unreadable_one(tmp_path: Path, camera: Camera) -> None:
    path = tmp_path / "calibration.json"
    path.write_text("{", encoding="utf-8")
    cal = Calibrator(path, frames=camera)
    assert cal.state()["error"]
    assert cal.forget() == {"calibrated": False, "examples": 0, "tokens": {}, "faces": {}, "tuned": False,
                            "file": str(path),
                            "error": None, "last": None}
    assert not path.exists()


def test_a_die_face_is_taught_from_its_one_die() -> None:
    from vision import synth

    def emblem_die(seed: int):  # a die whose 6 is a skull (its eyes look like pips)
        img = synth.tray(kind="felt", seed=seed)
        synth.draw_die(img, 320, 240, 70, 1, pip=(235, 235, 235))
        synth.draw_token(img, 320, 240, 44, "dead", paper=(235, 235, 235))
        return img

    calibration, learned = learn(Calibration(), emblem_die(1), kind="face", label="6")
    assert learned == 1
    assert [d.value for d in read_table(emblem_die(2), calibration=calibration).dice] == [6]
    with pytest.raises(NothingToTeach, match="no die"):
        learn(Calibration(), synth.tray(seed=5), kind="face", label="6")


def test_a_file_written_while_the_companion_runs_is_read_and_taught_on_not_over(tmp_path: Path,
                                                                               camera: Camera) -> None:
    """`goblin-companion tune` writes the table's head into the file while `serve` runs: the reader uses
    it at once, and teaching a token afterwards keeps it."""
    import numpy as np

    from vision.teach import EMBEDDING, HEAD_CLASSES, TableHead

    path = tmp_path / "calibration.json"
    cal = Calibrator(path, frames=camera)
    camera.frame = tray(["alive"] * 3, seed=1)
    cal.teach_from_camera(kind="token", label="alive")
    assert cal.current().head is None and cal.state()["tuned"] is False
    head = TableHead(np.ones((len(HEAD_CLASSES), EMBEDDING)), np.zeros(len(HEAD_CLASSES)), "reader")
    tuned = Calibration.load(path).with_head(head)
    tuned.save(path)
    os.utime(path, ns=(1, 1))   # a different stamp even on a file system of coarse times
    assert cal.current() == tuned and cal.state()["tuned"] is True
    camera.frame = tray(["dead"] * 2, seed=2)
    got = cal.teach_from_camera(kind="token", label="dead")
    assert got["tokens"] == {"alive": 3, "dead": 2} and got["tuned"] is True
    assert Calibration.load(path).head is not None and Calibration.load(path).head.same(head)


def test_forgetting_the_tokens_keeps_the_tables_head_and_dropping_the_head_keeps_the_tokens(
        tmp_path: Path, camera: Camera) -> None:
    import numpy as np

    from vision.teach import EMBEDDING, HEAD_CLASSES, TableHead

    head = TableHead(np.ones((len(HEAD_CLASSES), EMBEDDING)), np.zeros(len(HEAD_CLASSES)), "reader")
    path = tmp_path / "calibration.json"
    cal = Calibrator(path, frames=camera)
    camera.frame = tray(["alive"] * 3, seed=1)
    cal.teach_from_camera(kind="token", label="alive")
    cal.adopt_head(head)
    state = cal.forget()
    assert state["examples"] == 0 and state["tuned"] is True
    assert Calibration.load(path).head.same(head) and not Calibration.load(path).examples
    cal.teach_from_camera(kind="token", label="alive")
    state = cal.drop_head()
    assert state["tokens"] == {"alive": 3} and state["tuned"] is False
    assert Calibration.load(path).head is None
    cal.forget()
    assert not path.exists()
    cal.adopt_head(head)
    cal.drop_head()                         # nothing left: no file
    assert not path.exists() and cal.current() is None
