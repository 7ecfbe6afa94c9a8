"""Button Goblin's attack advisor behind ``GET /api/advice``, bounded: the Pi works out one advice at a time.

The advisor plays thousands of simulated turns (up to 200 ms for the heaviest roster positions on the Pi,
``benchmarks/advisor_bench.py``), so a phone asking again and again could keep the table's CPU busy. The
:class:`AdviceDesk` in front of ``TableSession.advice``:

- keeps the last :data:`KEPT` answers by position and seed (the snapshot's ``"position"``: game, step
  and last event): asking again at the same position, from any phone, costs nothing;
- works out one advice at a time for the whole table: a phone asking for the position already being
  worked out waits for that answer (at most :data:`WAIT_SECONDS`); a request for another position (or
  seed) meanwhile is answered 429 ``too-many-requests``, key ``error.advice.busy``, ``Retry-After: 1``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Final

from companion.errors import GoblinError
from companion.messages import Message

KEPT: Final = 16
"""Answers kept (by position and seed): the positions a match went through lately."""
WAIT_SECONDS: Final = 10.0
"""How long a request for the position being worked out waits for its answer."""

EXTENSION: Final = "goblin.advice"
"""``app.extensions[EXTENSION]`` holds the :class:`AdviceDesk`."""

BUSY: Final = "the table is working out advice for another position: ask again in a moment"


class AdviceBusy(GoblinError):
    """Another advice is being worked out (429 ``too-many-requests``, ``retry_after`` seconds)."""

    code = "too-many-requests"

    def __init__(self, detail: str = BUSY, seconds: int = 1) -> None:
        super().__init__(Message("error.advice.busy", detail))
        self.retry_after = seconds


class AdviceDesk:
    """One advice at a time for ``session`` (a ``TableSession``), answers kept by position and seed."""

    def __init__(self, session: Any, *, kept: int = KEPT, wait: float = WAIT_SECONDS) -> None:
        self._session = session
        self._kept, self._wait = kept, wait
        self._cond = threading.Condition()
        self._answers: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._working: tuple[str, int] | None = None
        self.computed = 0
        """How many advices were worked out (not answered from those kept): for tests and benchmarks."""

    def advice(self, *, seed: int = 0) -> dict[str, Any]:
        """``TableSession.advice(seed=)`` for the position at the table, kept or worked out now; raises
        :class:`AdviceBusy` while another one is being worked out."""
        key = (self._session.position, seed)
        with self._cond:
            if key not in self._answers and self._working == key:
                self._cond.wait_for(lambda: self._working != key, self._wait)
            if key in self._answers:
                self._answers.move_to_end(key)
                return self._answers[key]
            if self._working is not None:
                raise AdviceBusy()
            self._working = key
        answer: dict[str, Any] | None = None
        try:
            answer = self._session.advice(seed=seed)
            self.computed += 1
            return answer
        finally:
            with self._cond:
                if answer is not None:  # kept under the position it is for (the table may have moved on)
                    self._answers[(str(answer["position"]), seed)] = answer
                    while len(self._answers) > self._kept:
                        self._answers.popitem(last=False)
                self._working = None
                self._cond.notify_all()
