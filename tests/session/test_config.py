"""Settings: one TOML file, defaults without one, errors that name the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import Config, ConfigError, load_config, parse_config
from companion.serve import build_parser, main, settings_from


def test_no_file_gives_the_defaults(tmp_path: Path) -> None:
    config = load_config(None, env={})
    assert config == Config()
    assert (config.port, config.language, config.buttons.confirm, config.led.pin) == (8080, "it", 17, 23)
    assert config.state_path({"STATE_DIRECTORY": "/var/lib/goblin"}) == Path("/var/lib/goblin")
    assert config.state_path({"XDG_STATE_HOME": str(tmp_path)}) == tmp_path / "goblin-companion"


def test_a_file_sets_what_it_names(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('port = 9000\npin = "2468"\nlanguage = "en"\nstate_dir = "/srv/t"\n'
                    '[buttons]\nconfirm = 5\nundo_hold = 2\n[camera]\nsource = "opencv:1"\n'
                    '[zones]\nall = [[0, 0], [1, 0], [1, 1]]\n')
    config = load_config(path)
    assert (config.port, config.pin, config.language) == (9000, "2468", "en")
    assert config.state_path() == Path("/srv/t")
    assert (config.buttons.confirm, config.buttons.next, config.buttons.undo_hold) == (5, 27, 2.0)
    assert config.camera.source == "opencv:1" and list(config.zones) == ["all"]
    assert config.camera.tray == () and config.camera.keep_max == 400
    assert load_config(None, env={"GOBLIN_CONFIG": str(path)}).port == 9000
    assert config.to_json()["pin"] == "set"


@pytest.mark.parametrize(("text", "message"), [
    ("prot = 1", "unknown setting 'prot'"),
    ("port = 70000", "port must be 0..65535, not 70000"),
    ("port = \"80\"", "port must be a whole number, not '80'"),
    ("language = \"de\"", "language must be one of it, en, not 'de'"),
    ("pin = \"12ab\"", "pin must be 3 to 12 digits"),
    ("[buttons]\nconfirm = 40", "buttons.confirm must be a BCM pin 0..27, not 40"),
    ("[buttons]\nconfrim = 4", "unknown setting buttons.confrim"),
    ("[buttons]\nenabled = 1", "buttons.enabled must be true or false, not 1"),
    ("[buttons]\nundo_hold = -1", "buttons.undo_hold must be more than 0 seconds"),
    ("[buttons]\nnext = 17", "need three different pins"),
    ("[led]\npin = 22", "led.pin 22 is already a button's pin"),
    ("[camera]\nframe_interval = \"fast\"", "camera.frame_interval must be a number of seconds"),
    ("[zones]\np0 = [[0, 0], [2, 0], [1, 1]]", "zones.p0: point [2, 0] is outside the frame"),
    ("[zones]\np0 = [[0, 0]]", "zones.p0 must be a polygon of at least 3"),
    ("camera = 3", "[camera] must be a table of settings"),
    ("[camera]\nkeep_max = 0", "camera.keep_max must be 1..100000, not 0"),
    ("[camera]\nkeep_max = \"all\"", "camera.keep_max must be a whole number, not 'all'"),
    ("[camera]\ntray = [[0, 0], [1, 1]]", "camera.tray must be a polygon of at least 3"),
    ("[camera]\ntray = [[0, 0], [1, 0], [1, 1.5]]", "camera.tray: point [1, 1.5] is outside the frame"),
    ("port = ", "is not valid TOML"),
])
def test_bad_settings_name_the_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text + "\n")
    with pytest.raises(ConfigError, match=None) as caught:
        load_config(path)
    assert message in str(caught.value) and str(path) in str(caught.value)


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read the config file"):
        load_config(tmp_path / "nope.toml")
    assert issubclass(ConfigError, ValueError)
    assert parse_config({"pin": 1234}).pin == "1234"


def test_command_line_overrides_are_checked_like_the_file(tmp_path: Path) -> None:
    args = build_parser().parse_args(["--port", "9100", "--lang", "en", "--no-buttons",
                                      "--state-dir", str(tmp_path)])
    config = settings_from(args, env={})
    assert (config.port, config.language) == (9100, "en")
    assert (config.buttons.enabled, config.led.enabled) == (False, True)
    with pytest.raises(ConfigError, match=r"port must be 0\.\.65535, not 99999"):
        settings_from(build_parser().parse_args(["--port", "99999"]), env={})


def test_serve_says_what_was_wrong_and_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--port", "x"]) == 2
    assert "--port: invalid int value: 'x'" in capsys.readouterr().err
    assert main(["--config", str(tmp_path / "none.toml")]) == 2
    assert "cannot read the config file" in capsys.readouterr().err
    assert main(["--reader", "nothing"]) == 2
    assert "--reader must be MODULE:FUNCTION" in capsys.readouterr().err
    assert main(["--camera", "webcam", "--state-dir", str(tmp_path), "--no-buttons", "--no-led"]) == 2
    assert "unknown camera 'webcam'" in capsys.readouterr().err
    assert main(["--print-config", "--pin", "1234"]) == 0
    out = capsys.readouterr().out
    assert '"pin": "set"' in out and '"port": 8080' in out


def test_the_camera_keeps_its_tray_and_photo_cap_from_the_file(tmp_path: Path) -> None:
    """``camera.keep_max`` was shown in the example but refused as "not text" until the twenty-eighth
    session; ``camera.tray`` is new there."""
    path = tmp_path / "c.toml"
    path.write_text("[camera]\nkeep_max = 50\ntray = [[0.2, 0], [1, 0], [1, 1], [0.2, 1]]\n")
    config = load_config(path)
    assert config.camera.keep_max == 50
    assert config.camera.tray == ((0.2, 0.0), (1.0, 0.0), (1.0, 1.0), (0.2, 1.0))
    assert config.to_json()["camera"]["tray"] == ((0.2, 0.0), (1.0, 0.0), (1.0, 1.0), (0.2, 1.0))
    assert load_config(None, env={}).camera.tray == ()
