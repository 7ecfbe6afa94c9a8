"""The tray's zones as the table sets them from the phone: which half is whose, and a toss zone.

The camera can hang over the table either way round, so "p0 is the left half" is right on one table
and wrong on the next. The settings page offers the usual layouts (:data:`PRESETS`) and an optional
``toss`` zone in the middle (Goblins: Epic Death counts the tokens of a toss there and leaves the
reserve alone). What the page sets is kept in ``<state dir>/zones.json`` and wins over the TOML file's
``[zones]``; "use the file's zones" removes it again. The vision worker asks :meth:`ZoneKeeper.current`
for every reading, so a change applies to the next roll without a restart. The page can also set the tray's
outline (:meth:`ZoneKeeper.set_tray`, ``"tray"`` in the same file, over ``camera.tray``): only what lies
inside it is read (:meth:`ZoneKeeper.tray`, asked for every reading too).

A ``zones.json`` that cannot be read does not stop the table: the file's zones are used, the page says
why, and the next save keeps the bad file as ``zones.json.unreadable``.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from companion.config import ConfigError, parse_zones
from companion.errors import InvalidInput
from companion.files import remove, set_aside, write_atomic

log = logging.getLogger("companion.zones")

FILE_NAME: Final = "zones.json"
Polygon = list[list[float]]


def _rect(x0: float, y0: float, x1: float, y1: float) -> Polygon:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


LEFT, RIGHT = _rect(0.0, 0.0, 0.5, 1.0), _rect(0.5, 0.0, 1.0, 1.0)
TOP, BOTTOM = _rect(0.0, 0.0, 1.0, 0.5), _rect(0.0, 0.5, 1.0, 1.0)
PRESETS: Final[dict[str, dict[str, Polygon]]] = {
    "left-right": {"p0": LEFT, "p1": RIGHT},
    "right-left": {"p0": RIGHT, "p1": LEFT},
    "top-bottom": {"p0": TOP, "p1": BOTTOM},
    "bottom-top": {"p0": BOTTOM, "p1": TOP},
}
"""The first player's (``p0``) half named first: ``top-bottom`` puts p0 at the top of the picture."""
TOSS: Final[Polygon] = _rect(0.3, 0.25, 0.7, 0.75)
"""The toss zone: the middle of the tray. It is listed first, so what lies in it is the toss's."""


def preset_zones(preset: object, toss: object = False) -> dict[str, Polygon]:
    """The zones of ``preset`` (one of :data:`PRESETS`), with the ``toss`` zone first when asked."""
    if not isinstance(preset, str) or preset not in PRESETS:
        raise InvalidInput(f"preset must be one of {', '.join(PRESETS)}, not {preset!r}")
    if not isinstance(toss, bool):
        raise InvalidInput(f"toss must be true or false, not {toss!r}")
    halves = {name: [list(p) for p in polygon] for name, polygon in PRESETS[preset].items()}
    return {"toss": [list(p) for p in TOSS], **halves} if toss else halves


MAX_PLAYERS: Final = 20
"""The most players any game takes (Dadoteck): zones ``p0`` .. ``p19`` can name one."""
MAX_POINTS: Final = 64
"""The most points a zone's polygon may have (a tray's zone needs 4; a drawn one a few more)."""
ZONE_NAMES: Final = ("toss", *(f"p{n}" for n in range(MAX_PLAYERS)))
"""The names a zone may have: ``toss`` and one per player (``p0`` is the first)."""


def check_zones(zones: object) -> dict[str, Polygon]:
    """Zones as the page or the file gives them (``{"p0": [[x, y], ...], ...}``), checked like the TOML's,
    and named ``toss`` or ``p<n>`` for a player a game can have, with at most :data:`MAX_POINTS` points."""
    if isinstance(zones, dict):
        for name, polygon in zones.items():
            if name not in ZONE_NAMES:
                shown = repr(name[:40]) if isinstance(name, str) else repr(name)
                raise InvalidInput(f"zone {shown} is not a zone of the tray: \"toss\" or a player's, "
                                   f"\"p0\" .. \"p{MAX_PLAYERS - 1}\"")
            if isinstance(polygon, list) and len(polygon) > MAX_POINTS:
                raise InvalidInput(f"zones.{name} has {len(polygon)} points; at most {MAX_POINTS}")
    try:
        return parse_zones(zones)
    except ConfigError as error:
        raise InvalidInput(str(error).replace("[zones]", "zones", 1)[:300]) from None


