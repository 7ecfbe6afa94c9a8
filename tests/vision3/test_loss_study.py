"""benchmarks/loss_study.py counts every labelled die once, and its "reported" is what vision_eval finds."""

from tests.helpers import benchmark

loss_study = benchmark("loss_study")
vision_eval = benchmark("vision_eval")


def test_every_die_is_counted_at_one_stage_and_reported_matches_vision_eval(photos):
    from vision import read_table
    from vision.data import photo_set

    got = loss_study.study("nell", every=25)
    assert got["photos"] == 10
    assert sum(got["stages"].values()) == got["labelled"] > 30
    models = vision_eval.leave_out_models("nell")
    r = vision_eval.evaluate("nell", photo_set("nell")[::25], lambda im: read_table(im, models=models))
    assert got["stages"]["reported"] == r["found"]
    assert sum(got["phantoms"].values()) == r["phantom"]


def test_the_stages_say_which_part_lost_a_die():
    import numpy as np

    from vision.faces import CLASSES, FaceReading

    def reading(**p):
        probabilities = np.array([p.get("n" + c if c[0].isdigit() else c, 0.0) for c in CLASSES])
        return FaceReading(probabilities, np.zeros(64))

    assert loss_study._stage(None, None) == "finder missed"
    assert loss_study._stage(0, reading(none=0.7, n3=0.3)) == "face reader: none"
    assert loss_study._stage(0, reading(none=0.2, n3=0.3, n4=0.3, n5=0.2)) == "face reader: no class"
    assert loss_study._stage(0, reading(none=0.1, token=0.9)) == "face reader: token"
    assert loss_study._stage(0, reading(none=0.1, n6=0.9)) == "dropped by a reading rule"
