"""The command-line dispatcher: help, unknown commands, and the exit-status discipline."""

import subprocess
import sys

from companion.cli import COMMANDS, main


def test_help_lists_every_command(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert name in out


def test_no_command_is_a_usage_error(capsys):
    assert main([]) == 2


def test_unknown_command_exits_2_with_one_line(capsys):
    assert main(["chess"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'chess'" in err[0]


def test_python_dash_m_runs_the_same_entry_point():
    done = subprocess.run([sys.executable, "-m", "companion", "--version"], capture_output=True, text=True)
    assert done.returncode == 0
    assert done.stdout.strip() == "0.1.0"


# Every game's command line reads JSON through companion.jsoncli; hostile bytes get one clear line each.
HOSTILE = [
    (b'{"state": \xff\xfe}', "not UTF-8"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"state": ' + b"9" * 5000 + b"}", "number too large"),
    (b'{"state": {}, "state": {}}', "given twice"),
]


def test_every_game_cli_refuses_hostile_json_with_one_line():
    for game in ("dadoteck", "gobcon", "goblins", "skirmish", "button-goblin"):
        for data, quoted in HOSTILE:
            command = "analyze" if game == "button-goblin" else "apply"
            done = subprocess.run(
                [sys.executable, "-m", "companion", game, command], input=data, capture_output=True
            )
            lines = done.stderr.decode().strip().splitlines()
            assert done.returncode == 2, (game, quoted, done.stderr[-300:])
            assert len(lines) == 1 and quoted in lines[0], (game, lines)
            assert done.stdout == b""
