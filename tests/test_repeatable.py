"""The README's test command is repeatable: property tests draw the same examples on every run."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st


def _draws(parent: settings) -> list[tuple[int, str]]:
    seen: list[tuple[int, str]] = []

    @settings(parent, max_examples=30, deadline=None)
    @given(st.integers(), st.text(max_size=8))
    def draw(number: int, text: str) -> None:
        seen.append((number, text))

    draw()
    return seen


def test_the_readme_command_loads_the_repeatable_profile() -> None:
    """Without ``HYPOTHESIS_PROFILE`` the tests run derandomized; with ``explore`` they draw anew."""
    chosen = os.environ.get("HYPOTHESIS_PROFILE", "repeatable")
    assert settings.default.derandomize is (chosen == "repeatable")
    assert settings.get_profile("repeatable").derandomize
    assert not settings.get_profile("explore").derandomize


def test_the_repeatable_profile_draws_the_same_examples_twice() -> None:
    repeatable = settings.get_profile("repeatable")
    first, second = _draws(repeatable), _draws(repeatable)
    assert len(first) == 30
    assert first == second
    explore = settings.get_profile("explore")
    assert _draws(explore) != _draws(explore)    # what the explore profile is for
