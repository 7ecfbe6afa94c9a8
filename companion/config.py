"""The companion's settings: one TOML file, every key optional.

Example (every value shown is the default; ``goblin-companion serve --print-config`` prints them)::

    host = "0.0.0.0"          # where the phone page listens
    port = 8080               # 0: any free port (the start-up line says which)
    language = "it"           # the page's default language: "it" or "en"
    pin = ""                  # the table PIN control actions need; "" for none
    state_dir = ""            # "" : $STATE_DIRECTORY (systemd), else ~/.local/state/goblin-companion
    threads = 32              # waitress threads: live streams hold half at most

    [camera]
    source = "auto"           # auto, picamera2[:N], opencv[:N|:PATH], replay[:PATH]
    replay = ""               # photos a bare "replay" shows; "" : the demo (auto never replays)
    frame_interval = 0.2      # seconds between replayed frames
    photo_seconds = 5.0       # seconds each replayed photo stays
    calibration = ""          # the taught tokens and faces (teach mode); "" : <state dir>/calibration.json
    keep_confirmed = true     # keep each confirmed reading's frame in <state dir>/dataset (for `tune`)
    keep_max = 400            # photos kept at most there (oldest dropped first)
    auto_tune = true          # every 50 confirmed photos (the first time after 25; counted across
                              # restarts), adapt the face reader to them (`tune`, in the background;
                              # kept only if it reads the photos it set aside better)
    tray = []                 # the tray's outline, [[x, y], ...] in fractions of the frame: only what
                              # lies inside is read (a laptop or a cable beside it is not); [] : all
    read_seconds = "auto"     # a frame is read in about this long at most: what a crowded frame leaves
                              # unread by then is asked, not waited for; "auto": 0.85 s, more on a board
                              # measured slower (up to 3.4 s), or a number of seconds
    turn = 0                  # degrees the camera's picture is turned clockwise before it is read and
                              # shown: 0, 90, 180 or 270 (a camera mounted upside down: 180). Turn it so
                              # the picture shows the table's far side at the top; then draw the tray
                              # and zones again. The settings page sets it too, without a restart (its
                              # value, in <state dir>/camera.json, wins over this one)

    [buttons]
    enabled = true
    confirm = 17              # BCM pin numbers (or gpiozero names such as "GPIO17")
    next = 27
    undo = 22
    undo_hold = 1.5           # seconds UNDO must be held
    debounce = 0.05
    pull_up = true            # buttons wired to ground

    [led]
    enabled = true
    pin = 23
    active_high = true

    [zones]                   # tray zones, polygons in fractions of the frame: [[x, y], ...]
                              # (zones set on the phone, <state dir>/zones.json, win over these)
    p0 = [[0.0, 0.0], [0.5, 0.0], [0.5, 1.0], [0.0, 1.0]]
    p1 = [[0.5, 0.0], [1.0, 0.0], [1.0, 1.0], [0.5, 1.0]]

Bad keys and values raise :class:`ConfigError` naming the key, e.g. ``buttons.confirm``.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Final

from companion.errors import InvalidInput

#: Environment variable naming the config file when ``--config`` is not given.
CONFIG_ENV: Final = "GOBLIN_CONFIG"
LANGUAGES: Final = ("it", "en")
#: ``camera.read_seconds``'s default: the frame's time measured for the board before its first frame
#: (``vision.learned.frame_seconds``)
AUTO: Final = "auto"


class ConfigError(InvalidInput):
    """A configuration file or value that cannot be used; the message names the key."""


Pin = int | str
#: ``camera.keep_max`` at most: photos of confirmed readings kept in the state directory
MAX_KEPT: Final = 100_000


@dataclass(frozen=True)
class CameraConfig:
    source: str = "auto"
    replay: str = ""
    frame_interval: float = 0.2
    photo_seconds: float = 5.0
    calibration: str = ""
    keep_confirmed: bool = True
    keep_max: int = 400
    auto_tune: bool = True
    tray: tuple[tuple[float, float], ...] = ()
    read_seconds: float | str = "auto"
    turn: int = 0


@dataclass(frozen=True)
class ButtonsConfig:
    enabled: bool = True
    confirm: Pin = 17
    next: Pin = 27
    undo: Pin = 22
    undo_hold: float = 1.5
    debounce: float = 0.05
    pull_up: bool = True


@dataclass(frozen=True)
class LedConfig:
    enabled: bool = True
    pin: Pin = 23
    active_high: bool = True


def _default_zones() -> dict[str, list[list[float]]]:
    return {"p0": [[0.0, 0.0], [0.5, 0.0], [0.5, 1.0], [0.0, 1.0]],
            "p1": [[0.5, 0.0], [1.0, 0.0], [1.0, 1.0], [0.5, 1.0]]}


@dataclass(frozen=True)
class Config:
    """All settings; ``Config()`` is the default table."""

    host: str = "0.0.0.0"
    port: int = 8080
    language: str = "it"
    pin: str = ""
    state_dir: str = ""
    threads: int = 32
    camera: CameraConfig = field(default_factory=CameraConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    led: LedConfig = field(default_factory=LedConfig)
    zones: dict[str, list[list[float]]] = field(default_factory=_default_zones)
    source: str = ""
    """The file these settings came from ("" for the defaults)."""

    def state_path(self, env: Mapping[str, str] | None = None) -> Path:
        """The state directory: ``state_dir``, else systemd's ``$STATE_DIRECTORY``, else
        ``$XDG_STATE_HOME/goblin-companion`` (``~/.local/state/goblin-companion``)."""
        env = os.environ if env is None else env
        if self.state_dir:
            return Path(self.state_dir).expanduser()
        if env.get("STATE_DIRECTORY"):
            return Path(env["STATE_DIRECTORY"].split(":")[0])
        base = env.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        return Path(base) / "goblin-companion"

    def calibration_path(self, env: Mapping[str, str] | None = None) -> Path:
        """The calibration file: ``camera.calibration``, else ``calibration.json`` in the state directory."""
        if self.camera.calibration:
            return Path(self.camera.calibration).expanduser()
        return self.state_path(env) / "calibration.json"

    def zones_path(self, env: Mapping[str, str] | None = None) -> Path:
        """The zones the page sets (``companion.zones``): ``zones.json`` in the state directory."""
        return self.state_path(env) / "zones.json"

    def to_json(self) -> dict[str, Any]:
        """Everything but the PIN (the settings page shows this)."""
        out = asdict(self)
        out["pin"] = "set" if self.pin else ""
        return out


def _check(value: Any, kind: type | tuple[type, ...], key: str, what: str) -> Any:
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise ConfigError(f"{key} must be {what}, not {value!r}")
    if not isinstance(value, kind):
        raise ConfigError(f"{key} must be {what}, not {value!r}")
    return value


def _positive(value: Any, key: str) -> float:
    _check(value, (int, float), key, "a number of seconds")
    if not value > 0:   # nan too
        raise ConfigError(f"{key} must be more than 0 seconds, not {value!r}")
    return float(value)


def _seconds_or_auto(value: Any, key: str) -> float | str:
    if value == AUTO:
        return AUTO
    _check(value, (int, float), key, f'"{AUTO}" or a number of seconds')
    return _positive(value, key)


def _pin(value: Any, key: str) -> Pin:
    _check(value, (int, str), key, "a BCM pin number such as 17 or a name such as \"GPIO17\"")
    if isinstance(value, int) and not 0 <= value <= 27:
        raise ConfigError(f"{key} must be a BCM pin 0..27, not {value}")
    if isinstance(value, str) and not value.strip():
        raise ConfigError(f"{key} must name a pin, not an empty string")
    pin: Pin = value
    return pin


def _section(raw: Any, cls: type, prefix: str) -> Any:
    if not isinstance(raw, dict):
        raise ConfigError(f"[{prefix}] must be a table of settings, not {raw!r}")
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(raw) - names)
    if unknown:
        raise ConfigError(f"unknown setting {prefix}.{unknown[0]}; "
                          f"[{prefix}] has: {', '.join(sorted(names))}")
    values: dict[str, Any] = {}
    for name, value in raw.items():
        key = f"{prefix}.{name}"
        default = getattr(cls(), name)
        if name in ("confirm", "next", "undo", "pin"):
            values[name] = _pin(value, key)
        elif name == "read_seconds":
            values[name] = _seconds_or_auto(value, key)
        elif isinstance(default, bool):
            values[name] = _check(value, bool, key, "true or false")
        elif isinstance(default, float):
            values[name] = _positive(value, key)
        elif name == "tray":
            values[name] = _tray(value, key)
        elif name == "turn":
            values[name] = _turn(value, key)
        elif isinstance(default, int):
            number = _check(value, int, key, "a whole number")
            if not 1 <= number <= MAX_KEPT:
                raise ConfigError(f"{key} must be 1..{MAX_KEPT}, not {number}")
            values[name] = number
        else:
            values[name] = _check(value, str, key, "text")
    return cls(**values)


def parse_zones(raw: Any) -> dict[str, list[list[float]]]:
    """``[zones]``: name -> polygon of 3+ ``[x, y]`` points (fractions of the frame); ConfigError names it."""
    if not isinstance(raw, dict) or not raw:
        raise ConfigError("[zones] must name at least one zone, e.g. p0 = [[0, 0], [0.5, 0], ...], "
                          f"not {raw!r}")
    out = {}
    for name, polygon in raw.items():
        out[str(name)] = _polygon(polygon, f"zones.{name}")
    return out


def _polygon(polygon: Any, key: str) -> list[list[float]]:
    """A polygon of 3+ ``[x, y]`` points in fractions of the frame; ConfigError names ``key``."""
    if not isinstance(polygon, list) or len(polygon) < 3:
        raise ConfigError(f"{key} must be a polygon of at least 3 [x, y] points, not {polygon!r}")
    points = []
    for point in polygon:
        if (not isinstance(point, list) or len(point) != 2
                or not all(isinstance(c, int | float) and not isinstance(c, bool) for c in point)):
            raise ConfigError(f"{key}: each point is [x, y] in fractions of the frame, not {point!r}")
        if not all(0.0 <= c <= 1.0 for c in point):
            raise ConfigError(f"{key}: point {point!r} is outside the frame (0..1)")
        points.append([float(point[0]), float(point[1])])
    return points


#: ``camera.turn``'s values: degrees clockwise
TURNS: Final = (0, 90, 180, 270)


def _turn(value: Any, key: str) -> int:
    """``camera.turn``: one of ``TURNS``."""
    _check(value, int, key, "0, 90, 180 or 270 (degrees clockwise)")
    if value not in TURNS:
        raise ConfigError(f"{key} must be 0, 90, 180 or 270 (degrees clockwise), not {value}")
    turn: int = value
    return turn


def _tray(value: Any, key: str) -> tuple[tuple[float, float], ...]:
    """``camera.tray``: ``[]`` (the whole frame) or an outline as ``vision.read_table(tray=)`` takes it."""
    if value == []:
        return ()
    from vision.errors import InvalidVisionInput
    from vision.zones import tray_polygon

    try:
        return tray_polygon(_polygon(value, key))
    except InvalidVisionInput as error:
        raise ConfigError(f"camera.{error}") from None


def parse_config(raw: Mapping[str, Any], *, source: str = "") -> Config:
    """Settings from a parsed TOML document; missing keys keep their defaults."""
    config = Config(source=source)
    known = {f.name for f in fields(Config)} - {"source"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ConfigError(f"unknown setting {unknown[0]!r}; known: {', '.join(sorted(known))}")
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "camera":
            values[key] = _section(value, CameraConfig, key)
        elif key == "buttons":
            values[key] = _section(value, ButtonsConfig, key)
        elif key == "led":
            values[key] = _section(value, LedConfig, key)
        elif key == "zones":
            values[key] = parse_zones(value)
        elif key in ("port", "threads"):
            number = _check(value, int, key, "a whole number")
            low, high = (0, 65535) if key == "port" else (4, 1000)
            if not low <= number <= high:
                raise ConfigError(f"{key} must be {low}..{high}, not {number}")
            values[key] = number
        elif key == "language":
            if value not in LANGUAGES:
                raise ConfigError(f"language must be one of {', '.join(LANGUAGES)}, not {value!r}")
            values[key] = value
        elif key == "pin":
            if isinstance(value, int) and not isinstance(value, bool):
                value = str(value)
            _check(value, str, key, "text such as \"1234\"")
            if value and not (value.isdigit() and 3 <= len(value) <= 12):
                raise ConfigError(f"pin must be 3 to 12 digits (or \"\" for none), not {value!r}")
            values[key] = value
        else:
            values[key] = _check(value, str, key, "text")
    buttons = values.get("buttons", config.buttons)
    pins = [buttons.confirm, buttons.next, buttons.undo]
    if len(set(pins)) != 3:
        raise ConfigError("buttons.confirm, buttons.next and buttons.undo need three different pins, "
                          f"not {pins}")
    led = values.get("led", config.led)
    if led.enabled and buttons.enabled and led.pin in pins:
        raise ConfigError(f"led.pin {led.pin!r} is already a button's pin")
    return replace(config, **values)


def load_config(path: str | Path | None = None, *, env: Mapping[str, str] | None = None) -> Config:
    """Read the settings file ``path`` (else ``$GOBLIN_CONFIG``); with neither, the defaults.

    A file named explicitly must exist; a file named by the environment variable too.
    """
    env = os.environ if env is None else env
    if path is None:
        path = env.get(CONFIG_ENV) or None
    if path is None:
        return Config()
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(f"cannot read the config file {str(path)!r}: {error.strerror or error}") from error
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"config file {str(path)!r} is not valid TOML: {error}") from error
    try:
        return parse_config(raw, source=str(path))
    except ConfigError as error:
        raise ConfigError(f"{path}: {error}") from None
