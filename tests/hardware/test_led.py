"""The status LED on gpiozero's mock pins."""

from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.led import PATTERNS, StatusLED


def wait_for_changes(pin: object, count: int, timeout: float = 5.0) -> list[object]:
    deadline = time.monotonic() + timeout
    while len(pin.states) < count and time.monotonic() < deadline:  # type: ignore[attr-defined]
        time.sleep(0.01)
    return list(pin.states)  # type: ignore[attr-defined]


def test_steady_for_waiting_off_for_off(mock_factory: MockFactory) -> None:
    with StatusLED(23) as led:
        pin = mock_factory.pin(23)
        assert led.state == "off" and pin.state is False
        led.state = "waiting"
        assert pin.state is True
        led.set("off")
        assert pin.state is False


@pytest.mark.parametrize("state", ["pending", "problem"])
def test_blinking_states_toggle_the_pin(mock_factory: MockFactory, state: str) -> None:
    with StatusLED(23, patterns={"pending": (0.03, 0.03), "problem": (0.01, 0.01)}) as led:
        pin = mock_factory.pin(23)
        pin.clear_states()
        led.set(state)  # type: ignore[arg-type]
        states = wait_for_changes(pin, 6)
        led.set(state)  # type: ignore[arg-type]  # the same state again does not restart the blink
    values = [s.state for s in states[1:6]]
    assert values in ([True, False, True, False, True], [False, True, False, True, False])
    assert led.state == state


def test_blink_patterns_are_what_the_table_expects() -> None:
    assert PATTERNS["waiting"] is True and PATTERNS["off"] is False
    slow, fast = PATTERNS["pending"], PATTERNS["problem"]
    assert isinstance(slow, tuple) and isinstance(fast, tuple) and sum(fast) < sum(slow)


def test_led_close_is_idempotent_and_frees_the_pin(mock_factory: MockFactory) -> None:
    led = StatusLED(24)
    led.state = "waiting"
    led.close()
    led.close()
    led.set("problem")  # after close: remembered, harmless
    with StatusLED(24):
        pass


def test_bad_states_are_refused(mock_factory: MockFactory) -> None:
    with pytest.raises(ValueError, match="unknown LED states"):
        StatusLED(patterns={"party": True})  # type: ignore[dict-item]
    with StatusLED() as led, pytest.raises(ValueError, match="'party'"):
        led.set("party")  # type: ignore[arg-type]
