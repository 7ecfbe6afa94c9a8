"""Regression tests of the Button Goblin audit: each deviation from the issue or the rulebook, pinned.

The command line is driven in-process through ``companion.cli.main`` with a real byte stdin, so that
encoding and exit-status behaviour are those of the installed command.
"""

import io
import json
import sys

import pytest

from companion.cli import main


def cli(capsys, monkeypatch, *args: str, stdin: bytes | str = b""):
    """Run ``goblin-companion button-goblin ARGS`` in-process: (exit status, stdout JSON or None, stderr)."""
    raw = stdin.encode() if isinstance(stdin, str) else stdin
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    status = main(["button-goblin", *args])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip() else None), err


def one_error_line(status, out, err) -> str:
    assert status == 2 and out is None
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert len(err) < 400, err
    return err


# ---------------------------------------------------------------------- 1: undecodable or deep input


def test_non_utf8_stdin_is_one_clear_error_line(capsys, monkeypatch):
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", stdin=b'{"to_move": 0, "players": "\xff\xfe"}'))
    assert "UTF-8" in err and "0xff" in err


def test_very_deep_json_is_one_clear_error_line(capsys, monkeypatch):
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", stdin="[" * 100_000 + "]" * 100_000))
    assert "nested too deeply" in err


def test_deep_but_parsable_json_is_quoted_briefly(capsys, monkeypatch):
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", stdin="[" * 500 + "]" * 500))
    assert "position must be a JSON object" in err


def test_huge_numbers_are_one_clear_error_line(capsys, monkeypatch):
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", stdin='{"to_move": 1' + "0" * 5000 + "}"))
    assert "too large" in err
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", "--position", "A: " + "7" * 5000 + " | B: 1"))
    assert "too large" in err


def test_a_byte_order_mark_is_accepted(capsys, monkeypatch):
    status, out, err = cli(capsys, monkeypatch, "analyze",
                           stdin=b"\xef\xbb\xbf" + b'{"players": [{"dice": [{"sides": 6, "value": 2}]},'
                                                   b' {"dice": [{"sides": 6, "value": 3}]}]}')
    assert status == 0, err
    assert out["initiative"]["player"] == 0


@pytest.mark.parametrize("args", [("analyze",), ("apply",)])
def test_empty_stdin_still_says_what_was_expected(capsys, monkeypatch, args):
    err = one_error_line(*cli(capsys, monkeypatch, *args, stdin=b""))
    assert "got nothing" in err
