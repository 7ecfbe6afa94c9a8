"""The scan command: JSON line per image, error lines for bad files, annotated copies."""

import json
import shutil
from pathlib import Path

import cv2

from companion.cli import main
from vision import synth

DEMO = Path(__file__).resolve().parents[2] / "companion" / "demo"


def test_scan_reads_good_files_and_reports_bad_ones(tmp_path, capsys):
    # a real photo of eight dice bundled for the replay, with its labels (two players' halves)
    labels = next(e for e in json.loads((DEMO / "labels.json").read_text())["images"]
                  if e["file"] == "table_01.jpg")
    good = tmp_path / "table.jpg"
    shutil.copyfile(DEMO / "table_01.jpg", good)
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    huge = tmp_path / "huge.png"
    header = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR"
    huge.write_bytes(header + (20000).to_bytes(4, "big") * 2 + b"\x08\x02")
    out_dir = tmp_path / "ann"
    files = [str(good), str(empty), str(corrupt), str(text), str(huge), str(tmp_path / "missing.jpg")]
    status = main(["scan", *files, "--json", "--annotate", str(out_dir)])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 2
    assert [line["file"] for line in lines] == files
    first = lines[0]
    assert (first["width"], first["height"]) == (1280, 480) and first["ms"] >= 0
    assert (sorted((d["value"], d["sides"], d["zone"]) for d in first["dice"])
            == sorted((d["value"], d["sides"], d["zone"]) for d in labels["dice"]))
    assert first["tokens"] == []
    assert all("error" in line for line in lines[1:])
    assert "empty" in lines[1]["error"] and "decode" in lines[2]["error"] and "decode" in lines[3]["error"]
    assert "too large" in lines[4]["error"] and "No such file" in lines[5]["error"]
    assert (out_dir / "table.annotated.jpg").is_file()


def test_scan_all_good_exits_0_and_text_by_default(tmp_path, capsys):
    img = synth.tray(kind="wood")
    synth.draw_die(img, 320, 240, 50, 3)
    path = tmp_path / "a.png"
    cv2.imwrite(str(path), img)
    assert main(["scan", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1 dice: 3(" in out


def test_scan_usage_errors_are_one_stderr_line(tmp_path, capsys):
    assert main(["scan"]) == 2
    bad = tmp_path / "cal.json"
    bad.write_text("{")
    assert main(["scan", "x.png", "--calibration", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "cal.json" in err[1]


def test_scan_reads_only_the_tray_it_is_given(tmp_path, capsys):
    """``--tray``: the bundled photo's left view as the tray gives the left player's dice, in the photo's
    pixels; a tray no bigger than a slip is a usage error that says so."""
    labels = next(e for e in json.loads((DEMO / "labels.json").read_text())["images"]
                  if e["file"] == "table_01.jpg")
    left = [d for d in labels["dice"] if d["zone"] == "p0"]
    assert 0 < len(left) < len(labels["dice"])
    left_view = "[[0, 0], [0.5, 0], [0.5, 1], [0, 1]]"
    status = main(["scan", str(DEMO / "table_01.jpg"), "--json", "--tray", left_view])
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert status == 0 and (first["width"], first["height"]) == (1280, 480)
    assert sorted(d["value"] for d in first["dice"]) == sorted(d["value"] for d in left)
    assert all(d["zone"] == "p0" and d["bbox"][0] + d["bbox"][2] / 2 < 640 for d in first["dice"])
    assert main(["scan", str(DEMO / "table_01.jpg"), "--tray", "[[0, 0], [0.01, 0], [0, 0.01]]"]) == 2
    assert "spans less than 0.05 of the frame" in capsys.readouterr().err
