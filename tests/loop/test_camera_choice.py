"""Which camera ``serve`` uses, as a player who never read the docs expects: ``auto`` on a table with no
camera takes the photos from the phones (it never proposes recorded dice as if they were on the table), and
an explicit replay says on every page that it is one."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.config import Config
from companion.demo import DEMO_DIR
from companion.serve import Companion, NoCamera


def config(tmp_path: Path) -> Config:
    base = Config()
    return replace(base, state_dir=str(tmp_path / "state"), buttons=replace(base.buttons, enabled=False),
                   led=replace(base.led, enabled=False))


@pytest.fixture
def no_camera_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine with no Pi camera and no /dev/video* device (whatever this one has)."""
    import hardware.camera
    import hardware.picam

    monkeypatch.delenv("GOBLIN_CAMERA", raising=False)
    monkeypatch.setattr(hardware.picam, "detect_cameras", lambda: (0, "picamera2 sees no camera"))
    monkeypatch.setattr(hardware.camera, "_video_devices", lambda: [])


@pytest.fixture
def made() -> Iterator[list[Companion]]:
    companions: list[Companion] = []
    yield companions
    for companion in companions:
        companion.close()


@pytest.mark.parametrize("spec", ["auto", None])
def test_auto_without_a_camera_takes_photos_from_the_phones(
        tmp_path: Path, no_camera_here: None, made: list[Companion], spec: str | None) -> None:
    companion = Companion(config(tmp_path), camera=spec, web=False)
    made.append(companion)
    assert isinstance(companion.capture, NoCamera), companion.capture
    camera: dict[str, Any] = companion.session.snapshot()["camera"]
    assert camera["state"] == "none" and not camera.get("replay"), camera
    assert companion.camera_reason.startswith("auto: no camera found"), companion.camera_reason
    assert "phones take the photos" in companion.camera_reason
    assert companion.photos is not None  # the page's "Foto dal telefono"
    assert companion.focus is None       # no lens to focus: the settings page has no "Messa a fuoco"


def test_an_explicit_replay_says_it_is_one(tmp_path: Path, made: list[Companion]) -> None:
    for spec in ("replay", f"replay:{DEMO_DIR}"):
        companion = Companion(config(tmp_path / spec.replace("/", "_")), camera=spec, web=False)
        made.append(companion)
        assert not isinstance(companion.capture, NoCamera)
        camera = companion.session.snapshot()["camera"]
        assert camera["replay"] is True and camera["source"].startswith("replay:"), camera
        assert companion.focus is not None   # a camera: the focus aid measures what it delivers


def test_every_status_of_a_replay_keeps_saying_so() -> None:
    from companion.serve import camera_status_json
    from hardware.frames import CameraStatus

    status = CameraStatus("ok", "replay:/srv/photos", since=0.0)
    assert camera_status_json(status, replay=True)["replay"] is True
    assert "replay" not in camera_status_json(status)


def test_the_camera_is_given_the_readers_light_check(
        tmp_path: Path, made: list[Companion], monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pi camera meters again when the light changes by the same rule that names a burnt reading
    (``vision.exposure``): hardware knows no image rule, the companion hands it over."""
    import hardware.camera
    from vision.exposure import badly_exposed

    given: list[Any] = []
    real = hardware.camera.open_camera

    def spy(*args: Any, **kwargs: Any) -> Any:
        given.append(kwargs.get("light_check"))
        return real(*args, **kwargs)

    monkeypatch.setattr(hardware.camera, "open_camera", spy)
    made.append(Companion(config(tmp_path), camera=f"replay:{DEMO_DIR}", web=False))
    assert given == [badly_exposed]
