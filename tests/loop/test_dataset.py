"""Every confirmed reading teaches the table: confirm -> the frame and its dice in <state dir>/dataset
(labels.json in the format of ../shared/dice-photos) -> ``goblin-companion dataset export`` -> ``tune``."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from companion.cli import main as cli
from companion.config import Config, LedConfig
from companion.dataset import TableDataset
from companion.demo import DEMO_DIR, DEMO_SETUP
from companion.serve import Companion
from tests.helpers import Clock, wait_until
from tests.loop import labelled
from tests.loop.conftest import still
from tests.loop.test_loop import Table

CLOCK = Clock()


def _companion(tmp_path: Path, mock_factory: MockFactory, reader: Any = labelled.read,
               **camera: object) -> Companion:
    config = replace(Config(), state_dir=str(tmp_path / "state"), led=LedConfig(pin=23),
                     camera=replace(Config().camera, frame_interval=0.02, photo_seconds=1000.0, **camera))
    return Companion(config, camera=f"replay:{DEMO_DIR}", reader=reader, settle=still,
                     pin_factory=mock_factory, button_clock=CLOCK, button_poll=None, web=False)


def _confirm_first_roll(companion: Companion, mock_factory: MockFactory) -> dict:
    table = Table(companion.start(), mock_factory, CLOCK)
    table.session.new_game("button-goblin", DEMO_SETUP)
    snap = table.wait_for_proposal()
    table.press("confirm")
    assert table.session.snapshot()["step"] == 1
    return snap["proposal"]["reading"]


def test_a_confirmed_reading_is_kept_with_its_frame(tmp_path: Path, mock_factory: MockFactory) -> None:
    companion = _companion(tmp_path, mock_factory)
    try:
        reading = _confirm_first_roll(companion, mock_factory)
    finally:
        companion.close()
    root = tmp_path / "state" / "dataset"
    labels = json.loads((root / "labels.json").read_text())
    assert labels["label_origin"].startswith("dice confirmed")
    [entry] = labels["images"]
    frame = cv2.imread(str(root / entry["file"]))
    assert frame.shape[:2] == (entry["height"], entry["width"])
    truth = next(r for r in labelled.labels().values() if r["file"] == "table_01.jpg")
    assert (entry["width"], entry["height"]) == (truth["width"], truth["height"])
    assert sorted((d["bbox"], d["value"]) for d in entry["dice"]) == sorted(
        (d["bbox"], d["value"]) for d in reading["dice"])

    out = tmp_path / "exported"
    assert cli(["dataset", "export", str(out), "--config", str(_config(tmp_path))]) == 0
    assert json.loads((out / "labels.json").read_text())["images"] == labels["images"]
    assert (out / entry["file"]).read_bytes() == (root / entry["file"]).read_bytes()


def test_a_die_the_camera_missed_is_added_where_the_finder_sees_it_and_kept(
        tmp_path: Path, mock_factory: MockFactory) -> None:
    """The camera missed the first photo's first die; a player taps near it on the page: the real finder
    looking there in the real frame gives its box, the zones in force its zone, and the confirmed reading
    keeps it, manual, in the table's set."""
    truth = next(r for r in labelled.labels().values() if r["file"] == "table_01.jpg")
    missed = truth["dice"][0]

    def read_missing_one(frame: np.ndarray) -> dict[str, Any]:
        reading = labelled.read(frame)
        return {**reading, "dice": [d for d in reading["dice"] if d is not missed]}

    companion = _companion(tmp_path, mock_factory, reader=read_missing_one)
    try:
        table = Table(companion.start(), mock_factory, CLOCK)
        table.session.new_game("button-goblin", DEMO_SETUP)
        wait_until(lambda: table.session.snapshot()["reading"] is not None)
        assert table.session.snapshot()["proposal"] is None       # a die short: nothing fits
        x, y, w, h = missed["bbox"]
        tapped = ((x + 0.8 * w) / truth["width"], (y + 0.3 * h) / truth["height"])  # off its centre
        snap = table.session.add_die(*tapped, sides=missed["sides"], value=missed["value"])
        added = snap["proposal"]["reading"]["dice"][-1]
        assert added["zone"] == missed["zone"] and added["manual"] is True
        assert iou(added["bbox"], missed["bbox"]) >= 0.5, (added["bbox"], missed["bbox"])
        # centred on the die, not on the tap (0.3 of its width and 0.2 of its height off)
        ax, ay, aw, ah = added["bbox"]
        assert abs(ax + aw / 2 - (x + w / 2)) <= 0.15 * w and abs(ay + ah / 2 - (y + h / 2)) <= 0.15 * h
        table.press("confirm")
        assert table.session.snapshot()["step"] == 1
    finally:
        companion.close()
    [entry] = json.loads((tmp_path / "state" / "dataset" / "labels.json").read_text())["images"]
    kept = [d for d in entry["dice"] if d.get("manual")]
    assert kept == [{"sides": missed["sides"], "value": missed["value"], "bbox": added["bbox"],
                     "manual": True, "added": True}]
    assert entry["finder"] == "shipped" and "removed" not in entry
    assert TableDataset(tmp_path / "state" / "dataset").counts() == {
        "photos": 1, "dice": len(truth["dice"]), "added": 1, "removed": 0}


