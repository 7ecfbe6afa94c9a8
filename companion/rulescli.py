"""``goblin-companion rules GAME ...``: any game through the rules protocol, one JSON shape for all.

    goblin-companion rules GAME new [SETUP]              # SETUP: the setup JSON of the game's table flow
    goblin-companion rules GAME apply [INPUT]            # {"state": ..., "event": E} or {"state", "events"}
    goblin-companion rules GAME apply --state S --event E
    goblin-companion rules GAME show [INPUT]             # {"state": ...} or the state alone

Events are JSON objects or the game's one-line notation (``"roll 0 12"``, ``"declare player=1
join=true"``). Every answer is ``{"game", "state", "awaiting", "outcome", "legal", "legal_count"}``
(``apply`` adds ``"events"``, the events applied as JSON). SETUP, INPUT, S and E are a file path, ``-``
for stdin (the default) or inline JSON. Bad input: exit 2 and one line on stderr. The games' own
commands (``goblin-companion dadoteck ...``) keep their richer answers; this one is the same for every
game in ``companion.games.GAMES``, a sixth one included. It is ``companion.gamecli.RULES_CLI``.
"""

from __future__ import annotations

from companion.gamecli import MAX_LISTED, RULES_CLI, protocol_answer

PROGRAM = RULES_CLI.program
main = RULES_CLI.main
answer = protocol_answer

__all__ = ["MAX_LISTED", "PROGRAM", "answer", "main"]
