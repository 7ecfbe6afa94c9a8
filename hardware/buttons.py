"""The table's three buttons: CONFIRM, NEXT and UNDO (held), through gpiozero.

Debounce and hold are decided by :class:`PressInterpreter`, pure code fed with edges and times, because
gpiozero's mock pins ignore ``bounce_time`` and its hold thread runs on real time. :class:`TableButtons`
wires real ``gpiozero.Button`` devices to an interpreter and calls ``when_confirm``, ``when_next`` and
``when_undo``.

Threads: on a Pi, gpiozero calls back on its own background thread, and UNDO's hold is noticed on a
polling thread, so ``when_*`` callbacks run on threads other than the web server's. The consumer (the
table session) must take its own lock in them. On the mock pins used in tests, callbacks run inline in
``pin.drive_low()``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, get_args

from gpiozero import Button
from gpiozero.pins import Factory

from hardware.errors import BadPins
from hardware.pins import describe, resolve_pin_factory

log = logging.getLogger(__name__)

ButtonName = Literal["confirm", "next", "undo"]
#: What a press means; the names match the buttons (UNDO's event needs a hold).
ButtonEvent = Literal["confirm", "next", "undo"]
BUTTONS: tuple[ButtonName, ...] = get_args(ButtonName)

#: BCM numbers: GPIO17, 27 and 22 are header pins 11, 13 and 15, next to a ground at pin 9 or 14.
DEFAULT_PINS: dict[ButtonName, int] = {"confirm": 17, "next": 27, "undo": 22}


@dataclass
class _Contact:
    pressed_at: float | None = None
    accepted_release: float | None = None
    fired: bool = False


@dataclass
class PressInterpreter:
    """Turns button edges into events, with debounce and UNDO's hold. Pure: time is passed in.

    - A press counts when released after at least ``debounce`` seconds; shorter blips are contact bounce.
    - A press starting less than ``debounce`` after a counted release is bounce of that release.
    - CONFIRM and NEXT fire on release.
    - UNDO fires once when it has been held ``undo_hold`` seconds: noticed by :meth:`poll` while it is
      still held, or at release. A shorter UNDO press does nothing, so a brush cannot undo.

    Not thread-safe: :class:`TableButtons` serialises calls.
    """

    debounce: float = 0.05
    undo_hold: float = 1.5
    _contacts: dict[ButtonName, _Contact] = field(
        init=False, repr=False, default_factory=lambda: {b: _Contact() for b in BUTTONS}
    )

    def __post_init__(self) -> None:
        if not 0 <= self.debounce < self.undo_hold:
            raise ValueError(f"need 0 <= debounce < undo_hold, got {self.debounce} and {self.undo_hold}")

    def feed(self, button: ButtonName, pressed: bool, t: float) -> list[ButtonEvent]:
        """One edge of ``button`` (pressed or released) at time ``t``; returns the events it completes."""
        contact = self._contacts[button]
        if pressed:
            if contact.pressed_at is not None:
                return []
            if contact.accepted_release is not None and t - contact.accepted_release < self.debounce:
                return []
            contact.pressed_at, contact.fired = t, False
            return []
        if contact.pressed_at is None:
            return []
        held = t - contact.pressed_at
        contact.pressed_at = None
        if held < self.debounce:
            return []
        contact.accepted_release = t
        if button == "undo":
            if held >= self.undo_hold and not contact.fired:
                contact.fired = True
                return ["undo"]
            return []
        return [button]

    def poll(self, t: float) -> list[ButtonEvent]:
        """Events due at time ``t`` without an edge: UNDO held long enough."""
        contact = self._contacts["undo"]
        if contact.pressed_at is not None and not contact.fired and t - contact.pressed_at >= self.undo_hold:
            contact.fired = True
            return ["undo"]
        return []

    def held(self, button: ButtonName) -> bool:
        """Whether ``button`` is down (as far as debounced edges tell)."""
        return self._contacts[button].pressed_at is not None


class TableButtons:
    """CONFIRM, NEXT and UNDO on three GPIO pins, each to ground (the Pi's pull-ups keep them high).

    Parameters
    ----------
    confirm, next, undo
        The pins, as gpiozero names them (BCM numbers such as ``17`` or names such as ``"GPIO17"``).
    debounce, undo_hold
        Seconds; see :class:`PressInterpreter`.
    pull_up
        ``True`` for buttons wired to ground (the usual), ``False`` for buttons wired to 3.3 V.
    poll_interval
        How often a background thread checks UNDO's hold; ``None`` for no thread (call :meth:`poll`).
    clock
        Monotonic time in seconds, injected for tests.
    pin_factory
        gpiozero pin factory; ``None`` uses :func:`hardware.pins.resolve_pin_factory`.

    Attributes
    ----------
    when_confirm, when_next, when_undo
        Called with no arguments when the event happens, on a background thread (see the module notes).
    when_event
        Called with the event name (``"confirm"``, ``"next"``, ``"undo"``) for every event.
    """

    def __init__(
        self,
        confirm: int | str = DEFAULT_PINS["confirm"],
        next: int | str = DEFAULT_PINS["next"],  # shadows the built-in: the button is called NEXT
        undo: int | str = DEFAULT_PINS["undo"],
        *,
        debounce: float = 0.05,
        undo_hold: float = 1.5,
        pull_up: bool = True,
        poll_interval: float | None = 0.05,
        clock: Callable[[], float] = time.monotonic,
        pin_factory: Factory | None = None,
    ) -> None:
        pins: dict[ButtonName, int | str] = {"confirm": confirm, "next": next, "undo": undo}
        if len({str(p).upper().removeprefix("GPIO").removeprefix("BCM") for p in pins.values()}) < 3:
            raise BadPins(f"the three buttons need three different pins, got {pins!r}")
        self.pins = pins
        self.interpreter = PressInterpreter(debounce=debounce, undo_hold=undo_hold)
        self.when_confirm: Callable[[], None] | None = None
        self.when_next: Callable[[], None] | None = None
        self.when_undo: Callable[[], None] | None = None
        self.when_event: Callable[[ButtonEvent], None] | None = None
        self._clock = clock
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self.pin_factory = resolve_pin_factory(pin_factory)
        self._buttons: dict[ButtonName, Button] = {}
        try:
            for name, pin in pins.items():
                button = Button(pin, pull_up=pull_up, bounce_time=None, pin_factory=self.pin_factory)
                button.when_pressed = self._edge_handler(name, True)
                button.when_released = self._edge_handler(name, False)
                self._buttons[name] = button
        except Exception as error:
            self.close()
            raise BadPins(f"cannot use pins {pins!r}: {error}") from error
        self._poller: threading.Thread | None = None
        if poll_interval is not None:
            self._poller = threading.Thread(
                target=self._poll_loop, args=(poll_interval,), name="buttons-hold", daemon=True
            )
            self._poller.start()

    @property
    def backend(self) -> str:
        """The pin factory in use, e.g. ``'LGPIOFactory'`` or ``'MockFactory'`` (no real GPIO)."""
        return describe(self.pin_factory)

    def _edge_handler(self, name: ButtonName, pressed: bool) -> Callable[[], None]:
        def handler() -> None:
            with self._lock:
                events = self.interpreter.feed(name, pressed, self._clock())
            self._dispatch(events)

        return handler

    def poll(self) -> None:
        """Let UNDO fire if it has been held long enough (the polling thread calls this)."""
        with self._lock:
            events = self.interpreter.poll(self._clock())
        self._dispatch(events)

    def _poll_loop(self, interval: float) -> None:
        while not self._closed.wait(interval):
            self.poll()

    def _dispatch(self, events: list[ButtonEvent]) -> None:
        for event in events:
            log.info("button: %s", event)
            callbacks = (getattr(self, f"when_{event}"), self.when_event)
            for callback, args in zip(callbacks, ((), (event,)), strict=True):
                if callback is None:
                    continue
                try:
                    callback(*args)
                except Exception:  # a failing consumer must not kill gpiozero's thread
                    log.exception("button %s: callback failed", event)

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    def close(self) -> None:
        """Release the pins and stop the polling thread. Idempotent."""
        self._closed.set()
        poller = getattr(self, "_poller", None)
        if poller is not None and poller is not threading.current_thread():
            poller.join(1.0)
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()

    def __enter__(self) -> TableButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        pins = ", ".join(f"{k}={v!r}" for k, v in self.pins.items())
        return f"<TableButtons {pins} on {self.backend}{' closed' if self.closed else ''}>"
