"""Choosing gpiozero's pin factory: the one given, else the default, else mock pins with a warning.

gpiozero chooses its default factory lazily and honours ``GPIOZERO_PIN_FACTORY`` (``lgpio``, ``rpigpio``,
``pigpio``, ``native``, ``mock``); we keep both. What we add: on a laptop, where gpiozero finds no GPIO and
raises, we fall back to its :class:`~gpiozero.pins.mock.MockFactory` with a
:class:`~hardware.errors.PinFactoryFallback` warning, so the rest of the companion runs with buttons that
simply never get pressed (the page still works).
"""

from __future__ import annotations

import logging
import threading
import warnings

from gpiozero import Device
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

from hardware.errors import PinFactoryFallback

log = logging.getLogger(__name__)

_lock = threading.Lock()


def resolve_pin_factory(pin_factory: Factory | None = None) -> Factory:
    """The factory to build devices with: ``pin_factory`` if given, else gpiozero's default (made once).

    Warns
    -----
    PinFactoryFallback
        When this machine has no GPIO and mock pins are used instead.
    """
    if pin_factory is not None:
        return pin_factory
    with _lock:
        if Device.pin_factory is not None:
            return Device.pin_factory
        with warnings.catch_warnings(record=True) as tried:
            warnings.simplefilter("always")
            try:
                # gpiozero's own lazy choice (it reads GPIOZERO_PIN_FACTORY); it has no public name.
                factory: Factory = Device._default_pin_factory()
                error: Exception | None = None
            except Exception as exc:
                factory, error = MockFactory(), exc
        for warning in tried:
            log.info("gpiozero: %s", warning.message)
        Device.pin_factory = factory
    if error is not None:
        message = f"no GPIO on this machine ({error}); buttons and LED use mock pins that nobody can press"
        log.warning(message)
        warnings.warn(PinFactoryFallback(message), stacklevel=3)
    return factory


def describe(factory: Factory) -> str:
    """A short name for the page, e.g. ``'LGPIOFactory'`` or ``'MockFactory'``."""
    return type(factory).__name__
