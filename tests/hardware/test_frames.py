"""The latest-frame holder and the capture loop, including a camera that disappears and comes back."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pytest

from hardware.errors import CameraError, FramesEnded, FrameTimeout
from hardware.frames import CameraStatus, CaptureLoop, FrameHolder
from hardware.sources import ReplaySource, _Source


def frame(value: int) -> np.ndarray:
    return np.full((4, 5, 3), value, np.uint8)


def test_holder_never_hands_out_the_same_frame_twice() -> None:
    holder = FrameHolder()
    assert holder.latest() is None
    first = holder.put(frame(1))
    got_id, got = holder.wait_for_frame(0, timeout=0)
    assert got_id == first == 1 and got[0, 0, 0] == 1
    with pytest.raises(FrameTimeout):
        holder.wait_for_frame(got_id, timeout=0.01)
    holder.put(frame(2))
    holder.put(frame(3))
    got_id, got = holder.wait_for_frame(got_id, timeout=0)
    assert got_id == 3 and got[0, 0, 0] == 3  # the latest, skipping 2
    assert not got.flags.writeable  # shared with every consumer, so nobody may draw on it


def test_holder_wakes_a_waiting_consumer_and_close_ends_waits() -> None:
    holder = FrameHolder()
    results: list[object] = []

    def consume() -> None:
        try:
            results.append(holder.wait_for_frame(0, timeout=5)[0])
            holder.wait_for_frame(1, timeout=5)
        except FramesEnded as error:
            results.append(error)

    thread = threading.Thread(target=consume)
    thread.start()
    holder.put(frame(1))
    while len(results) < 1:
        time.sleep(0.001)
    holder.close()
    thread.join(5)
    assert results[0] == 1 and isinstance(results[1], FramesEnded)
    with pytest.raises(FramesEnded):
        holder.put(frame(2))


class FlakySource(_Source):
    """Gives frames, then fails ``failures`` times (on read, then on reopening), then works again."""

    name = "flaky"

    def __init__(self, good_before: int, failures: int) -> None:
        self.good_before = good_before
        self.failures = failures
        self.log: list[str] = []
        self.reads = 0
        self.is_open = False

    def open(self) -> None:
        self.log.append("open")
        if self.reads >= self.good_before and self.failures > 0:
            self.failures -= 1
            raise CameraError("no camera on the CSI port")
        self.is_open = True

    def read(self) -> np.ndarray:
        assert self.is_open
        self.reads += 1
        if self.reads == self.good_before + 1 and self.failures > 0:
            self.failures -= 1
            raise CameraError("cable pulled")
        return frame(self.reads % 256)

    def close(self) -> None:
        self.log.append("close")
        self.is_open = False


class FakeTime:
    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def wall(self) -> float:
        return 1_700_000_000.0 + self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_capture_loop_survives_a_lost_camera_with_exponential_backoff() -> None:
    source = FlakySource(good_before=2, failures=4)  # read fails, then 3 reopenings fail
    fake = FakeTime()
    statuses: list[CameraStatus] = []
    beats: list[float] = []
    loop = CaptureLoop(
        source,
        initial_backoff=0.5,
        max_backoff=2.0,
        heartbeat_every=1.0,
        on_status=statuses.append,
        on_heartbeat=lambda: beats.append(fake.now),
        wall=fake.wall,
        sleep=fake.sleep,
    )
    assert loop.status.state == "starting"
    assert loop.step() and loop.step()
    assert loop.status.state == "ok" and loop.status.frames == 2
    lost_at = fake.wall()
    outcomes = [loop.step() for _ in range(4)]  # read fails, three reopenings fail
    assert outcomes == [False] * 4
    status = loop.status
    assert status.state == "lost" and status.attempts == 4 and status.since == lost_at
    assert status.error == "CameraError: no camera on the CSI port"
    # Waits 0.5, 1, 2, 2 (capped), each split into heartbeats of at most 1 s.
    assert fake.slept == [0.5, 1.0, 1.0, 1.0, 1.0, 1.0]
    assert [s.retry_in for s in statuses if s.state == "lost"] == [0.5, 1.0, 2.0, 2.0]
    assert loop.step()  # back
    assert loop.status.state == "ok" and loop.status.frames == 3 and loop.status.error is None
    assert [s.state for s in statuses] == ["ok", "lost", "lost", "lost", "lost", "ok"]
    assert source.log == ["open", "close", "open", "open", "open", "open"]
    assert len(beats) == 2 + 6 + 1  # each frame, each slice of waiting
    # After recovery the backoff starts again from the beginning.
    source.failures, source.good_before = 1, source.reads
    loop.step()
    assert loop.status.retry_in == 0.5
    assert loop.status.to_dict()["state"] == "lost"
    lost = "camera flaky lost (CameraError: cable pulled); attempt 1, retrying in 0.5 s"
    assert loop.status.summary() == lost
    assert statuses[-2].summary() == "camera flaky ok (3 frames)"


def test_a_failing_status_callback_does_not_stop_the_camera(caplog: pytest.LogCaptureFixture) -> None:
    def broken(status: CameraStatus) -> None:
        raise RuntimeError("page gone")

    loop = CaptureLoop(FlakySource(10, 0), on_status=broken, sleep=lambda s: None)
    assert loop.step() and loop.step()
    assert loop.status.frames == 2
    assert "status callback failed" in caplog.text


def test_capture_loop_thread_feeds_the_holder_and_stops_cleanly(photo_folder: Path) -> None:
    source = ReplaySource(photo_folder / "sub", frame_interval=0.01)
    with CaptureLoop(source) as loop:
        first, _ = loop.holder.wait_for_frame(0, timeout=5)
        second, image = loop.holder.wait_for_frame(first, timeout=5)
        assert second > first and image.shape == (48, 64, 3)
    assert loop.status.state == "stopped"
    with pytest.raises(FramesEnded):
        loop.holder.wait_for_frame(second, timeout=1)
    loop.stop()  # idempotent


def test_stopping_interrupts_a_long_backoff(tmp_path: Path) -> None:
    loop = CaptureLoop(ReplaySource(tmp_path / "missing"), initial_backoff=30, max_backoff=60).start()
    while loop.status.state != "lost":
        time.sleep(0.005)
    started = time.monotonic()
    loop.stop()
    assert time.monotonic() - started < 5
    assert loop.status.state == "stopped"


def test_backoff_parameters_are_checked() -> None:
    with pytest.raises(ValueError, match="initial_backoff"):
        CaptureLoop(FlakySource(1, 0), initial_backoff=0)
