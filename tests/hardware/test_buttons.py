"""Buttons: the pure press interpreter, then the real gpiozero Button on gpiozero's MockFactory."""

from __future__ import annotations

import threading
import time

import pytest
from gpiozero import Device
from gpiozero.exc import BadPinFactory
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.buttons import ButtonEvent, PressInterpreter, TableButtons
from hardware.errors import BadPins, PinFactoryFallback
from hardware.pins import resolve_pin_factory
from tests.helpers import Clock


def run(interpreter: PressInterpreter, edges: list[tuple[str, bool, float]]) -> list[ButtonEvent]:
    events: list[ButtonEvent] = []
    for button, pressed, t in edges:
        events += interpreter.feed(button, pressed, t)  # type: ignore[arg-type]
    return events


def test_short_presses_confirm_and_next_fire_on_release() -> None:
    interpreter = PressInterpreter(debounce=0.05, undo_hold=1.5)
    assert interpreter.feed("confirm", True, 0.0) == []
    assert interpreter.held("confirm")
    assert interpreter.feed("confirm", False, 0.12) == ["confirm"]
    twice = [("next", True, 1.0), ("next", False, 1.1), ("next", True, 1.5), ("next", False, 1.6)]
    assert run(interpreter, twice) == ["next", "next"]


def test_a_press_shorter_than_the_debounce_time_is_ignored() -> None:
    interpreter = PressInterpreter(debounce=0.05)
    assert run(interpreter, [("confirm", True, 0.0), ("confirm", False, 0.03)]) == []


def test_contact_bounce_on_press_and_release_gives_one_event() -> None:
    interpreter = PressInterpreter(debounce=0.05)
    edges = [
        ("confirm", True, 0.000), ("confirm", False, 0.002),  # bounce on the way down
        ("confirm", True, 0.004), ("confirm", False, 0.300),  # the real press
        ("confirm", True, 0.302), ("confirm", False, 0.340),  # bounce on the way up (< debounce after)
        ("confirm", True, 0.345), ("confirm", False, 0.349),
    ]
    assert run(interpreter, edges) == ["confirm"]


def test_undo_must_be_held_and_fires_once_while_still_held() -> None:
    interpreter = PressInterpreter(debounce=0.05, undo_hold=1.5)
    assert run(interpreter, [("undo", True, 0.0), ("undo", False, 0.4)]) == []  # a brush does not undo
    interpreter.feed("undo", True, 10.0)
    assert interpreter.poll(11.0) == []
    assert interpreter.poll(11.5) == ["undo"]
    assert interpreter.poll(12.0) == []
    assert interpreter.feed("undo", False, 13.0) == []  # already fired while held
    # Without polling, a long enough hold still undoes at release.
    assert run(interpreter, [("undo", True, 20.0), ("undo", False, 21.6)]) == ["undo"]


def test_interpreter_checks_its_times() -> None:
    with pytest.raises(ValueError, match="debounce"):
        PressInterpreter(debounce=2.0, undo_hold=1.5)


@settings(max_examples=200, deadline=None)
@given(
    before=st.lists(st.tuples(st.floats(0.0005, 0.2), st.floats(0.0005, 0.0499)), max_size=5),
    hold=st.floats(0.051, 1.4),  # just above debounce: float sums are not exact
    after=st.lists(st.tuples(st.floats(0.0005, 0.2), st.floats(0.0005, 0.0499)), max_size=5),
    button=st.sampled_from(["confirm", "next"]),
)
def test_any_bounce_shorter_than_debounce_around_one_press_gives_exactly_one_event(
    before: list[tuple[float, float]], hold: float, after: list[tuple[float, float]], button: str
) -> None:
    interpreter = PressInterpreter(debounce=0.05, undo_hold=1.5)
    t, edges = 0.0, []
    for gap, blip in before:
        edges += [(button, True, t), (button, False, t + blip)]
        t += blip + gap
    edges += [(button, True, t), (button, False, t + hold)]
    t += hold
    for gap, blip in after:
        t += gap
        edges += [(button, True, t), (button, False, t + blip)]
        t += blip
    assert run(interpreter, edges) == [button]


