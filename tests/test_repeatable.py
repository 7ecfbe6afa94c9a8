"""The README's test command is repeatable: property tests draw the same examples on every run."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st


def _draws() -> list[tuple[int, str]]:
    seen: list[tuple[int, str]] = []

    @settings(max_examples=30, deadline=None)  # as the property tests write it: the profile fills the rest
    @given(st.integers(), st.text(max_size=8))
    def draw(number: int, text: str) -> None:
        seen.append((number, text))

    draw()
    return seen


@pytest.mark.skipif(os.environ.get("HYPOTHESIS_PROFILE", "repeatable") != "repeatable",
                    reason="exploring on purpose: HYPOTHESIS_PROFILE is set")
def test_two_runs_draw_the_same_examples() -> None:
    first, second = _draws(), _draws()
    assert len(first) == 30
    assert first == second


def test_the_explore_profile_draws_new_examples() -> None:
    assert settings.get_profile("repeatable").derandomize
    assert not settings.get_profile("explore").derandomize