def test_a_phantom_the_players_remove_is_counted_in_the_set(tmp_path: Path,
                                                             mock_factory: MockFactory) -> None:
    """The camera reads a die that is not there (a speck beside the tray); a player removes it: the confirmed
    photo keeps the real dice only and says one was removed, so the table can tell a finder that invents
    dice (``tablefinder.watch``). A die the player added and then removed again is not counted."""
    truth = next(r for r in labelled.labels().values() if r["file"] == "table_01.jpg")
    phantom = {"bbox": [5, 5, 30, 30], "sides": 6, "value": 1, "confidence": 0.6, "zone": "p0"}

    def read_a_phantom(frame: np.ndarray) -> dict[str, Any]:
        reading = labelled.read(frame)
        return {**reading, "dice": [*reading["dice"], phantom]}

    companion = _companion(tmp_path, mock_factory, reader=read_a_phantom)
    try:
        table = Table(companion.start(), mock_factory, CLOCK)
        table.session.new_game("button-goblin", DEMO_SETUP)
        wait_until(lambda: table.session.snapshot()["reading"] is not None)
        seen = table.session.snapshot()["reading"]["seen"]
        table.session.fix_die(len(seen) - 1, remove=True)
        table.session.add_die(0.9, 0.9, sides=6, value=3)
        snap = table.session.fix_die(len(seen) - 1, remove=True)     # the added one, taken back
        assert snap["proposal"] is not None
        table.press("confirm")
        assert table.session.snapshot()["step"] == 1
    finally:
        companion.close()
    [entry] = json.loads((tmp_path / "state" / "dataset" / "labels.json").read_text())["images"]
    assert entry["removed"] == 1 and entry["finder"] == "shipped"
    assert TableDataset(tmp_path / "state" / "dataset").counts() == {
        "photos": 1, "dice": len(truth["dice"]), "added": 0, "removed": 1}
    assert sorted(d["bbox"] for d in entry["dice"]) == sorted(d["bbox"] for d in truth["dice"])
    assert not any(d.get("added") or d.get("manual") for d in entry["dice"])