def press(factory: MockFactory, pin: int, clock: Clock, seconds: float) -> None:
    factory.pin(pin).drive_low()  # buttons to ground: low is pressed
    clock.now += seconds
    factory.pin(pin).drive_high()
    clock.now += 1.0


def test_real_gpiozero_buttons_on_mock_pins_emit_confirm_next_undo(mock_factory: MockFactory) -> None:
    clock = Clock(0.0)
    events: list[str] = []
    with TableButtons(5, 6, 13, poll_interval=None, clock=clock) as buttons:
        assert buttons.backend == "MockFactory"
        buttons.when_confirm = lambda: events.append("CONFIRM")
        buttons.when_next = lambda: events.append("NEXT")
        buttons.when_undo = lambda: events.append("UNDO")
        buttons.when_event = lambda event: events.append(event)
        press(mock_factory, 5, clock, 0.15)
        press(mock_factory, 6, clock, 0.10)
        press(mock_factory, 6, clock, 0.01)  # bounce: ignored
        press(mock_factory, 13, clock, 0.50)  # too short for UNDO
        mock_factory.pin(13).drive_low()
        clock.now += 1.0
        buttons.poll()
        assert events == ["CONFIRM", "confirm", "NEXT", "next"]
        clock.now += 0.6
        buttons.poll()  # held 1.6 s: undo while still held
        mock_factory.pin(13).drive_high()
    assert events == ["CONFIRM", "confirm", "NEXT", "next", "UNDO", "undo"]
    assert buttons.closed and "closed" in repr(buttons)
    buttons.close()  # idempotent
    with TableButtons(5, 6, 13, poll_interval=None):  # the pins were released
        pass


def test_a_failing_callback_is_logged_and_the_buttons_keep_working(
    mock_factory: MockFactory, caplog: pytest.LogCaptureFixture
) -> None:
    clock, seen = Clock(0.0), []

    def broken() -> None:
        raise RuntimeError("session gone")

    with TableButtons(poll_interval=None, clock=clock) as buttons:
        buttons.when_confirm = broken
        buttons.when_next = lambda: seen.append("next")
        press(mock_factory, 17, clock, 0.1)
        press(mock_factory, 27, clock, 0.1)
    assert seen == ["next"] and "callback failed" in caplog.text


def test_the_polling_thread_notices_a_held_undo(mock_factory: MockFactory) -> None:
    fired = threading.Event()
    with TableButtons(undo_hold=0.1, debounce=0.01, poll_interval=0.01) as buttons:
        buttons.when_undo = fired.set
        mock_factory.pin(22).drive_low()
        assert fired.wait(5)
        mock_factory.pin(22).drive_high()


def test_two_buttons_on_one_pin_are_refused(mock_factory: MockFactory) -> None:
    with pytest.raises(BadPins, match="three different pins"):
        TableButtons(17, "GPIO17", 22, poll_interval=None)
    with pytest.raises(BadPins, match="cannot use pins"):
        TableButtons(17, 27, "NOPE", poll_interval=None)
    with TableButtons(poll_interval=None):  # nothing stayed reserved
        pass


@pytest.fixture
def no_pin_factory(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    saved = Device.pin_factory
    Device.pin_factory = None
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    yield
    if Device.pin_factory is not None and Device.pin_factory is not saved:
        Device.pin_factory.close()
    Device.pin_factory = saved


def test_no_gpio_falls_back_to_mock_pins_with_a_warning(
    no_pin_factory: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_gpio() -> None:
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_gpio))
    with pytest.warns(PinFactoryFallback, match="mock pins"):
        factory = resolve_pin_factory()
    assert isinstance(factory, MockFactory)
    assert resolve_pin_factory() is factory  # chosen once, like gpiozero's default


def test_gpiozero_env_var_still_chooses_the_factory(
    no_pin_factory: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    with TableButtons(poll_interval=None) as buttons:
        assert buttons.backend == "MockFactory"


def test_an_injected_factory_wins(mock_factory: MockFactory) -> None:
    other = MockFactory()
    with TableButtons(poll_interval=None, pin_factory=other) as buttons:
        assert buttons.pin_factory is other
        start = time.monotonic()
        other.pin(17).drive_low()
        assert buttons.interpreter.held("confirm") and time.monotonic() - start < 1
    other.close()
