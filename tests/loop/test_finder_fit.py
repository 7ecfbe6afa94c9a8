"""The table's finder fitted here, without torch (``companion.finderfit``, ``goblin-companion finder fit``,
``TableFinder.fit``): measured on held-back photos of the table's own set, installed only when it reads
them no worse, stoppable, refused with what was wrong for a set it cannot learn from."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.cli import main as cli
from companion.dataset import TableDataset
from companion.errors import InvalidInput
from companion.finderfit import (
    FitRunning,
    FitStopped,
    Photo,
    fit_here,
    held_back,
    install_kept,
    last_fit,
    load_photos,
    measure,
    rendered_trays,
)
from companion.tablefinder import TableFinder, TableModels, embedded_card, install, installed
from vision import read_table
from vision.data import photo_set
from vision.finder import model_path
from vision.learned import MODELS
from vision.reading import Die, TableReading


def add(dataset: TableDataset, image: np.ndarray, dice: list[dict[str, Any]]) -> None:
    jpeg = cv2.imencode(".jpg", image)[1].tobytes()
    dataset.add(jpeg, {"dice": dice}, width=image.shape[1], height=image.shape[0])


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


@pytest.fixture
def aws_set(state: Path) -> TableDataset:
    """Twelve photos of aws (whole dice boxed, as the camera boxes them) as a table's confirmed set."""
    dataset = TableDataset(state / "dataset")
    for p in photo_set("aws")[:24:2]:
        add(dataset, p.load(), [{"bbox": [round(v) for v in d.bbox], "sides": 6, "value": d.value}
                                for d in p.dice if d.bbox is not None])
    return dataset


def entries(dataset: TableDataset) -> list:
    return list(dataset.photos(dataset.labels()))


def test_a_fit_is_measured_on_held_back_photos_and_installed_when_no_worse(
        state: Path, aws_set: TableDataset) -> None:
    card = fit_here(state, entries(aws_set), minutes=0.15, seed=3)
    assert card["photos"] == 12 and card["held_back"] == 2 and card["steps"] > 5   # photos 5 and 10
    assert card["rendered_trays"] == 4   # ten photos taught: the fewest trays of polyhedral dice
    assert card["judged_against"] == "shipped"
    assert card["before"]["dice"] == card["after"]["dice"] > 0
    assert card["better"] == (card["after"]["found_pct"] >= card["before"]["found_pct"]
                              and card["after"]["phantom_per_photo"] <= card["before"]["phantom_per_photo"])
    assert last_fit(state) == card
    if card["better"]:
        path = installed(state)
        assert path is not None and card["installed"] == str(path) and card["kept"] is None
        assert TableModels(state)()[0] == str(path)
        inside = embedded_card(path.read_bytes())   # the card travels in the file, as the torch tool's
        assert inside == {k: v for k, v in card.items() if k not in ("installed", "kept")}
    else:
        assert card["installed"] is None and installed(state) is None


def test_a_fit_that_reads_the_held_back_photos_worse_is_not_installed(
        state: Path, aws_set: TableDataset) -> None:
    """The decision, on a reader that finds nothing with any finder but the shipped one."""
    def read(frame: np.ndarray, models: tuple[str, ...]) -> Any:
        return read_table(frame, models=models) if models == MODELS else TableReading((), ())

    card = fit_here(state, entries(aws_set), minutes=0.05, read=read)
    assert card["before"]["found_pct"] > 50 and card["after"]["found_pct"] == 0
    assert card["better"] is False and card["installed"] is None
    assert installed(state) is None and TableModels(state)() == MODELS
    assert not (state / "fitting" / "fitted.onnx").exists()
    # kept, so the players can install it all the same: then it is the table's, its card saying so
    kept = Path(card["kept"])
    assert kept.is_file() and embedded_card(kept.read_bytes())["after"]["found_pct"] == 0
    done = install_kept(state)
    assert installed(state) == Path(done["installed"]) and not kept.exists()
    assert last_fit(state)["installed"] == done["installed"] and last_fit(state)["kept"] is None
    with pytest.raises(InvalidInput, match="no fit left out"):
        install_kept(state)


def test_the_same_photos_are_held_back_at_every_fit() -> None:
    """By the number the table's set gave each photo, so a photo a new fit is judged on was never taught to
    a fit made before it, however the set has grown or dropped its oldest photos since."""
    def photos(numbers: range) -> list[Photo]:
        return [Photo(None, [], f"images/{n:06d}.jpg") for n in numbers]

    held, taught = held_back(photos(range(1, 31)))
    assert [p.file for p in held] == [f"images/{n:06d}.jpg" for n in (5, 10, 15, 20, 25, 30)]
    assert len(taught) == 24 and not {p.file for p in held} & {p.file for p in taught}
    later, _ = held_back(photos(range(12, 61)))   # eleven oldest dropped, thirty new ones
    assert {p.file for p in held if p.file >= "images/000012.jpg"} <= {p.file for p in later}
    assert len(later) == 10
    # a set too small to hold back two by number, or named by hand: one in five by place
    few, rest = held_back(photos(range(11, 15)) + photos(range(16, 20)))
    assert [p.file for p in few] == ["images/000011.jpg", "images/000017.jpg"] and len(rest) == 6
    named = [Photo(None, [], f"images/table-{c}.jpg") for c in "abcdefghijkl"]
    held, taught = held_back(named)
    assert len(held) + len(taught) == 12 and 2 <= len(held) <= 6
    assert held_back(named) == (held, taught)   # the same every time
    # tools/fit_table_finder.py names its photos otherwise: the same photos held back from an exported set
    exported = [(f"images/{n:06d}.jpg", n) for n in range(1, 31)]
    assert [n for _, n in held_back(exported, lambda e: e[0])[0]] == [5, 10, 15, 20, 25, 30]