def iou(a: list[int], b: list[float]) -> float:
    ix = max(0.0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    return ix * iy / (a[2] * a[3] + b[2] * b[3] - ix * iy)


def test_keeping_can_be_turned_off(tmp_path: Path, mock_factory: MockFactory) -> None:
    companion = _companion(tmp_path, mock_factory, keep_confirmed=False)
    try:
        _confirm_first_roll(companion, mock_factory)
    finally:
        companion.close()
    assert not (tmp_path / "state" / "dataset" / "labels.json").exists()


def test_the_oldest_photos_go_first(tmp_path: Path) -> None:
    data = TableDataset(tmp_path / "d", max_images=3)
    jpeg = cv2.imencode(".jpg", np.zeros((8, 8, 3), np.uint8))[1].tobytes()
    for v in range(1, 6):
        data.add(jpeg, {"dice": [{"bbox": [0, 0, 4, 4], "sides": 6, "value": v}]}, width=8, height=8)
    images = data.labels()["images"]
    assert [e["dice"][0]["value"] for e in images] == [3, 4, 5]
    kept = sorted(p.name for p in (tmp_path / "d" / "images").iterdir())
    assert kept == [Path(e["file"]).name for e in images]
    assert data.add(jpeg, {"dice": []}, width=8, height=8) is None          # nothing to learn from
    assert data.add(None, {"dice": [{"bbox": [0, 0, 4, 4], "value": 1}]}, width=8, height=8) is None


def test_the_jobs_that_run_by_themselves_count_confirmed_photos_across_restarts(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """``since(job)``: photos confirmed since ``mark(job)``, read back by a new ``TableDataset`` (the
    companion started again), dropped photos not counted, a set emptied and numbered anew counted from its
    start, a spoilt marks file taken as no mark; ``finder=`` counts the photos that finder read."""
    root = tmp_path / "d"
    data = TableDataset(root, max_images=4)
    jpeg = cv2.imencode(".jpg", np.zeros((8, 8, 3), np.uint8))[1].tobytes()

    def add(n: int, finder: str = "shipped") -> None:
        for _ in range(n):
            data.add(jpeg, {"dice": [{"bbox": [0, 0, 4, 4], "sides": 6, "value": 1}]}, width=8, height=8,
                     finder=finder)

    assert (data.since("tune"), data.marked("tune")) == (0, False)
    add(3)
    assert (data.since("tune"), data.marked("tune")) == (3, False)   # never marked: every photo counts
    assert data.newest() == 3
    data.mark("tune", data.newest())
    add(2, finder="abc123")
    again = TableDataset(root, max_images=4)                          # the companion started again
    assert (again.since("tune"), again.marked("tune"), again.since("compare")) == (2, True, 4)
    assert (again.since("tune", finder="abc123"), again.since("compare", finder="abc123")) == (2, 2)
    add(3)                                                           # 8 confirmed, the 4 newest kept
    assert data.labels()["images"][0]["file"] == "images/000005.jpg"
    assert (data.since("tune"), data.since("compare")) == (4, 4)      # photo 4 (after the mark) was dropped
    assert json.loads((root / "marks.json").read_text()) == {"tune": 3}
    for f in (root / "images").iterdir():                            # the set thrown away by hand ...
        f.unlink()
    (root / "labels.json").unlink()
    add(1)                                                           # ... and numbered anew
    assert (data.since("tune"), data.marked("tune")) == (1, False)
    (root / "marks.json").write_text("{not json")
    with caplog.at_level("WARNING", logger="companion.dataset"):
        assert (data.since("tune"), data.marked("tune")) == (1, False)
    assert "marks.json is unreadable" in caplog.text
    data.mark("tune", 1)                                             # the next run writes it whole again
    assert json.loads((root / "marks.json").read_text()) == {"tune": 1} and data.since("tune") == 0
    (root / "marks.json").unlink()
    (root / "marks.json").mkdir()                                    # cannot be written: said, not raised
    with caplog.at_level("WARNING", logger="companion.dataset"):
        data.mark("tune", 1)
    assert "could not keep where tune ended" in caplog.text and data.since("tune") == 1


def test_a_hand_edited_set_is_taken_as_it_comes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """labels.json edited by hand (entries that are no entries, dice that are no list, dice that are no
    dice): info, export, tune and the next confirmed photo go on with what is readable."""
    root = tmp_path / "state" / "dataset"
    (root / "images").mkdir(parents=True)
    jpeg = cv2.imencode(".jpg", np.full((48, 64, 3), 90, np.uint8))[1].tobytes()
    (root / "images" / "000001.jpg").write_bytes(jpeg)
    good = {"file": "images/000001.jpg", "dice": [{"bbox": [4, 4, 10, 10], "sides": 6, "value": 2}]}
    (root / "labels.json").write_text(json.dumps({"images": [
        "junk", 5, good, {"file": "images/000001.jpg", "dice": "many"},
        {"file": "images/000001.jpg", "dice": ["x", {"bbox": "y"}, None]}]}))
    config = str(_config(tmp_path))
    assert cli(["dataset", "info", "--config", config]) == 0
    assert json.loads(capsys.readouterr().out) == {"photos": 3, "dice": 4, "added": 0, "removed": 0,
                                                   "dir": str(root)}
    assert cli(["dataset", "export", str(tmp_path / "out"), "--config", config]) == 0
    assert json.loads(capsys.readouterr().out)["exported"] == 3
    assert cli(["tune", "--config", config]) == 2
    assert "tune needs 5 at least" in capsys.readouterr().err
    data = TableDataset(root)
    assert data.add(jpeg, good, width=64, height=48) == "images/000002.jpg"
    assert [e["file"] for e in data.labels()["images"]][-1] == "images/000002.jpg" and len(data) == 4


def _config(tmp_path: Path) -> Path:
    path = tmp_path / "goblin.toml"
    path.write_text(f'state_dir = "{tmp_path / "state"}"\n')
    return path


@pytest.mark.slow
def test_tune_measures_before_and_after_on_held_back_photos(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    data = TableDataset(tmp_path / "state" / "dataset")
    truth = sorted(labelled.labels().values(), key=lambda r: r["file"])
    for _ in range(3):                         # the demo's four photos, as three evenings of play
        for r in truth:
            frame = cv2.imread(str(DEMO_DIR / r["file"]))
            data.add(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes(), r,
                     width=frame.shape[1], height=frame.shape[0])
    assert cli(["tune", "--config", str(_config(tmp_path)), "--dry-run"]) == 0
    got = json.loads(capsys.readouterr().out)
    held = sum(len(r["dice"]) for i, r in enumerate(truth * 3) if i % 5 == 4)
    assert got["photos"] == 12 and got["held_back_dice"] == held
    assert got["taught_dice"] == sum(len(r["dice"]) for r in truth * 3) - held
    assert 0 <= got["right_before"] <= held and 0 <= got["right_after"] <= held
    assert got["saved"] is False and not (tmp_path / "state" / "calibration.json").exists()
    assert got["method"] == "head" and got["not_dice"] >= 0 and got["unconfirmed_before"] >= 0
    assert not data.marked("tune")                                   # a dry run is no run of the table's
    assert cli(["tune", "--config", str(_config(tmp_path))]) == 0
    capsys.readouterr()
    assert data.marked("tune") and data.since("tune") == 0           # serve's automatic runs count from it


def test_tune_says_when_the_set_is_too_small(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["tune", "--config", str(_config(tmp_path))]) == 2
    assert "tune needs 5" in capsys.readouterr().err




def test_tune_reads_one_frame_at_a_time(tmp_path: Path) -> None:
    """400 photos of the Pi HQ camera decoded at once would be 3.7 GB: tune reads each when it needs it."""
    from companion.tuner import Frames as _Frames

    read: list[str] = []
    frames = _Frames([(tmp_path / f"{i}.jpg", [((0, 0, 9, 9), 3)]) for i in range(400)],
                     lambda path: read.append(path.name) or np.zeros((2, 2, 3), np.uint8))
    assert len(frames) == 400 and read == []
    image, dice = frames[7]
    assert read == ["7.jpg"] and image.shape == (2, 2, 3) and dice == [((0, 0, 9, 9), 3)]
    assert len(frames[10:20]) == 10 and read == ["7.jpg"]


@pytest.mark.slow
def test_tokens_taught_while_tune_runs_stay_in_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """`goblin-companion tune` in a terminal while the page teaches a token: the head goes onto the file
    as it is when tune ends, not onto the one it read at its start."""
    import companion.scan
    from tests.loop.test_tuner import fill
    from tests.teach.conftest import tray
    from vision import Calibration

    fill(TableDataset(tmp_path / "state" / "dataset"))
    path = tmp_path / "state" / "calibration.json"
    read = companion.scan.read_image

    def teach_meanwhile(p: Path) -> np.ndarray:
        if not path.exists():   # the page teaches three live tokens while tune reads its first photo
            Calibration().teach_found(tray(["alive"] * 3, seed=1), kind="token", label="alive")[0].save(path)
        return read(p)

    monkeypatch.setattr(companion.scan, "read_image", teach_meanwhile)
    assert cli(["tune", "--config", str(_config(tmp_path))]) == 0
    got = json.loads(capsys.readouterr().out)
    saved = Calibration.load(path)
    assert got["saved"] is True and saved.head is not None   # the demo's set is read better tuned
    assert saved.labels("token") == ["alive"]
