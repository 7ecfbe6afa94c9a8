"""``serve``'s composition root with a calibration file: an unreadable one keeps the table running (a
banner says why, the confirmed steps are all there), teaching from the page's API uses the camera's
latest frame, and the vision worker reads the next toss with what was just taught."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from companion.config import ButtonsConfig, CameraConfig, Config, LedConfig
from companion.serve import Companion
from companion.session import TableSession
from companion.store import Store
from tests.goblins.test_flow import SETUP
from tests.helpers import wait_until
from tests.loop.conftest import still
from tests.teach.conftest import write


def goblins_awaiting_a_toss(state: Path) -> None:
    """A saved Goblins game whose first step is confirmed: five tokens to toss for the Ladro."""
    with Store(state) as store:
        session = TableSession(store)
        session.new_game("goblins", SETUP)
        index = next(c["index"] for c in session.snapshot()["choices"] if "Face Ladro" in c["label"])
        session.choose(index)
        assert session.step == 1 and session.expecting()["count"] == 5


def test_unreadable_calibration_then_taught_from_the_page_and_read_by_the_worker(
        tmp_path: Path, photos: dict[str, Path]) -> None:
    replay = tmp_path / "replay"
    replay.mkdir()
    shots = {name: cv2.imread(str(photos[name])) for name in ("alive", "dead", "mixed")}
    for n, name in enumerate(shots):  # replayed in this order: alive, dead, the toss
        write(replay / f"{n}-{name}.png", shots[name])
    state = tmp_path / "state"
    goblins_awaiting_a_toss(state)
    (state / "calibration.json").write_text('{"format": "goblin-companion-calibration", "vers',
                                            encoding="utf-8")
    config = replace(Config(state_dir=str(state)), camera=CameraConfig(source=f"replay:{replay}"),
                     buttons=ButtonsConfig(enabled=False), led=LedConfig(enabled=False))
    with Companion(config, settle=still) as companion:
        assert "not JSON" in companion.calibrator.state()["error"]
        assert companion.session.step == 1  # nothing confirmed is lost
        client = companion.app.test_client()
        assert 'id="calibration-banner"' in client.get("/").get_data(as_text=True)
        assert client.get("/api/calibration").json["file"] == str(state / "calibration.json")

        def showing(name: str) -> bool:
            latest = companion.holder.latest()
            return latest is not None and np.array_equal(latest[1], shots[name])

        wait_until(lambda: showing("alive"))
        assert client.post("/api/teach", json={"label": "alive"}).json["learned"] == 3
        companion.capture.source.advance()
        wait_until(lambda: showing("dead"))
        assert client.post("/api/teach", json={"kind": "token", "label": "dead"}).json["learned"] == 3
        html = client.get("/settings").get_data(as_text=True)
        assert 'id="calibration-banner"' not in html
        assert "Calibrato: 3 esempi di Vivo, 3 esempi di Morto" in html

        # the toss: default zones (the players' halves), so every token counts (the flow fix)
        companion.capture.source.advance()
        snap = wait_until(lambda: (s := companion.session.snapshot())["proposal"] and s)
        assert snap["proposal"]["action"] == {"type": "reading", "alive": 3, "dead": 2}
        assert snap["proposal"]["reading"]["zones"] == ["p0", "p1"]
        assert companion.session.step == 1  # proposed, not confirmed
    assert (state / "calibration.json.unreadable").exists()
    with Companion(config, settle=still, web=False) as again:  # a restart loads what was taught
        assert again.calibrator.state()["tokens"] == {"alive": 3, "dead": 3}