def test_the_players_corrections_are_counted_on_the_held_back_photos() -> None:
    """Missed dice, phantoms and wrong values: what the players would have to fix."""
    photo = Photo(np.zeros((200, 300, 3), np.uint8),
                  [(50, 50, 30, 30, 3), (150, 50, 30, 30, 5), (250, 150, 30, 30, -1)])
    read = [Die((35, 35, 30, 30), 6, 3, 0.9, None), Die((135, 35, 30, 30), 6, 2, 0.9, None),
            Die((235, 135, 30, 30), 6, 4, 0.9, None), Die((100, 150, 30, 30), 6, 1, 0.4, None)]
    got = measure([photo, photo], ("any",), lambda frame, models: TableReading(300, 200, tuple(read)))
    assert got["missed"] == 0 and got["phantoms"] == 2 and got["wrong_values"] == 2   # per photo 0, 1, 1
    assert got["corrections"] == 4 and got["dice"] == 6
    got = measure([photo], ("any",), lambda frame, models: TableReading(300, 200, tuple(read[:1])))
    assert (got["missed"], got["phantoms"], got["wrong_values"], got["corrections"]) == (2, 0, 0, 2)


def test_a_fit_is_judged_against_the_finder_the_table_reads_with_now(
        state: Path, aws_set: TableDataset, tmp_path: Path) -> None:
    """A table finder installed before (here a copy of the shipped one) is what a new fit must beat, not the
    shipped finder: a reader that finds dice only with the installed one measures it, and refuses the fit."""
    copy = tmp_path / "earlier.onnx"
    copy.write_bytes(model_path(MODELS[0]).read_bytes())
    earlier = install(state, copy)["installed"]

    def read(frame: np.ndarray, models: tuple[str, ...]) -> Any:
        return read_table(frame, models=models) if models[0] == earlier else TableReading((), ())

    card = fit_here(state, entries(aws_set), minutes=0.05, read=read)
    assert card["judged_against"] == Path(earlier).stem.removeprefix("finder-")
    assert card["before"]["found_pct"] > 50 and card["after"]["found_pct"] == 0
    assert card["better"] is False and card["installed"] is None
    assert installed(state) == Path(earlier)   # the earlier finder still reads the table


def test_a_stopped_fit_installs_nothing(state: Path, aws_set: TableDataset) -> None:
    class After:   # says stop after a few asks: in the middle of the fit
        asks = 0

        def is_set(self) -> bool:
            self.asks += 1
            return self.asks > 20

    with pytest.raises(FitStopped):
        fit_here(state, entries(aws_set), minutes=5, stop=After())
    assert installed(state) is None and last_fit(state) is None


def test_a_set_boxing_part_of_each_die_or_too_small_is_refused(state: Path) -> None:
    dataset = TableDataset(state / "dataset")

    def third(box: tuple[float, ...]) -> list[int]:   # the middle third of the die, as matteop65 boxes pips
        x, y, w, h = box
        return [round(x + w / 3), round(y + h / 3), max(1, round(w / 3)), max(1, round(h / 3))]

    shots = [(p.load(), [{"bbox": third(d.bbox), "sides": 6, "value": d.value} for d in p.dice if d.bbox])
             for p in photo_set("aws")[:20:2]]
    for image, dice in shots[:3]:
        add(dataset, image, dice)
    with pytest.raises(InvalidInput, match="needs 10 or more"):
        fit_here(state, entries(dataset), minutes=1)
    for image, dice in shots[3:]:
        add(dataset, image, dice)
    with pytest.raises(InvalidInput, match="part of each die"):
        fit_here(state, entries(dataset), minutes=1)
    with pytest.raises(InvalidInput, match="at most 180 minutes"):
        fit_here(state, entries(dataset), minutes=1e9)
    assert installed(state) is None


def test_the_photos_are_kept_within_the_memory_budget_newest_first(state: Path) -> None:
    dataset = TableDataset(state / "dataset")
    for i in range(6):
        image = np.full((400, 600, 3), 40 * i, np.uint8)
        add(dataset, image, [{"bbox": [10, 10, 320, 300], "sides": 6, "value": 1 + i}])   # a die of 320 px
    add(dataset, np.zeros((400, 600, 3), np.uint8), [])   # no die: not kept by the set at all
    got = load_photos(entries(dataset), budget=3 * 200 * 300 * 3)
    assert [p.objects[0][4] for p in got] == [4, 5, 6]   # the newest three, oldest first
    for p in got:   # each shrunk by half: its die is 160 px
        assert p.image.shape == (200, 300, 3)
        assert max(p.objects[0][2:4]) == pytest.approx(160)


