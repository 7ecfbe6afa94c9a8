"""benchmarks/tune_eval.py: how a table never trained on is split into the photos its players confirm and
the photos read before and after ``tune``, and what the confirmed photos hand to ``tune``."""

from tests.helpers import benchmark
from vision.data import photo_set


def _load():
    return benchmark("tune_eval")


def test_the_confirmed_and_the_read_photos_never_overlap_and_cover_the_set():
    bench = _load()
    photos = photo_set("nell")
    for how in ("interleaved", "halves"):
        fit, read = bench.split(photos, how)
        assert {p.path for p in fit}.isdisjoint(p.path for p in read)
        assert len(fit) + len(read) == len(photos)
    fit, _ = bench.split(photos, "halves")
    assert fit == photos[: len(photos) // 2]


def test_a_crop_of_one_die_is_confirmed_as_the_whole_crop_and_boxed_dice_keep_their_boxes():
    bench = _load()
    crop = photo_set("chase")[0]
    (image, dice), = bench.confirmed([crop])
    assert dice == [((0.0, 0.0, float(image.shape[1]), float(image.shape[0])), crop.dice[0].value)]
    nell = photo_set("nell")[0]
    (_, boxed), = bench.confirmed([nell])
    assert boxed == [(d.bbox, d.value) for d in nell.dice if d.value is not None]


def test_the_cost_benchmark_keeps_hq_photos_with_their_boxes_enlarged(tmp_path):
    cost = benchmark("tune_cost")
    data = cost.build(tmp_path / "dataset", "nell", 3)
    entries = data.labels()["images"]
    first = photo_set("nell")[0]
    assert len(entries) == 3 and (entries[0]["width"], entries[0]["height"]) == cost.HQ
    kx = cost.HQ[0] / 640
    assert [d["bbox"][0] for d in entries[0]["dice"]] == [round(d.bbox[0] * kx) for d in first.dice]


def test_noise_changes_that_share_of_the_values_and_never_the_boxes():
    bench = _load()
    photos = photo_set("nell")[:30]
    clean, noisy = bench.confirmed(photos), bench.confirmed(photos, 0.1)
    pairs = [(a, b) for (_, da), (_, db) in zip(clean, noisy, strict=True)
             for a, b in zip(da, db, strict=True)]
    changed = sum(a[1] != b[1] for a, b in pairs)
    assert all(a[0] == b[0] for a, b in pairs) and all(1 <= b[1] <= 6 for _, b in pairs)
    assert 0.05 * len(pairs) < changed < 0.15 * len(pairs)
