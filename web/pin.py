"""The table PIN against guessing: a few wrong tries a minute, then a growing wait.

A four-digit PIN falls to 10,000 guesses in seconds, so :class:`PinGuard` counts wrong tries:

- **per client** (its IP address): :data:`CLIENT_TRIES` wrong tries within :data:`WINDOW` seconds lock
  that client out for :data:`FIRST_WAIT` seconds, doubled at each further lockout (at most
  :data:`MAX_WAIT`); a right PIN clears its count and its doubling;
- **overall**: :data:`TABLE_TRIES` wrong tries from all clients within the window lock out every client
  that has not given the right PIN in the last :data:`KNOWN_FOR` seconds, with the same growing wait
  (so a guesser spread over many addresses gets no further, and the phones already in the game keep
  playing). Its doubling is forgotten after :data:`QUIET` seconds without a wrong try.

While locked out, every PIN (even the right one) gets :class:`TooManyTries`: 429 ``too-many-tries`` with
``Retry-After`` and ``"retry_after"`` (seconds), which the page turns into "try again in N s". The
comparison itself is :func:`hmac.compare_digest`. The clock is injected (``create_app(clock=...)``) so the
tests need no sleeping. Memory is bounded: at most :data:`MAX_CLIENTS` addresses are remembered.
"""

from __future__ import annotations

import hmac
import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from companion.messages import Message
from web.errors import PinError

WINDOW: Final = 60.0
CLIENT_TRIES: Final = 5
TABLE_TRIES: Final = 20
FIRST_WAIT: Final = 30.0
MAX_WAIT: Final = 900.0
KNOWN_FOR: Final = 3600.0
QUIET: Final = 900.0
MAX_CLIENTS: Final = 1024

EXTENSION: Final = "goblin.pin-guard"
"""``app.extensions[EXTENSION]`` holds the app's :class:`PinGuard`."""

MESSAGES: Final = {
    "error.pin.wait": "too many wrong PINs: try again in {seconds} s",
}


class TooManyTries(PinError):
    """A PIN while its client (or the whole table) is locked out; ``retry_after`` in seconds."""

    def __init__(self, seconds: float) -> None:
        self.retry_after = max(1, math.ceil(seconds))
        super().__init__("too-many-tries", Message.of(MESSAGES, "error.pin.wait", seconds=self.retry_after))


@dataclass
class _Tries:
    """Wrong tries of one client (or of the whole table) in the window, and its lockout."""

    wrong: deque[float] = field(default_factory=deque)
    until: float = 0.0
    lockouts: int = 0
    last_wrong: float = -math.inf
    last_right: float = -math.inf

    def forget_old(self, now: float) -> None:
        while self.wrong and self.wrong[0] <= now - WINDOW:
            self.wrong.popleft()

    def miss(self, now: float, limit: int) -> None:
        if now - self.last_wrong > QUIET:
            self.lockouts = 0
        self.last_wrong = now
        self.forget_old(now)
        self.wrong.append(now)
        if len(self.wrong) >= limit:
            self.until = now + min(MAX_WAIT, FIRST_WAIT * 2 ** self.lockouts)
            self.lockouts += 1
            self.wrong.clear()


class PinGuard:
    """Checks PINs for one table (thread-safe); see the module docstring."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._clients: OrderedDict[str, _Tries] = OrderedDict()
        self._table = _Tries()

    def _client(self, address: str) -> _Tries:
        tries = self._clients.pop(address, None) or _Tries()
        self._clients[address] = tries  # most recent last
        while len(self._clients) > MAX_CLIENTS:
            self._clients.popitem(last=False)
        return tries

    def wait(self, address: str) -> float:
        """Seconds ``address`` must wait before its next PIN is looked at (0: none)."""
        with self._lock:
            return self._wait(address, self.clock())

    def _wait(self, address: str, now: float) -> float:
        client = self._clients.get(address)
        waits = [client.until - now] if client is not None else []
        known = client is not None and now - client.last_right <= KNOWN_FOR
        if not known:
            waits.append(self._table.until - now)
        return max([0.0, *waits])

    def check(self, address: str, given: str, expected: str) -> None:
        """Raise TooManyTries while ``address`` is locked out, PinError ``wrong-pin`` for a wrong PIN."""
        with self._lock:
            now = self.clock()
            wait = self._wait(address, now)
            if wait > 0:
                raise TooManyTries(wait)
            client = self._client(address)
            if hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8")):
                client.wrong.clear()
                client.lockouts = 0
                client.last_right = now
                return
            client.miss(now, CLIENT_TRIES)
            self._table.miss(now, TABLE_TRIES)
        raise PinError("wrong-pin", "wrong table PIN")
