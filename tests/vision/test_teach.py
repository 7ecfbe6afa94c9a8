"""Teach mode round trip on drawn tokens (drawings, printed-like: not photos; see vision/synth.py)."""

import json

import pytest

from vision import Calibration, InvalidVisionInput, read_table, synth


def _single(face, *, angle, gain, seed, kind="felt"):
    img = synth.tray(kind=kind, seed=seed)
    synth.draw_token(img, 320, 240, 80, face, angle=angle)
    return synth.lighting(img, gain=gain, gradient=0.2, noise=2.0, seed=seed)


def _taught():
    """Taught as the page does: every object the finder finds in the frame (Vision III)."""
    cal = Calibration()
    for k, face in enumerate(["alive", "dead"]):
        cal, n = cal.teach_found(_single(face, angle=0, gain=1.0, seed=k), kind="token", label=face)
        assert n == 1
    return cal


def test_a_calibration_taught_before_vision_iii_still_reads_with_the_rules():
    """Examples taught as crops (no embedding: calibration files of earlier versions) keep working."""
    cal = Calibration()
    for k, face in enumerate(["alive", "dead"]):
        cal = cal.teach(_single(face, angle=0, gain=1.0, seed=k), kind="token", label=face)
    img = synth.tray(kind="wood", seed=9)
    synth.draw_token(img, 200, 240, 76, "alive", angle=40)
    synth.draw_token(img, 440, 240, 76, "dead", angle=-50)
    reading = read_table(img, calibration=cal, reader="rules")
    assert [t.face for t in reading.tokens] == ["alive", "dead"]


def test_teach_save_load_read_counts_alive_and_dead(tmp_path):
    cal = _taught()
    path = tmp_path / "table.calibration.json"
    cal.save(path)
    loaded = Calibration.load(path)
    assert loaded == cal and loaded.labels("token") == ["alive", "dead"]
    # another lighting, other angles, a wood tray: three alive, two dead
    img = synth.tray(kind="wood", seed=9)
    truth = [("alive", 100, 120, 30), ("dead", 250, 130, 75), ("alive", 420, 110, 140),
             ("dead", 180, 330, 200), ("alive", 480, 340, 260)]
    for face, x, y, angle in truth:
        synth.draw_token(img, x, y, 72, face, angle=angle)
    synth.draw_die(img, 330, 250, 46, 4)
    img = synth.lighting(img, gain=0.8, gradient=0.3, noise=3.0, seed=9)
    reading = read_table(img, calibration=loaded)
    assert reading.count_tokens() == {"alive": 3, "dead": 2}
    for face, x, y, _ in truth:
        (hit,) = [t for t in reading.tokens if abs(t.bbox[0] + t.bbox[2] / 2 - x) < 20
                  and abs(t.bbox[1] + t.bbox[3] / 2 - y) < 20]
        assert hit.face == face and hit.confidence > 0.5
    assert [d.value for d in reading.dice] == [4]


def test_without_calibration_tokens_are_found_but_not_told():
    img = _single("dead", angle=10, gain=1.0, seed=3)
    reading = read_table(img)
    assert len(reading.tokens) == 1 and reading.tokens[0].face is None and reading.dice == ()


def test_taught_face_reads_an_emblem_die(tmp_path):
    """A die whose 6 is an emblem (here a skull, whose eyes look like pips): taught, it reads 6."""
    def emblem_die(seed):
        img = synth.tray(kind="felt", seed=seed)
        synth.draw_die(img, 320, 240, 70, 1, pip=(235, 235, 235))   # blank face
        synth.draw_token(img, 320, 240, 44, "dead", paper=(235, 235, 235))
        return img
    cal, n = Calibration().teach_found(emblem_die(1), kind="face", label="6")
    assert n == 1
    cal.save(tmp_path / "c.json")
    reading = read_table(emblem_die(2), calibration=Calibration.load(tmp_path / "c.json"))
    assert [d.value for d in reading.dice] == [6]


_MALFORMED = json.dumps({"format": "goblin-companion-calibration", "version": 1, "size": 32,
                         "examples": [{"kind": "token"}]})


@pytest.mark.parametrize("content, word", [("{", "not JSON"), ('{"format": "x"}', "not a"),
                                           (_MALFORMED, "malformed")])
def test_bad_calibration_files_are_rejected_naming_the_file(tmp_path, content, word):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(InvalidVisionInput, match=word) as err:
        Calibration.load(path)
    assert "bad.json" in str(err.value)


def test_teach_validates_kind_and_label():
    img = _single("alive", angle=0, gain=1.0, seed=0)
    with pytest.raises(InvalidVisionInput, match="kind"):
        Calibration().teach(img, kind="coin", label="alive")  # type: ignore[arg-type]
    with pytest.raises(InvalidVisionInput, match="label"):
        Calibration().teach(img, kind="token", label=" ")


def test_taught_tokens_read_under_other_lights_and_trays():
    """A small token set: both faces drawn (printed-like renders, not photos) on three trays under
    four lights; taught once under plain light on felt, nearly every other picture is read right (the
    learned reader misses the alive token on the white tray at 0.6 gain: its embedding is under 0.8 of
    the taught one, so it is reported as an untaught emblem die, which the players are asked about)."""
    cal = _taught()
    right = 0
    lights = [dict(gain=0.6, gradient=0.0), dict(gain=1.25, gradient=0.0), dict(gain=1.0, gradient=0.45),
              dict(gain=0.85, gradient=0.2)]
    for t, kind in enumerate(["felt", "wood", "white"]):
        for k, light in enumerate(lights):
            img = synth.tray(kind=kind, seed=20 + k)
            synth.draw_token(img, 200, 240, 76, "alive", angle=37 * k + t)
            synth.draw_token(img, 440, 240, 76, "dead", angle=-53 * k)
            img = synth.lighting(img, noise=3.0, seed=k, **light)
            reading = read_table(img, calibration=cal)
            right += [t_.face for t_ in reading.tokens] == ["alive", "dead"]
            assert all(d.confidence < 0.8 for d in reading.dice), (kind, light, reading)
    assert right >= 11, right