def check_tray(tray: object) -> Polygon:
    """The tray's outline as the page or the file gives it (``[[x, y], ...]``, fractions of the frame),
    checked as ``vision.read_table(tray=)`` takes it."""
    from vision.errors import InvalidVisionInput
    from vision.zones import tray_polygon

    try:
        return [[x, y] for x, y in tray_polygon(tray)]
    except InvalidVisionInput as error:
        raise InvalidInput(str(error)[:300]) from None


def turn_point(x: float, y: float, degrees: int) -> list[float]:
    """Where the point (``x``, ``y``) of a picture (fractions of it) lies once the picture is turned
    ``degrees`` clockwise (0, 90, 180 or 270): 90 takes it to (1 - y, x), 180 to (1 - x, 1 - y), 270 to
    (y, 1 - x)."""
    turns = {0: (x, y), 90: (1 - y, x), 180: (1 - x, 1 - y), 270: (y, 1 - x)}
    if degrees % 360 not in turns:
        raise InvalidInput(f"a picture turns by 0, 90, 180 or 270 degrees, not {degrees!r}")
    tx, ty = turns[degrees % 360]
    return [round(tx, 9) + 0.0, round(ty, 9) + 0.0]   # 1 - 0.7 is 0.3 again, and no -0.0


def turn_polygon(polygon: Sequence[Sequence[float]], degrees: int) -> Polygon:
    """``polygon`` (fractions of a picture) on the picture turned ``degrees`` clockwise, starting again at
    its top-left-most point: a turned preset half is the preset half it became (``left-right`` turned 90
    degrees is ``top-bottom``), and turning back gives the same polygon."""
    points = [turn_point(x, y, degrees) for x, y in polygon]
    first = min(range(len(points)), key=lambda i: (points[i][1], points[i][0]))
    return points[first:] + points[:first]


def _which_preset(zones: Mapping[str, Polygon]) -> tuple[str | None, bool]:
    toss = zones.get("toss") == TOSS and next(iter(zones)) == "toss"
    halves = {name: polygon for name, polygon in zones.items() if not (toss and name == "toss")}
    for name, preset in PRESETS.items():
        if halves == preset:
            return name, toss
    return None, toss


