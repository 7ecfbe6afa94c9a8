"""The ``goblin-companion`` command line.

Each sub-command lives in its own module, imported only when it runs, so that ``goblin-companion
button-goblin analyze`` never pays for OpenCV or Flask. Every sub-command follows one discipline:
JSON on stdout, and on bad input exit status 2 with one line on stderr that says what was wrong.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence

from companion.games import GAMES

#: sub-command -> ("module:function", help); the function takes the remaining argv and returns an exit
#: status. The games' commands come from the one registry, ``companion.games.GAMES``.
COMMANDS: dict[str, tuple[str, str]] = {
    **{name: (f"{entry.package}.cli:main", entry.command) for name, entry in GAMES.items()},
    "rules": ("companion.rulescli:main", "any game through the rules protocol: new, apply, show"),
    "scan": ("companion.scan:main", "read dice and tokens in photos, print JSON"),
    "serve": ("companion.serve:main", "run the companion: camera, buttons and the phone page"),
    "teach": ("companion.teach:main", "teach the table's tokens (alive/dead) from photos"),
    "dataset": ("companion.dataset_cli:dataset_main", "the table's own labelled set: export DIR, info"),
    "tune": ("companion.dataset_cli:tune_main", "adapt the face reader to this table's confirmed dice"),
    "finder": ("companion.tablefinder:main", "the table's own die finder: install FILE, info, forget"),
    "dice-report": ("companion.dicecli:main", "how fair each named die of the table is, as JSON"),
}

USAGE = "usage: goblin-companion COMMAND [ARGS...]\n\ncommands:\n" + "\n".join(
    f"  {name:<14} {help_}" for name, (_, help_) in COMMANDS.items()
)


def _load(target: str) -> Callable[[Sequence[str]], int]:
    module_name, _, function = target.partition(":")
    module = importlib.import_module(module_name)
    entry: Callable[[Sequence[str]], int] = getattr(module, function)
    return entry


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0 if args else 2
    if args[0] == "--version":
        from companion import __version__

        print(__version__)
        return 0
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"goblin-companion: unknown command {name!r}; one of: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    return _load(COMMANDS[name][0])(rest)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
