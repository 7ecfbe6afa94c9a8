"""A small sd_notify: tell systemd we are ready, still alive, what we are doing, and that we are stopping.

The protocol is one datagram of ``KEY=value`` lines to the AF_UNIX socket named by ``$NOTIFY_SOCKET``
(a leading ``@`` means Linux's abstract namespace). Without ``$NOTIFY_SOCKET`` (not under systemd, or on
a laptop) every call does nothing and returns False.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)


def _address(env: Mapping[str, str]) -> str | bytes | None:
    path = env.get("NOTIFY_SOCKET")
    if not path or path[0] not in "/@":
        return None
    if path[0] == "@":
        return b"\0" + path[1:].encode()
    return path


def notify(*lines: str, env: Mapping[str, str] | None = None) -> bool:
    """Send ``lines`` (e.g. ``"READY=1"``, ``"STATUS=..."``) in one datagram; True if it was sent.

    Never raises: a service must not die because systemd's socket is gone.
    """
    address = _address(os.environ if env is None else env)
    if address is None or not lines:
        return False
    message = "\n".join(lines).encode()
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message)
    except OSError as error:
        log.warning("sd_notify to %r failed: %s", address, error)
        return False
    return True


def watchdog_interval(env: Mapping[str, str] | None = None) -> float | None:
    """systemd's watchdog timeout in seconds (``$WATCHDOG_USEC``), or None when no watchdog is set for us.

    Ping at least twice as often as this.
    """
    env = os.environ if env is None else env
    usec = env.get("WATCHDOG_USEC", "")
    pid = env.get("WATCHDOG_PID", "")
    if pid and pid != str(os.getpid()):
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    return value / 1_000_000 if value > 0 else None


class Notifier:
    """The service's side of sd_notify, with rate-limited watchdog pings.

    Parameters
    ----------
    env
        Where ``NOTIFY_SOCKET``, ``WATCHDOG_USEC`` and ``WATCHDOG_PID`` are read (``os.environ``).
    clock
        Monotonic clock, injected for tests.

    :meth:`watchdog` may be called on every camera frame: it sends at most one ping per quarter of the
    watchdog interval.
    """

    def __init__(
        self, env: Mapping[str, str] | None = None, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._env = dict(os.environ if env is None else env)
        self._clock = clock
        self._lock = threading.Lock()
        self._last_ping: float | None = None
        self.interval = watchdog_interval(self._env)

    @property
    def enabled(self) -> bool:
        """Whether systemd is listening (``$NOTIFY_SOCKET`` is set)."""
        return _address(self._env) is not None

    def send(self, *lines: str) -> bool:
        return notify(*lines, env=self._env)

    def ready(self, status: str | None = None) -> bool:
        """``READY=1``: start-up is done (for ``Type=notify``)."""
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def status(self, text: str) -> bool:
        """``STATUS=...``: one line shown by ``systemctl status``."""
        return self.send(f"STATUS={' '.join(text.splitlines())}")

    def watchdog(self) -> bool:
        """``WATCHDOG=1`` if a watchdog is set and a quarter of its interval has passed since the last one."""
        if self.interval is None:
            return False
        now = self._clock()
        with self._lock:
            if self._last_ping is not None and now - self._last_ping < self.interval / 4:
                return False
            self._last_ping = now
        return self.send("WATCHDOG=1")

    def stopping(self, status: str | None = None) -> bool:
        """``STOPPING=1``: shutting down on purpose."""
        return self.send("STOPPING=1", *([f"STATUS={status}"] if status else []))
