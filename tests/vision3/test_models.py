"""The shipped Vision III models: loaded by cv2.dnn (no torch, no onnxruntime), their cards, their sizes."""

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import faces, finder

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["finder", "faces", "faces2", "types"])
def test_card_names_the_file_it_describes(name):
    card = finder.model_card(name)
    path = finder.model_path(name)
    assert card["sha256"] == finder.sha256(path), f"{path} changed without its card"
    assert card["command"].startswith("python3 tools/train_")
    assert isinstance(card["seed"], int)
    assert path.stat().st_size < 5_000_000


def test_all_model_files_stay_under_ten_megabytes():
    total = sum(p.stat().st_size for p in (ROOT / "vision").rglob("*.onnx"))
    total += sum(p.stat().st_size for p in (ROOT / "vision").rglob("*.npz"))
    assert total <= 10_000_000, total


@pytest.mark.parametrize(("h", "w"), [(96, 128), (480, 640), (352, 256)])
def test_finder_maps_a_quarter_of_any_input_size(h, w):
    net = cv2.dnn.readNet(str(finder.model_path("finder")))
    net.setInput(cv2.dnn.blobFromImage(np.full((h, w, 3), 128, np.uint8), 1 / 255.0))
    out = net.forward()
    assert out.shape == (1, 5, h // 4, w // 4)
    assert out[0, 0].min() >= 0.0 and out[0, 0].max() <= 1.0     # the heatmap is a probability


def test_face_reader_gives_probabilities_and_unit_embeddings():
    crops = [np.full((faces.CROP, faces.CROP, 3), v, np.uint8) for v in (0, 90, 200)]
    got = faces.read_crops(crops)
    assert len(got) == 3
    for r in got:
        assert r.probabilities.shape == (len(faces.CLASSES),)
        assert abs(float(r.probabilities.sum()) - 1.0) < 1e-6
        assert abs(float(np.linalg.norm(r.embedding)) - 1.0) < 1e-6
    # a plain grey square is no die
    assert got[1].label == "none", got[1].probabilities


def test_reading_a_frame_imports_neither_torch_nor_onnxruntime():
    code = ("import numpy as np, sys, vision; vision.read_table(np.full((480, 640, 3), 90, np.uint8)); "
            "print(sorted(m for m in ('torch', 'onnxruntime') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


def test_two_threads_read_at_once_and_agree():
    """The camera's reader and a teach from the page run the networks at the same time."""
    import threading

    from companion.demo import DEMO_DIR
    from vision import read_table

    frame = cv2.imread(str(DEMO_DIR / "table_01.jpg"))
    expected = read_table(frame).to_json()
    got, errors = [], []

    def work():
        try:
            for _ in range(4):
                got.append(read_table(frame).to_json())
        except Exception as error:  # pragma: no cover - the failure being tested
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert got == [expected] * 12
