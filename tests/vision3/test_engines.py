"""The crop readers run on cv2.dnn's classic engine (``vision.finder.CROP_ENGINE``) because it is faster for
them, not because it reads otherwise: every network the product runs gives the same outputs on both engines
(``benchmarks/engines.py`` prints the times and the differences)."""

import cv2
import numpy as np
import pytest

from tests.helpers import benchmark
from vision import finder

engines = benchmark("engines")

pytestmark = pytest.mark.skipif(not hasattr(cv2.dnn, "ENGINE_CLASSIC"), reason="OpenCV 4.x has no engines")


def test_every_network_reads_the_same_on_both_engines():
    seen = engines.cases()
    assert {p.name for _, p, _ in seen} == {"finder.onnx", "faces.onnx", "faces2.onnx", "types.onnx",
                                            "poly.onnx"}
    for what, path, shape in seen:
        r = engines.compare(path, shape, rounds=1, passes=1)
        assert r["diff"] < 1e-4, f"{what}: the engines' outputs differ by {r['diff']}"


def test_the_crop_readers_are_loaded_on_the_classic_engine():
    assert finder.CROP_ENGINE == cv2.dnn.ENGINE_CLASSIC
    crops = [np.full((56, 56, 3), v, np.uint8) for v in (40, 200)]
    got = finder.turned_outputs(crops, "faces", turns=1, batch=8)
    classic = cv2.dnn.readNetFromONNX(str(finder.model_path("faces")), engine=cv2.dnn.ENGINE_CLASSIC)
    classic.setInput(finder.blob(crops))
    assert np.array_equal(got, np.asarray(classic.forward(), np.float64).reshape(len(crops), -1))
