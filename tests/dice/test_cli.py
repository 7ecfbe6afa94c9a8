"""``goblin-companion dice-report``: the page's numbers as JSON, from the companion's real SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.dice import DiceBook
from companion.store import DB_NAME, Store
from tests.dice.conftest import seeded


def report(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object] | None, str]:
    code = main(["dice-report", *argv])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err


@pytest.fixture
def state(tmp_path: Path) -> tuple[Path, int, int]:
    folder = tmp_path / "state"
    with Store(folder) as store:
        book = DiceBook(store)
        red = book.name_die("il d20 rosso", 20, "red")["id"]
        white = book.name_die("il d6 bianco", 6, "white")["id"]
        book.enter_rolls(red, values=seeded(11, [1.0] * 19 + [3.0], 400))
        book.enter_rolls(white, values=[1, 2, 3])
    return folder, red, white


def test_the_report_of_every_die_matches_the_page(capsys: pytest.CaptureFixture[str],
                                                  state: tuple[Path, int, int]) -> None:
    folder, _, white = state
    code, out, err = report(capsys, "--state-dir", str(folder))
    assert code == 0 and err == "" and out is not None
    with Store(folder) as store:
        assert out == {**DiceBook(store).report(), "file": str(folder / DB_NAME)}
    dice = {d["name"]: d for d in out["dice"]}  # type: ignore[union-attr]
    loaded = dice["il d20 rosso"]
    assert loaded["rolls"] == 400 and loaded["hand"] == 400 and len(loaded["faces"]) == 20
    assert loaded["verdict"]["kind"] == "face-high" and loaded["verdict"]["face"] == 20
    assert loaded["verdict"]["it"].startswith("il 20 esce troppo spesso")
    assert loaded["p"] is not None and 0 <= loaded["p"] <= 1 and loaded["df"] == 19
    few = dice["il d6 bianco"]
    assert few["verdict"]["kind"] == "too-few" and few["p"] is None and few["need"] == 30
    # the same through --db and for one die
    code, one, _ = report(capsys, "--db", str(folder / DB_NAME), "--die", str(white))
    assert code == 0 and one is not None and one["name"] == "il d6 bianco" and one["rolls"] == 3


def test_the_state_directory_comes_from_the_config(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                   state: tuple[Path, int, int]) -> None:
    folder, _, _ = state
    config = tmp_path / "goblin.toml"
    config.write_text(f'state_dir = "{folder}"\n', encoding="utf-8")
    code, out, _ = report(capsys, "--config", str(config))
    assert code == 0 and out is not None and len(out["dice"]) == 2  # type: ignore[arg-type]


@pytest.mark.parametrize(("argv", "message"), [
    (["--die", "99"], "no die 99: the table's dice are 1, 2"),
    (["--die", "rosso"], "--die takes a die's number"),
    (["--die", "-1"], "--die takes a die's number"),
    (["--frobnicate"], "unrecognized arguments: --frobnicate"),
])
def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], state: tuple[Path, int, int],
                                            argv: list[str], message: str) -> None:
    folder, _, _ = state
    code, out, err = report(capsys, "--state-dir", str(folder), *argv)
    assert code == 2 and out is None and err.count("\n") == 1
    assert err.startswith("goblin-companion dice-report: ") and message in err, err


def test_no_log_is_an_error_and_creates_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    empty = tmp_path / "nowhere"
    code, out, err = report(capsys, "--state-dir", str(empty))
    assert code == 2 and out is None and "no event log at" in err and not empty.exists()
    code, _, err = report(capsys, "--db", str(tmp_path / "x.sqlite3"), "--state-dir", str(empty))
    assert code == 2 and "not both" in err
    code, _, err = report(capsys, "--db", str(tmp_path))
    assert code == 2 and "names the log file itself" in err
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    code, _, err = report(capsys, "--db", str(junk))
    assert code == 2 and "cannot use" in err and err.count("\n") == 1
