"""A face reader's card may name other readers (``"ensemble"``): their calibrated logits are averaged
(vision.faces.members, read_crops)."""

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import faces, finder, learned, synth
from vision.finder import turned_outputs
from vision.poly.synth import render

ROOT = Path(__file__).resolve().parents[2]
LOO = ROOT / "benchmarks" / "models"


def _reader(folder: Path, name: str, source: Path, **card) -> str:
    shutil.copy(source, folder / f"{name}.onnx")
    base = json.loads(source.with_suffix(".json").read_text(encoding="utf-8"))
    base.pop("ensemble", None)                   # the installed cards name their own siblings
    base.pop("crop", None)                       # read at the side the test's crops have, unless told
    (folder / f"{name}.json").write_text(json.dumps({**base, **card}), encoding="utf-8")
    return str(folder / f"{name}.onnx")


def _crops() -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    crops = [rng.integers(0, 255, (faces.CROP, faces.CROP, 3), dtype=np.uint8) for _ in range(3)]
    die = np.full((faces.CROP, faces.CROP, 3), 235, np.uint8)      # a white face with three black pips
    for c in (12, 20, 28):
        die[c - 3:c + 3, c - 3:c + 3] = 20
    return [*crops, die]


def test_an_ensemble_reads_the_mean_of_its_readers_calibrated_logits(tmp_path):
    first = _reader(tmp_path, "a", LOO / "faces-no-aws.onnx", temperature=0.7, ensemble=["b.onnx"])
    second = _reader(tmp_path, "b", LOO / "faces-no-nell.onnx", temperature=1.3)
    crops = _crops()
    n = len(faces.CLASSES)
    out_a = turned_outputs(crops, first, turns=4, batch=8)
    out_b = turned_outputs(crops, second, turns=4, batch=8)
    logits = (out_a[:, :n] / 0.7 + out_b[:, :n] / 1.3) / 2
    want = np.exp(logits - logits.max(axis=1, keepdims=True))
    want /= want.sum(axis=1, keepdims=True)
    got = faces.read_crops(crops, model=first)
    assert faces.members(first) == [first, second]
    np.testing.assert_allclose([r.probabilities for r in got], want, atol=1e-9)
    # the two readers disagree somewhere, so the mean is neither of them alone
    alone = faces.read_crops(crops, model=first, ensemble=False)
    moved = [float(np.abs(g.probabilities - a.probabilities).max()) for g, a in zip(got, alone, strict=True)]
    assert max(moved) > 0.01
    # the embedding stays the first reader's (teach mode's taught cosine was fitted for it)
    for g, a in zip(got, alone, strict=True):
        np.testing.assert_allclose(g.embedding, a.embedding, atol=1e-9)


def test_on_a_crowded_frame_only_the_first_readers_least_sure_crops_are_read_twice(tmp_path, monkeypatch):
    first = _reader(tmp_path, "a", LOO / "faces-no-aws.onnx", temperature=0.7, ensemble=["b.onnx"])
    _reader(tmp_path, "b", LOO / "faces-no-nell.onnx", temperature=1.3)
    crops = _crops()
    both = faces.read_crops(crops, model=first)
    alone = faces.read_crops(crops, model=first, ensemble=False)
    monkeypatch.setattr(faces, "MAX_ENSEMBLE", 2)
    capped = faces.read_crops(crops, model=first)
    least_sure = sorted(np.argsort([a.probabilities.max() for a in alone], kind="stable")[:2])
    for i, c in enumerate(capped):
        want = both[i] if i in least_sure else alone[i]
        np.testing.assert_allclose(c.probabilities, want.probabilities, atol=1e-9)
    assert any(np.abs(both[i].probabilities - alone[i].probabilities).max() > 0.01 for i in least_sure)


def test_a_card_without_an_ensemble_reads_alone(tmp_path):
    only = _reader(tmp_path, "a", LOO / "faces-no-aws.onnx")
    assert faces.members(only) == [only]


def test_a_card_naming_a_missing_reader_says_which(tmp_path):
    first = _reader(tmp_path, "a", LOO / "faces-no-aws.onnx", ensemble=["gone.onnx"])
    with pytest.raises(FileNotFoundError, match=r"gone\.onnx"):
        faces.read_crops(_crops(), model=first)


@pytest.mark.parametrize("bad", ["b.onnx", [3], ["b.pt"]])
def test_a_card_whose_ensemble_is_not_a_list_of_onnx_files_is_refused(tmp_path, bad):
    first = _reader(tmp_path, "a", LOO / "faces-no-aws.onnx", ensemble=bad)
    with pytest.raises(ValueError, match="ensemble"):
        faces.members(first)


@pytest.mark.parametrize("card", sorted(p.name for p in [*LOO.glob("faces-no-*.json"),
                                                          ROOT / "vision" / "models" / "faces.json"]))
