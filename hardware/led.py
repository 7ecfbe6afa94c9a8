"""The status LED: steady while waiting for a roll, blinking while a reading waits, fast on a problem."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Literal, get_args

from gpiozero import LED
from gpiozero.pins import Factory

from hardware.errors import BadPins
from hardware.pins import describe, resolve_pin_factory

LedState = Literal["off", "waiting", "pending", "problem"]
LED_STATES: tuple[LedState, ...] = get_args(LedState)

#: BCM 23 is header pin 16; wire LED + resistor (e.g. 330 ohm) to a ground.
DEFAULT_LED_PIN = 23

#: state -> False (off), True (steady on) or (on seconds, off seconds) of a blink.
PATTERNS: dict[LedState, bool | tuple[float, float]] = {
    "off": False,
    "waiting": True,  # steady: waiting for a roll
    "pending": (0.5, 0.5),  # blinking: a reading waits for confirmation
    "problem": (0.1, 0.1),  # fast: camera lost or another problem
}


class StatusLED:
    """One LED that shows the table's state (:data:`LED_STATES`).

    Parameters
    ----------
    pin
        gpiozero pin name (BCM number by default).
    active_high
        ``False`` for an LED wired from 3.3 V to the pin.
    patterns
        Overrides of :data:`PATTERNS` (e.g. shorter blinks in tests).
    pin_factory
        gpiozero pin factory; ``None`` uses :func:`hardware.pins.resolve_pin_factory`.

    Setting :attr:`state` is thread-safe and idempotent: setting the same state again does not restart a
    blink.
    """

    def __init__(
        self,
        pin: int | str = DEFAULT_LED_PIN,
        *,
        active_high: bool = True,
        patterns: Mapping[LedState, bool | tuple[float, float]] | None = None,
        pin_factory: Factory | None = None,
    ) -> None:
        self.patterns: dict[LedState, bool | tuple[float, float]] = {**PATTERNS, **(patterns or {})}
        unknown = set(self.patterns) - set(LED_STATES)
        if unknown:
            raise ValueError(f"unknown LED states {sorted(unknown)!r}; states are {LED_STATES!r}")
        self.pin_factory = resolve_pin_factory(pin_factory)
        try:
            self._led: LED | None = LED(pin, active_high=active_high, pin_factory=self.pin_factory)
        except Exception as error:
            raise BadPins(f"cannot use pin {pin!r} for the LED: {error}") from error
        self.pin = pin
        self._lock = threading.Lock()
        self._state: LedState = "off"

    @property
    def backend(self) -> str:
        """The pin factory in use, e.g. ``'LGPIOFactory'`` or ``'MockFactory'``."""
        return describe(self.pin_factory)

    @property
    def state(self) -> LedState:
        return self._state

    @state.setter
    def state(self, value: LedState) -> None:
        self.set(value)

    def set(self, state: LedState) -> None:
        """Show ``state``."""
        if state not in LED_STATES:
            raise ValueError(f"unknown LED state {state!r}; one of {LED_STATES!r}")
        with self._lock:
            if self._led is None or state == self._state:
                self._state = state
                return
            pattern = self.patterns[state]
            if pattern is True:
                self._led.on()
            elif pattern is False:
                self._led.off()
            else:
                on_time, off_time = pattern
                self._led.blink(on_time=on_time, off_time=off_time, background=True)
            self._state = state

    def close(self) -> None:
        """Turn off and release the pin. Idempotent."""
        with self._lock:
            led, self._led = self._led, None
        if led is not None:
            led.close()

    def __enter__(self) -> StatusLED:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<StatusLED pin={self.pin!r} state={self._state!r} on {self.backend}>"
