"""Pig, a tiny dice game written by ``docs/new-game.md`` to prove that checklist (tests only)."""