def test_the_rendered_trays_are_the_seeds_and_box_every_die_they_show() -> None:
    a, b = rendered_trays(90, 7), rendered_trays(90, 7)
    assert len(a) == 30 and len(rendered_trays(3, 7)) == 4 and len(rendered_trays(1000, 7)) == 40
    assert all(np.array_equal(x.image, y.image) and x.objects == y.objects for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[0].image, rendered_trays(1, 8)[0].image)
    for tray in a[:5]:
        assert tray.image.shape == (480, 640, 3) and len(tray.objects) == 6
        for cx, cy, w, h, _ in tray.objects:
            assert 0 < cx < 640 and 0 < cy < 480 and 20 <= max(w, h) <= 110


def test_a_hand_edited_set_keeps_only_the_dice_that_lie_in_their_photo(state: Path) -> None:
    dataset = TableDataset(state / "dataset")
    add(dataset, np.full((100, 200, 3), 90, np.uint8), [{"bbox": [10, 10, 20, 20], "sides": 6, "value": 3}])
    data = dataset.labels()
    data["images"][0]["dice"] += [{"bbox": [float("nan"), 1, 2, 2]}, {"bbox": [5, 5, -3, 4]},
                                  {"bbox": [500, 10, 20, 20]}, {"bbox": [0, 0, 1e308, 1e308]},
                                  {"bbox": [1, 2, 3]}, {"bbox": "box"}, "die", {"bbox": [1, True, 3, 4]}]
    data["images"].append({"file": "images/missing.jpg", "dice": [{"bbox": [1, 1, 5, 5]}]})
    got = load_photos(list(dataset.photos(data)))
    assert len(got) == 1 and got[0].objects == [(20.0, 20.0, 20.0, 20.0, 3)]


def test_finder_fit_on_the_command_line(tmp_path: Path, state: Path, aws_set: TableDataset,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "goblin.toml"
    config.write_text(f'state_dir = "{state}"\n')
    assert cli(["finder", "fit", "--minutes", "0", "--config", str(config)]) == 2
    assert "at most 180 minutes, not 0" in capsys.readouterr().err
    assert cli(["finder", "fit", "--minutes", "0.1", "--seed", "9", "--config", str(config)]) == 0
    card = json.loads(capsys.readouterr().out)
    assert card["seed"] == 9 and card["photos"] == 12 and "found_pct" in card["after"]
    assert card["command"] == "goblin-companion finder fit --minutes 0.1 --seed 9"
    status = cli(["finder", "info", "--config", str(config)])
    said = json.loads(capsys.readouterr().out)
    assert status == 0 and said["finder"] == ("table" if card["better"] else "shipped")


def test_the_table_fits_in_the_background_one_job_at_a_time_and_stops(
        state: Path, aws_set: TableDataset) -> None:
    table = TableFinder(state, aws_set)
    started = table.fit(30)
    assert started["fit"]["minutes"] == 30 and started["fit_error"] is None
    with pytest.raises(FitRunning):
        table.fit(1)
    with pytest.raises(FitRunning, match="being fitted"):
        table.compare()
    seen = threading.Event()
    for _ in range(600):   # the photos read and measured, then the fit runs
        fit = table.state()["fit"]
        if fit is not None and fit["phase"] == "fitting" and fit["steps"] > 0:
            seen.set()
            break
        threading.Event().wait(0.1)
    assert seen.is_set()
    table.cancel_fit()
    table.wait(30)
    after = table.state()
    assert after["fit"] is None and after["finder"] == "shipped"
    assert after["fit_error"]["code"] == "fit-stopped"
    with pytest.raises(InvalidInput, match="shipped finder"):   # the job is over: compare is free again
        table.compare()


def test_the_rule_study_pairs_each_table_and_counts_where_rule_and_truth_agree() -> None:
    """benchmarks/fit_rule_study.py: a fit that makes fewer corrections on the other half helps; the rule
    agrees when it installs exactly the fits that help."""
    from tests.helpers import benchmark

    study = benchmark("fit_rule_study")

    def rows(skip: int, half: str, before: int, after: int, installs: bool) -> list[dict[str, Any]]:
        common = {"set": "aws", "skip": skip, "table_half": half, "table_photos": 30,
                  "held_corrections": [5, 3], "would_install": installs}
        return [{**common, "finder": "fitted", "corrections": after},
                {**common, "finder": "before", "corrections": before}]

    got = study.tabulate(rows(0, "first", 100, 80, True) + rows(30, "first", 100, 120, True)
                         + rows(0, "second", 90, 95, False) + rows(60, "second", 90, 70, False)
                         + [{"set": "nell", "skip": 0, "finder": "fitted", "corrections": 1}])   # unpaired
    assert got[-1] == "the rule agrees with the other half on 2 of 4 tables"
    assert [line.split()[-1] for line in got[1:-1]] == ["yes", "NO", "yes", "NO"]
    assert "30-59" in got[2] and "HARMS" in got[2] and "helps" in got[4]
