"""The service unit, checked by systemd's own tools."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "goblin-companion.service"
ANALYZE = shutil.which("systemd-analyze") or "/usr/bin/systemd-analyze"
EXEC = "/opt/goblin-companion/venv/bin/goblin-companion"


def settings() -> list[tuple[str, str]]:
    """(key, value) pairs of the unit in order; keys may repeat, as systemd allows."""
    pairs = []
    for line in UNIT.read_text().splitlines():
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            pairs.append((key.strip(), value.strip()))
    return pairs


def values(key: str) -> list[str]:
    return [v for k, v in settings() if k == key]


def analyze(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ANALYZE, *args], capture_output=True, text=True, timeout=120)


def test_verify_prints_nothing(tmp_path: Path) -> None:
    # verify exits 0 even on misspelled keys, so any output at all is a failure. The only thing it may
    # say about the unit as shipped is that the venv's binary is missing on this machine: verify a copy
    # whose ExecStart runs /bin/true with the same arguments.
    as_shipped = analyze("verify", str(UNIT))
    for line in (as_shipped.stdout + as_shipped.stderr).splitlines():
        assert f"Command {EXEC} is not executable" in line, line
    copy = tmp_path / UNIT.name
    copy.write_text(UNIT.read_text().replace(f"ExecStart={EXEC} ", "ExecStart=/bin/true "))
    assert "ExecStart=/bin/true serve " in copy.read_text()
    done = analyze("verify", str(copy))
    assert done.stdout + done.stderr == ""
    assert done.returncode == 0


def test_verify_would_catch_a_misspelled_key(tmp_path: Path) -> None:
    copy = tmp_path / UNIT.name
    text = UNIT.read_text().replace(f"ExecStart={EXEC} ", "ExecStart=/bin/true ")
    copy.write_text(text.replace("ProtectHome=yes", "ProtectHomes=yes"))
    done = analyze("verify", str(copy))
    assert "ProtectHomes" in done.stdout + done.stderr


def test_security_exposure_is_ok() -> None:
    done = analyze("security", "--offline=true", str(UNIT))
    match = re.search(r"Overall exposure level for goblin-companion\.service: (\d+\.\d+) (\w+)", done.stdout)
    assert match, done.stdout + done.stderr
    score, verdict = float(match.group(1)), match.group(2)
    assert verdict in ("OK", "SAFE", "PERFECT") and score < 2.0, match.group(0)


def test_notify_watchdog_restart_and_user() -> None:
    assert values("Type") == ["notify"] and values("NotifyAccess") == ["main"]
    assert int(values("WatchdogSec")[0]) >= 30
    assert values("Restart") == ["on-failure"]
    assert values("User") == ["goblin"] and values("SupplementaryGroups") == ["video gpio"]
    assert values("StateDirectory") == ["goblin-companion"]


def test_exec_start_runs_serve_on_the_pi_camera_with_state_and_config() -> None:
    (command,) = values("ExecStart")
    assert command.split() == [
        EXEC, "serve", "--camera", "picamera2", "--state-dir", "/var/lib/goblin-companion",
        "--config", "/etc/goblin-companion/config.toml",
    ]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("ProtectSystem", "strict"),
        ("ProtectHome", "yes"),
        ("NoNewPrivileges", "yes"),
        ("PrivateTmp", "yes"),
        ("CapabilityBoundingSet", ""),
        ("AmbientCapabilities", ""),
        ("DevicePolicy", "closed"),
    ],
)
def test_hardening(key: str, value: str) -> None:
    assert values(key) == [value]


def test_devices_camera_and_gpio_allowed_but_not_private_devices() -> None:
    allowed = {v.split()[0] for v in values("DeviceAllow")}
    assert allowed == {"char-video4linux", "char-media", "char-dma_heap", "char-gpiochip"}
    assert values("PrivateDevices") == []  # it would hide /dev/video*, /dev/media* and /dev/gpiochip*
    assert values("ProcSubset") == []  # gpiozero reads the Pi's revision from /proc