def test_every_installed_reader_names_siblings_that_are_there_and_match_their_cards(card):
    folder = LOO if card.startswith("faces-no-") else ROOT / "vision" / "models"
    model = str(folder / card.replace(".json", ".onnx"))
    readers = faces.members(model)
    assert len(readers) == 2, "each installed reader is read with its one sibling (docs/vision.md)"
    sibling = finder.model_card(readers[1])
    assert sibling["sha256"] == finder.sha256(Path(readers[1])), f"{readers[1]} changed without its card"
    assert sibling["command"].startswith("python3 tools/train_faces.py")
    # a sibling trained for a left-out measurement never saw the set it is measured on
    assert sibling["left_out"] == finder.model_card(model)["left_out"]


def _numeral_die() -> np.ndarray:
    """A rendered d20 cut as the face reader cuts an object (``CROP_SCALE`` of its box)."""
    r = render(np.random.default_rng(20), kind="d20")
    x, y, w, h = r.bbox
    cx, cy, half = x + w // 2, y + h // 2, round(max(w, h) * faces.CROP_SCALE / 2)
    padded = cv2.copyMakeBorder(r.image, half, half, half, half, cv2.BORDER_REPLICATE)
    return cv2.resize(padded[cy:cy + 2 * half, cx:cx + 2 * half], (faces.CROP, faces.CROP),
                      interpolation=cv2.INTER_AREA)


def test_a_crop_the_first_reader_calls_a_numeral_surely_is_read_by_it_alone(tmp_path):
    first = _reader(tmp_path, "a", LOO / "faces-no-aws.onnx", temperature=0.7, ensemble=["b.onnx"])
    _reader(tmp_path, "b", LOO / "faces-no-nell.onnx", temperature=1.3)
    crops = [_numeral_die(), *_crops()]
    alone = faces.read_crops(crops, model=first, ensemble=False)
    assert alone[0].label == "numeral" and alone[0].p("numeral") >= faces.NUMERAL_ALONE
    assert all(a.p("numeral") < faces.NUMERAL_ALONE for a in alone[1:])
    got = faces.read_crops(crops, model=first)
    np.testing.assert_allclose(got[0].probabilities, alone[0].probabilities, atol=1e-9)
    # the others are read by both, as if the numeral die were not there
    both = faces.read_crops(crops[1:], model=first)
    for g, b in zip(got[1:], both, strict=True):
        np.testing.assert_allclose(g.probabilities, b.probabilities, atol=1e-9)
    # only sure numerals: nothing for the sibling to read is no error
    assert faces.read_crops(crops[:1], model=first)[0].label == "numeral"


def _read_counting(monkeypatch, img, found):
    """``read_faces`` with the screen, and the crops the first reader's network was given."""
    passes = {}
    real = finder._forward

    def counted(net, crops):
        passes[id(net)] = passes.get(id(net), 0) + len(crops)
        return real(net, crops)

    monkeypatch.setattr(finder, "_forward", counted)
    got = faces.read_faces(img, found, screen=learned.SCREEN)
    return got, passes[id(finder._net(str(finder.model_path("faces")), engine=finder.CROP_ENGINE))]


def _turned(screen: list[faces.FaceReading]) -> list[int]:
    """The crops ``read_faces`` reads at every turn after the screen's one look ``screen``: not likely
    "none", not surely a numeral, no pip value at ``PIP_ONE_TURN``."""
    return [i for i, r in enumerate(screen)
            if r.p("none") < learned.SCREEN and r.p("numeral") < faces.NUMERAL_ONE_TURN
            and float(r.probabilities[faces.PIPS].max()) < faces.PIP_ONE_TURN]


def test_the_screens_look_is_the_first_turn_read_once(monkeypatch):
    """``read_faces`` with a screen reads each candidate unturned once, and that look is the first of the
    four turns of those it keeps: the same readings as reading them again, one network pass fewer each."""
    img = synth.tray(640, 480, kind="felt")
    for k in range(5):
        synth.draw_die(img, 80 + 110 * k, 240, 48, k + 1, angle=17.0 * k)
    found = finder.find_objects(img, model="finder")
    assert len(found) >= 5
    # every look taken as unsure of its pips, so each die is turned whatever the reader: the ringed reader of
    # the sixty-second session reads all five at one look at 0.96 or more, which would leave none to check
    monkeypatch.setattr(faces, "PIP_ONE_TURN", 1.01)
    got, first_reader = _read_counting(monkeypatch, img, found)
    crops = [faces.crop(img, f, size=faces.crop_side()) for f in found]
    screen = faces.read_crops(crops, turns=1, ensemble=False)
    keep = _turned(screen)
    assert keep
    assert first_reader == len(found) + 3 * len(keep)
    again = faces.read_crops([crops[i] for i in keep],     # the second reader's squares cut at its side
                             cut=faces.cutter(img, [found[i] for i in keep]))
    for i, r in zip(keep, again, strict=True):
        np.testing.assert_allclose(got[i].probabilities, r.probabilities, atol=1e-6)


