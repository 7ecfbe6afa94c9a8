"""The crop readers run on cv2.dnn's classic engine (``vision.finder.CROP_ENGINE``) because it is faster for
them, not because it reads otherwise: every network the product runs gives the same outputs on both engines
(``benchmarks/engines.py`` prints the times and the differences). On an OpenCV without engines (4.x, which
``pyproject.toml`` still allows) every network is loaded by ``readNet``, and these tests say so."""

import cv2
import numpy as np

from tests.helpers import benchmark
from vision import finder

engines = benchmark("engines")
HAS_ENGINES = hasattr(cv2.dnn, "ENGINE_CLASSIC")


def test_every_network_reads_the_same_on_both_engines(capsys):
    seen = engines.cases()
    assert {p.name for _, p, _ in seen} == {"finder.onnx", "faces.onnx", "faces2.onnx", "types.onnx",
                                            "poly.onnx"}
    if not HAS_ENGINES:
        engines.main([])
        assert "no dnn engines to compare" in capsys.readouterr().out
        return
    for what, path, shape in seen:
        r = engines.compare(path, shape, rounds=1, passes=1)
        assert r["diff"] < 1e-4, f"{what}: the engines' outputs differ by {r['diff']}"


def test_the_crop_readers_are_loaded_on_the_classic_engine():
    classic = cv2.dnn.ENGINE_CLASSIC if HAS_ENGINES else None
    assert finder.CROP_ENGINE is classic
    crops = [np.full((56, 56, 3), v, np.uint8) for v in (40, 200)]
    got = finder.turned_outputs(crops, "faces", turns=1, batch=8)
    path = str(finder.model_path("faces"))
    own = cv2.dnn.readNet(path) if classic is None else cv2.dnn.readNetFromONNX(path, engine=classic)
    own.setInput(finder.blob(crops))
    assert np.array_equal(got, np.asarray(own.forward(), np.float64).reshape(len(crops), -1))


def test_a_network_is_kept_per_engine_and_forgotten_on_every_one(tmp_path):
    """A path asked for on two engines is two nets (one loaded first on the other engine is not handed out),
    and a file written anew is loaded again on both."""
    path = str(tmp_path / "faces.onnx")
    (tmp_path / "faces.onnx").write_bytes(finder.model_path("faces").read_bytes())
    plain, crop = finder._net(path), finder._net(path, engine=finder.CROP_ENGINE)
    assert (crop is plain) == (finder.CROP_ENGINE is None)
    assert finder._net(path) is plain and finder._net(path, engine=finder.CROP_ENGINE) is crop
    finder._forget_net(path)
    assert finder._net(path) is not plain and finder._net(path, engine=finder.CROP_ENGINE) is not crop