class ZoneKeeper:
    """The zones in force: the page's (``zones.json``) if set, else the configuration's; and the tray's
    outline, the page's (``"tray"`` in the same file) if set, else ``camera.tray``. Thread-safe.

    Parameters
    ----------
    path
        The page's zones file (it need not exist).
    configured
        The configuration's ``[zones]`` (or the default halves).
    tray
        The configuration's ``camera.tray`` (empty: the whole frame).
    """

    def __init__(self, path: str | Path, configured: Mapping[str, Polygon],
                 tray: Sequence[Sequence[float]] = ()) -> None:
        self.path = Path(path)
        self.configured = {name: [list(p) for p in polygon] for name, polygon in configured.items()}
        self.configured_tray: Polygon | None = [list(p) for p in tray] or None
        self._lock = threading.Lock()
        self._set: dict[str, Polygon] | None = None
        self._tray: Polygon | None = None
        self._error: str | None = None
        self._version = 0
        self.reload()

    def reload(self) -> None:
        """Read the file again; one that cannot be used leaves the configuration's zones, with the reason."""
        zones: dict[str, Polygon] | None = None
        tray: Polygon | None = None
        error: str | None = None
        if self.path.exists() or self.path.is_symlink():
            try:
                raw = json.loads(self.path.read_text(encoding="utf-8"))
                if not isinstance(raw, dict) or not ("zones" in raw or "tray" in raw):
                    raise InvalidInput("it is not an object with \"zones\" or \"tray\"")
                zones = check_zones(raw["zones"]) if "zones" in raw else None
                tray = check_tray(raw["tray"]) if "tray" in raw else None
            except (OSError, UnicodeDecodeError, ValueError) as problem:
                zones, tray = None, None
                error = (f"zones file {str(self.path)!r} cannot be used ({problem}); "
                         "the configured zones apply")
                log.error("%s", error)
        with self._lock:
            self._set, self._tray, self._error = zones, tray, error
            self._version += 1

    @property
    def version(self) -> int:
        """Grows with every change, so a reader can keep its parsed zones until then."""
        with self._lock:
            return self._version

    def current(self) -> dict[str, Polygon]:
        """The zones the camera uses now (a fresh copy)."""
        with self._lock:
            zones = self._set if self._set is not None else self.configured
            return {name: [list(p) for p in polygon] for name, polygon in zones.items()}

    def tray(self) -> Polygon | None:
        """The tray's outline the camera reads now (a fresh copy), ``None`` for the whole frame."""
        with self._lock:
            tray = self._tray if self._tray is not None else self.configured_tray
            return None if tray is None else [list(p) for p in tray]

    def state(self) -> dict[str, Any]:
        """What the page shows: the zones, their source, the preset they match, the tray's outline and its
        source, the file, the error."""
        with self._lock:
            source = "page" if self._set is not None else "config"
            tray_source = "page" if self._tray is not None else "config"
            error = self._error
        zones = self.current()
        preset, toss = _which_preset(zones)
        return {"zones": zones, "source": source, "preset": preset, "toss": toss,
                "presets": list(PRESETS), "tray": self.tray(), "tray_source": tray_source,
                "file": str(self.path), "error": error}

    def _keep(self, zones: dict[str, Polygon] | None, tray: Polygon | None) -> None:
        """Write what the page set (under the lock), or remove the file when it set nothing."""
        if self._error is not None:
            aside = set_aside(self.path, "zones file")
            if aside is not None:
                log.warning("the unreadable zones file is kept as %s", aside)
        if zones is None and tray is None:
            remove(self.path, "zones file")
        else:
            kept = {**({"zones": zones} if zones is not None else {}), **({"tray": tray} if tray else {})}
            write_atomic(self.path, json.dumps(kept, indent=1), "zones file")
        self._set, self._tray, self._error = zones, tray, None
        self._version += 1

    def set(self, zones: object) -> dict[str, Any]:
        """Keep ``zones`` (checked) in the file and use them from the next reading."""
        checked = check_zones(zones)
        with self._lock:
            self._keep(checked, self._tray)
        log.info("zones set from the page: %s", ", ".join(checked))
        return self.state()

    def set_tray(self, tray: object) -> dict[str, Any]:
        """Keep the tray's outline (checked; ``None``: the page sets none, ``camera.tray`` applies) in the
        file and read only inside it from the next reading."""
        checked = None if tray is None else check_tray(tray)
        with self._lock:
            self._keep(self._set, checked)
        log.info("tray set from the page: %s", checked if checked is not None else "the configured one")
        return self.state()

    def turn(self, degrees: int) -> None:
        """The picture is turned ``degrees`` more clockwise (``companion.turn``): the zones and the tray's
        outline the page set turn with it, so they stay on the same part of the table. The file's
        (``[zones]``, ``camera.tray``) are parts of the picture and stay; an unreadable file is left for
        the next save to set aside."""
        if degrees % 360 == 0:
            return
        with self._lock:
            if self._error is not None or (self._set is None and self._tray is None):
                return
            zones = None if self._set is None else {
                name: turn_polygon(polygon, degrees) for name, polygon in self._set.items()}
            tray = None if self._tray is None else turn_polygon(self._tray, degrees)
            self._keep(zones, tray)
        log.info("the page's zones and tray turned %d degrees with the camera's picture", degrees % 360)

    def choose(self, preset: object, toss: object = False) -> dict[str, Any]:
        """:meth:`set` one of the :data:`PRESETS`, with or without the toss zone."""
        return self.set(preset_zones(preset, toss))

    def reset(self) -> dict[str, Any]:
        """Forget the page's zones (the file keeps only the page's tray, if any): the configuration's apply
        again."""
        with self._lock:
            self._keep(None, self._tray)
        log.info("zones from the page forgotten; the configured zones apply")
        return self.state()

    def __repr__(self) -> str:
        return f"ZoneKeeper({str(self.path)!r})"