def test_a_die_the_screen_is_sure_of_is_not_turned_and_still_read(monkeypatch):
    """A crop whose one look is "numeral" at ``NUMERAL_ONE_TURN`` or more keeps that look (Vision II's type
    and numeral readers read it at four turns), and so does a pip die whose one look reads its value at
    ``PIP_ONE_TURN`` or more; a pip die the look is unsure of is read at every turn, by both readers."""
    from vision.poly.synth import scene

    sc = scene(np.random.default_rng(919191), count=10, profile="table")
    img = sc.image.copy()
    synth.draw_die(img, 60, 60, 48, 5, angle=10.0)      # plain and big: a sure look
    synth.draw_die(img, 320, 440, 24, 2, angle=20.0)    # small and turned: an unsure one (26 px at 40
    # degrees until the sixty-eighth session: a "3" until the RandConv reader of the fifty-eighth session,
    # then surer; at finder12's box its one look is 0.94 and its four turns move no class 0.05. At 24 px and
    # 20 degrees finder12's box reads 0.45 at one look, and the four turns move it 0.38)
    found = finder.find_objects(img, model="finder")
    crops = [faces.crop(img, f, size=faces.crop_side()) for f in found]
    screen = faces.read_crops(crops, turns=1, ensemble=False)
    sure = [i for i, r in enumerate(screen) if r.p("numeral") >= faces.NUMERAL_ONE_TURN]
    five = [i for i, f in enumerate(found) if abs(f.cx - 60) < 24 and abs(f.cy - 60) < 24]
    small = [i for i, f in enumerate(found) if abs(f.cx - 320) < 20 and abs(f.cy - 440) < 20]
    turned = _turned(screen)
    assert len(sure) >= 5 and len(five) == 1 and len(small) == 1
    assert screen[five[0]].label == "5" and screen[five[0]].p("5") >= faces.PIP_ONE_TURN
    assert small == [i for i in turned if i in small]
    got, first_reader = _read_counting(monkeypatch, img, found)
    assert first_reader == len(found) + 3 * len(turned)
    for i in [*sure, *five]:
        np.testing.assert_allclose(got[i].probabilities, screen[i].probabilities, atol=1e-6)
        assert got[i].whole
    # the unsure die's reading is both readers' at four turns, not its one look
    both = faces.read_crops([crops[small[0]]], cut=faces.cutter(img, [found[small[0]]]))[0]
    np.testing.assert_allclose(got[small[0]].probabilities, both.probabilities, atol=1e-6)
    assert got[small[0]].label == "2"
    assert float(np.abs(both.probabilities - screen[small[0]].probabilities).max()) > 0.05
    # and the dice are read where the renders put them, their types right (a d100 is a d10 read as tens)
    monkeypatch.undo()
    dice, _ = learned.read_view(img)
    typed = 0
    for r in sc.dice:
        x, y, w, h = r.bbox
        at = [d for d in dice if x <= d[0][0] + d[0][2] / 2 <= x + w and y <= d[0][1] + d[0][3] / 2 <= y + h]
        typed += len(at) == 1 and at[0][1] == (10 if r.kind == "d100" else int(r.kind[1:]))
    assert typed >= 9


def test_known_outputs_must_match_the_crops():
    crops = _crops()
    with pytest.raises(ValueError, match="known holds 2 outputs for 4 crops"):
        turned_outputs(crops, "faces", turns=4, batch=8, known=np.zeros((2, 74)))


def test_on_a_real_photo_sure_pip_faces_are_read_once_and_the_rest_at_every_turn(monkeypatch):
    """nell-byler's coloured dice (a photo the shipped readers trained on): the faces whose one look reads a
    value at ``PIP_ONE_TURN`` cost one network pass, the others four of the first reader and the second
    reader's; both kinds are on the photo."""
    from vision.data import photo_set

    img = photo_set("nell")[5].load()
    found = finder.find_objects(img)
    crops = [faces.crop(img, f, size=faces.crop_side()) for f in found]
    screen = faces.read_crops(crops, turns=1, ensemble=False)
    turned = _turned(screen)
    once = [i for i, r in enumerate(screen) if i not in turned and r.p("none") < learned.SCREEN
            and float(r.probabilities[faces.PIPS].max()) >= faces.PIP_ONE_TURN]
    assert len(once) >= 5 and len(turned) >= 2
    got, first_reader = _read_counting(monkeypatch, img, found)
    assert first_reader == len(found) + 3 * len(turned)
    for i in once:
        np.testing.assert_allclose(got[i].probabilities, screen[i].probabilities, atol=1e-6)
    again = faces.read_crops([crops[i] for i in turned], cut=faces.cutter(img, [found[i] for i in turned]))
    for i, r in zip(turned, again, strict=True):
        np.testing.assert_allclose(got[i].probabilities, r.probabilities, atol=1e-6)
