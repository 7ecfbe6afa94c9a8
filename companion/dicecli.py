"""``goblin-companion dice-report [--die N] [--state-dir DIR | --db FILE] [--config FILE]``: how fair each of
the table's named dice is, as the page "I vostri dadi" shows it (``companion.dice``).

Reads the event log the companion keeps (``<state dir>/companion.sqlite3``; ``--db`` names the file, or
``--state-dir`` its folder, else the config's state directory). One JSON line on stdout: the report of
every named die (``{"format": "goblin-companion/dice-1", "alpha", "threshold", "confidence", "dice":
[...], "unattributed": {"rolls", "by_sides"}, "file"}``), or with ``--die N`` that die's entry. Each die
has ``id``, ``name``, ``sides``, ``colour``, ``at_table``, ``rolls``, ``hand``, ``camera``, ``faces``
(``face``, ``count``, ``share``, ``low``, ``high``, ``residual``, ``p_adjusted``), ``chi2``, ``df``,
``p``, ``testable``, ``need`` and ``verdict`` (``kind``, ``it``, ``en``...): see ``docs/dice.md``.

No log at that place, an unreadable file, or an unknown die: one stderr line and exit status 2 (no file
is created).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.errors import InvalidInput
from companion.jsoncli import Parser, json_command
from companion.store import DB_NAME


def _parser() -> Parser:
    p = Parser(prog="goblin-companion dice-report",
               description="how fair each named die of the table is: rolls, face counts, chi-square, verdict")
    p.add_argument("--die", metavar="N", help="only this die (its number in the report)")
    p.add_argument("--db", metavar="FILE", help=f"the event log (default: <state dir>/{DB_NAME})")
    p.add_argument("--state-dir", metavar="DIR", help="the companion's state directory")
    p.add_argument("--config", metavar="FILE", help="TOML settings (default: $GOBLIN_CONFIG)")
    return p


def main(argv: Sequence[str]) -> int:
    return json_command("goblin-companion dice-report", _parser(), argv, lambda args: run(
        die=args.die, db=args.db, state_dir=args.state_dir, config=args.config))


def run(*, die: str | None = None, db: str | None = None, state_dir: str | None = None,
        config: str | None = None) -> dict[str, Any]:
    """The report (see the module docstring); InvalidInput when there is nothing to read."""
    from companion.dice import DiceBook
    from companion.store import Store

    if db and state_dir:
        raise InvalidInput("give --db or --state-dir, not both")
    if db:
        path = Path(db)
    else:
        if state_dir:
            folder = Path(state_dir)
        else:
            from companion.config import load_config

            folder = load_config(config).state_path()
        path = folder / DB_NAME
    if not path.suffix:
        raise InvalidInput(f"--db names the log file itself, such as {DB_NAME!r}, not {str(path)!r}")
    if not path.is_file():
        raise InvalidInput(f"no event log at {str(path)!r}: play a match (or name a die) with the companion "
                           "first, or say where it is with --db FILE or --state-dir DIR")
    number = None
    if die is not None:
        if not die.isascii() or not die.isdigit() or len(die) > 18:
            raise InvalidInput(f"--die takes a die's number (see the report's \"id\"), not {die[:40]!r}")
        number = int(die)
    with Store(path) as store:
        book = DiceBook(store)
        if number is not None:
            return {**book.die_report(number), "file": str(path)}
        return {**book.report(), "file": str(path)}
