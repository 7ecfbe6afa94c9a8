"""A frame's time by the clock (``vision.read_table(clock=)``, ``vision.learned.FRAME_SECONDS``): the counts
bound the work on the machine they were set on; on a slower or busier one the live table and ``scan`` stop
the work that can be left undone once the frame's time is spent, and return what it would have read with
at most ``OVER_BUDGET`` confidence. While the time lasts the reading is the one without a clock, to the bit.
How long frames take is measured by ``benchmarks/vision_eval.py --time-only``, not here."""

import itertools

import numpy as np
import pytest

from vision import faces, learned, read_table
from vision.data import photo_set
from vision.faces import STEP, crop, read_crops, read_faces
from vision.finder import find_objects, turned_outputs
from vision.poly.synth import scene


@pytest.fixture(scope="module")
def crowded(photos):
    """aws's most crowded photo (84 dice): more objects than a few of the face reader's steps."""
    return max(photo_set("aws"), key=lambda p: len(p.dice)).load()


@pytest.fixture(scope="module")
def polyhedral():
    """Ten rendered polyhedral dice on a tray: Vision II's path (type reader, numeral reader)."""
    return scene(np.random.default_rng(818181), count=10).image


def never(*_):
    return False


def after(calls):
    """A ``stop`` that says False ``calls`` times, then True."""
    counter = itertools.count()
    return lambda: next(counter) >= calls


def _crops(frame):
    found = find_objects(frame)
    return [crop(frame, f, size=faces.crop_side()) for f in found]


def test_read_step_by_step_the_crops_read_the_same_bits(crowded):
    crops = _crops(crowded)
    assert len(crops) > 3 * STEP
    known = turned_outputs(crops, "faces", turns=1, batch=faces.BATCH)
    plain = read_crops(crops, known=known)
    stepped = read_crops(crops, known=known, stop=never)
    for a, b in zip(plain, stepped, strict=True):
        assert np.array_equal(a.probabilities, b.probabilities)
        assert np.array_equal(a.embedding, b.embedding)
        assert a.whole and b.whole


def test_once_the_time_is_spent_the_crops_left_keep_their_one_turn_reading(crowded):
    crops = _crops(crowded)
    known = turned_outputs(crops, "faces", turns=1, batch=faces.BATCH)
    one_turn = read_crops(crops, turns=1, ensemble=False, known=known)
    every_turn = read_crops(crops, ensemble=False, known=known)
    got = read_crops(crops, ensemble=False, known=known, stop=after(2))
    for i, r in enumerate(got):
        if i < 2 * STEP:      # read before the time ran out: at every turn
            assert r.whole and np.array_equal(r.probabilities, every_turn[i].probabilities)
        else:
            assert not r.whole and np.array_equal(r.probabilities, one_turn[i].probabilities)


def test_the_second_reader_stops_too_least_sure_first(crowded):
    """Out of time, the second reader reads no more: the crops it has not reached keep the first reader's
    reading, whole, as the crops past ``MAX_ENSEMBLE`` do; it reads the least sure first, so what it
    reached is the least sure ``STEP``."""
    crops = _crops(crowded)
    known = turned_outputs(crops, "faces", turns=1, batch=faces.BATCH)
    alone = read_crops(crops, ensemble=False, known=known)
    both = read_crops(crops, known=known)
    changed = {i for i in range(len(crops)) if not np.array_equal(alone[i].probabilities,
                                                                  both[i].probabilities)}
    assert len(changed) > STEP, "the second reader has more than one step to read"
    chunks = -(-len(crops) // STEP)
    for steps, reached in ((0, set()), (1, None)):
        got = read_crops(crops, known=known, stop=after(chunks + steps))
        assert all(r.whole for r in got)
        if reached is None:   # the least sure STEP of the crops it would read
            reached = set(sorted(changed, key=lambda i: alone[i].confidence)[:STEP])
        for i, r in enumerate(got):
            assert np.array_equal(r.probabilities, (both if i in reached else alone)[i].probabilities)


def test_without_known_outputs_stop_is_not_asked(crowded):
    crops = _crops(crowded)[:STEP + 3]
    asked = []
    got = read_crops(crops, stop=lambda: asked.append(1) or True)
    assert not asked and all(r.whole for r in got)


@pytest.mark.parametrize("frame", ["crowded", "polyhedral"])
def test_a_clock_with_time_left_reads_as_no_clock(frame, request, monkeypatch):
    """... but for the pip checks, which by the clock may be ``MAX_TIMED_OPINIONS``: the clock bounds them."""
    image = request.getfixturevalue(frame)
    ticks = itertools.count()
    timed = read_table(image, clock=lambda: next(ticks) * 1e-9)
    counts = read_table(image)
    monkeypatch.setattr(learned, "MAX_SECOND_OPINIONS", learned.MAX_TIMED_OPINIONS)
    assert timed == read_table(image)
    if frame == "crowded":       # more sure d6s than counts alone check: the clock's reading is surer
        assert (sum(d.confidence >= learned.SURE for d in timed.dice)
                > sum(d.confidence >= learned.SURE for d in counts.dice))


@pytest.mark.parametrize("frame", ["crowded", "polyhedral"])
def test_a_frame_whose_time_is_spent_is_returned_unsure_and_its_work_undone(frame, request, monkeypatch):
    image = request.getfixturevalue(frame)
    full = read_table(image)
    assert any(d.confidence >= learned.SURE for d in full.dice)
    counted, polys, turned = [], [], []
    real_count, real_poly, real_faces = learned.pip_count, learned._poly_square, faces.turned_outputs
    monkeypatch.setattr(learned, "pip_count", lambda *a: counted.append(1) or real_count(*a))
    monkeypatch.setattr(learned, "_poly_square", lambda *a: polys.append(1) or real_poly(*a))
    typed, real_types = [], learned.read_types
    monkeypatch.setattr(learned, "read_types",
                        lambda frame, f, **k: typed.append(len(f)) or real_types(frame, f, **k))

    def looks(crops, *a, turns, known=None, **k):     # crops through the face reader's networks
        turned.append(len(crops) * (turns - (known is not None)))
        return real_faces(crops, *a, turns=turns, known=known, **k)

    monkeypatch.setattr(faces, "turned_outputs", looks)
    ticks = itertools.count()
    late = read_table(image, clock=lambda: float(next(ticks)))   # a second a look: spent at once
    assert late.dice, "what was found is still reported"
    assert max(d.confidence for d in late.dice) <= learned.OVER_BUDGET
    assert not counted and not polys          # no pip second opinion, no Vision II read
    assert not sum(typed)                     # nor the type reader, for dice Vision II would not read
    objects = find_objects(image)
    assert sum(turned) == min(STEP, len(objects))    # the screen's first step, one look each, no more
    # the dice the full reading reports are still reported, asked, those the screen did not reach as objects
    # of no type and no value (a die read weakly at one turn and found weakly may fall to
    # ``learned.BELIEVED``'s rule: one of aws's 80)
    lost = {d.bbox for d in full.dice} - {d.bbox for d in late.dice}
    assert len(lost) <= len(full.dice) / 20
    unseen = {f.box(image.shape) for f in objects[STEP:]}
    unread = [d for d in late.dice if d.bbox in unseen]
    assert len(unread) > (len(objects) - STEP) / 2
    assert all(d.sides is None and d.value is None and d.confidence <= 0.2 * learned.OVER_BUDGET
               for d in unread)


def test_the_screen_stops_too_the_weakest_objects_unseen(crowded):
    """On a board too slow for a frame of many objects the screen's one look is a cost of its own (150 crops
    of a mesh basket); it stops by the clock too, after a first step: what it reached reads as without a
    clock, the rest (the finder's weakest) is marked unseen, with an even reading and no embedding."""
    found = find_objects(crowded)
    assert len(found) > 2 * STEP
    crops = [crop(crowded, f, size=faces.crop_side()) for f in found]
    one_turn = read_crops(crops, turns=1, ensemble=False,
                          known=turned_outputs(crops, "faces", turns=1, batch=faces.BATCH))
    got = read_faces(crowded, found, screen=learned.SCREEN, most=learned.MAX_TURNED, stop=after(1))
    assert [r.seen for r in got] == [i < 2 * STEP for i in range(len(found))]
    for a, b in zip(one_turn[:2 * STEP], got, strict=False):     # out of time: no turned read after it
        assert np.array_equal(a.probabilities, b.probabilities)
    for r in got[2 * STEP:]:
        assert not r.whole and not np.any(r.embedding)
        assert np.allclose(r.probabilities, 1 / len(faces.CLASSES))
    assert all(r.seen for r in read_faces(crowded, found, screen=learned.SCREEN, most=learned.MAX_TURNED))


def test_read_faces_passes_its_stop_to_the_turned_reads(crowded):
    found = find_objects(crowded)
    got = read_faces(crowded, found, screen=learned.SCREEN, most=learned.MAX_TURNED, stop=after(0))
    plain = read_faces(crowded, found, screen=learned.SCREEN, most=learned.MAX_TURNED)
    assert sum(r.whole for r in plain) > sum(r.whole for r in got)
    for a, b in zip(plain, got, strict=True):
        if not b.whole and a.whole:
            assert not np.array_equal(a.probabilities, b.probabilities)


def test_the_live_table_and_scan_read_by_the_clock(crowded, monkeypatch, tmp_path):
    import cv2

    from companion import scan, serve
    from companion.config import parse_config

    ticks = itertools.count()
    monkeypatch.setattr(serve, "LIVE_CLOCK", lambda: float(next(ticks)))   # a very slow machine
    monkeypatch.setattr(serve, "_BOARD", [])     # measured on it: given the most time "auto" gives
    read, _ = serve.vision_reader(parse_config({}))
    reading = read(crowded)
    assert serve._BOARD == [learned.SLOWER_MOST * learned.FRAME_SECONDS]
    assert reading.dice and max(d.confidence for d in reading.dice) <= learned.OVER_BUDGET
    # a table that gives its frames more time (camera.read_seconds) reads them whole on that machine
    ticks = itertools.count()
    read, _ = serve.vision_reader(parse_config({"camera": {"read_seconds": 1e6}}))
    whole = read(crowded)
    monkeypatch.setattr(learned, "MAX_SECOND_OPINIONS", learned.MAX_TIMED_OPINIONS)   # the clock's count
    assert whole == read_table(crowded, percentile=serve.LIVE_PERCENTILE)
    clocks = []
    real = read_table

    def spy(*a, **k):
        clocks.append(k.get("clock"))
        return real(*a, **k)

    import vision
    monkeypatch.setattr(vision, "read_table", spy)
    path = tmp_path / "tray.png"
    cv2.imwrite(str(path), crowded[:300, :400])
    assert scan.main([str(path), "--json"]) == 0
    (clock,) = clocks
    assert callable(clock) and clock() <= clock()


@pytest.mark.parametrize("seconds", [0, -1.0, float("nan")])
def test_a_frame_time_that_is_no_time_is_refused(seconds, polyhedral):
    from vision.errors import InvalidVisionInput

    with pytest.raises(InvalidVisionInput, match="seconds"):
        read_table(polyhedral, clock=lambda: 0.0, seconds=seconds)


@pytest.mark.parametrize("bad", [0, -2, "fast", "AUTO", True, float("nan"), None])
def test_the_read_seconds_setting_must_be_auto_or_a_positive_number(bad):
    from companion.config import ConfigError, parse_config

    assert parse_config({}).camera.read_seconds == "auto"
    assert parse_config({"camera": {"read_seconds": "auto"}}).camera.read_seconds == "auto"
    assert parse_config({"camera": {"read_seconds": 3}}).camera.read_seconds == 3.0
    with pytest.raises(ConfigError, match=r"camera\.read_seconds"):
        parse_config({"camera": {"read_seconds": bad}})


def test_the_networks_are_loaded_before_the_frames_time_starts(polyhedral, monkeypatch):
    """The first frame of a session (or ``scan``'s first photo) loads the networks; that is not the frame's
    time, or on a slow board the first reading would always be cut."""
    import threading

    import cv2

    events = []
    read_net, read_onnx = cv2.dnn.readNet, cv2.dnn.readNetFromONNX
    for name, read in (("readNet", read_net), ("readNetFromONNX", read_onnx)):
        monkeypatch.setattr(cv2.dnn, name, lambda *a, read=read, **k: events.append("load") or read(*a, **k))

    def clock():
        events.append("clock")
        return 0.0

    got = []
    fresh = threading.Thread(target=lambda: got.append(read_table(polyhedral, clock=clock)))  # nothing loaded
    fresh.start()
    fresh.join()
    loads = [i for i, e in enumerate(events) if e == "load"]
    assert len(loads) >= 5                    # finder, two face readers, type reader, Vision II
    assert events.index("clock") > max(loads)
    assert got == [read_table(polyhedral)]


def test_each_thread_reads_polyhedral_dice_with_its_own_network(polyhedral):
    """A cv2.dnn net run from two threads at once breaks: the camera's reader and a finder fit measuring
    photos in the background both read polyhedral dice."""
    from concurrent.futures import ThreadPoolExecutor

    from vision import poly

    here = poly._net()
    with ThreadPoolExecutor(1) as pool:
        there = pool.submit(poly._net).result()
    assert there is not here and poly._net() is here
    expected = read_table(polyhedral)
    with ThreadPoolExecutor(2) as pool:
        assert all(r == expected for r in pool.map(lambda _: read_table(polyhedral), range(4)))


def test_a_board_too_slow_for_its_setting_is_told_in_the_log(polyhedral, monkeypatch, caplog):
    import logging

    from companion import serve
    from companion.config import parse_config

    now = [0.0]

    def slow_clock():              # every look at the clock finds a second gone: a very slow board
        now[0] += 1.0
        return now[0]

    monkeypatch.setattr(serve, "LIVE_CLOCK", slow_clock)
    read, _ = serve.vision_reader(parse_config({"camera": {"read_seconds": 2.5}}))
    with caplog.at_level(logging.WARNING, logger=serve.log.name):
        read(polyhedral)
        read(polyhedral)           # a few seconds later: not logged again
        now[0] += serve.SLOW_FRAME_LOG_EVERY
        read(polyhedral)
    slow = [r.getMessage() for r in caplog.records if "camera.read_seconds" in r.getMessage()]
    assert len(slow) == 2 and "(2.50)" in slow[0]
    caplog.clear()
    monkeypatch.setattr(serve, "LIVE_CLOCK", lambda: 0.0)   # time enough
    read(polyhedral)
    assert not [r for r in caplog.records if "camera.read_seconds" in r.getMessage()]


def test_the_face_reader_leaves_time_for_what_makes_dice_sure(crowded, monkeypatch):
    """Past ``FACES_SHARE`` of the frame's time the face readers stop; the pip counter's second opinions
    still run in the rest, so a crowded frame on a slow machine keeps some dice sure (reading faces until
    the time was out, the 84-dice frame by a clock running twice as fast reported none sure). Every look of
    the screen is taken as unsure, so that all 84 objects are read at four turns, several steps of each
    reader: the readers of the fifty-eighth session are sure at one look of all but 12 of them (one step)."""
    monkeypatch.setattr(faces, "PIP_ONE_TURN", 1.01)
    monkeypatch.setattr(faces, "NUMERAL_ONE_TURN", 1.01)
    full = read_table(crowded)
    now = [0.0]
    real_faces, real_count = faces.turned_outputs, learned.pip_count
    counted = []

    def slow_looks(crops, *a, turns, known=None, **k):   # each step of the face readers takes 0.2 of it
        if turns > 1:
            now[0] += 0.2 * learned.FRAME_SECONDS
        return real_faces(crops, *a, turns=turns, known=known, **k)

    monkeypatch.setattr(faces, "turned_outputs", slow_looks)
    monkeypatch.setattr(learned, "pip_count", lambda *a: counted.append(1) or real_count(*a))
    got = read_table(crowded, clock=lambda: now[0])
    assert learned.FACES_SHARE <= now[0] / learned.FRAME_SECONDS < 1.0    # they stopped at their share
    assert counted, "the pip counter had time left"
    sure = [d for d in got.dice if d.confidence >= learned.SURE]
    assert 0 < len(sure) <= learned.MAX_TIMED_OPINIONS               # as a fast machine reports
    assert any(d.confidence >= learned.SURE for d in full.dice)


def test_a_slower_board_gives_its_frames_more_time():
    """``camera.read_seconds = "auto"`` (the default) and ``scan --read-seconds auto``: ``FRAME_SECONDS`` on a
    machine like the reference (its own speed moves 1.4 times), then in proportion to how much slower the
    board reads, at most ``SLOWER_MOST`` times."""
    assert learned.frame_seconds(0.5) == learned.frame_seconds(1.4) == learned.FRAME_SECONDS
    assert learned.frame_seconds(2.0) == pytest.approx(2 * learned.FRAME_SECONDS)
    assert learned.frame_seconds(50.0) == pytest.approx(learned.SLOWER_MOST * learned.FRAME_SECONDS)
    with pytest.raises(ValueError, match="slowness"):
        learned.frame_seconds(float("nan"))
    for times in (3.0, 0.5):      # a clock by which every forward pass takes that many reference passes
        ticks = itertools.cycle([0.0, times * learned.REFERENCE_FORWARD_MS / 1000])
        assert learned.slowness(ticks.__next__) == pytest.approx(times)
    import time

    here = learned.slowness(time.perf_counter)
    assert 0 < here < 100


def test_the_live_table_reads_in_the_time_its_board_gets(polyhedral, monkeypatch, caplog):
    import logging

    import vision
    from companion import serve
    from companion.config import parse_config

    given = []
    real = vision.read_table
    monkeypatch.setattr(vision, "read_table", lambda *a, **k: given.append(k["seconds"]) or real(*a, **k))
    monkeypatch.setattr(serve, "_BOARD", [])
    monkeypatch.setattr(learned, "slowness", lambda clock: 2.0)          # a board twice as slow
    with caplog.at_level(logging.INFO, logger=serve.log.name):
        read, _ = serve.vision_reader(parse_config({}))
        read(polyhedral)
        serve.vision_reader(parse_config({"camera": {"read_seconds": "auto"}}))[0](polyhedral)
    assert given == [pytest.approx(2 * learned.FRAME_SECONDS)] * 2
    told = [r.getMessage() for r in caplog.records if "auto" in r.getMessage()]
    assert len(told) == 1 and "2.0 times" in told[0] and "1.70 s" in told[0]   # measured once, said once
    monkeypatch.setattr(learned, "slowness", lambda clock: pytest.fail("a set time is not measured"))
    monkeypatch.setattr(serve, "_BOARD", [])
    serve.vision_reader(parse_config({"camera": {"read_seconds": 0.4}}))[0](polyhedral)
    assert given[-1] == 0.4


def test_scan_reads_in_the_time_its_machine_gets(monkeypatch, tmp_path, capsys):
    import cv2

    import vision
    from companion import scan

    given = []
    real = vision.read_table
    monkeypatch.setattr(vision, "read_table", lambda *a, **k: given.append(k["seconds"]) or real(*a, **k))
    monkeypatch.setattr(learned, "slowness", lambda clock: 3.0)
    path = tmp_path / "dice.png"
    cv2.imwrite(str(path), scene(np.random.default_rng(5), count=2, width=320, height=240).image)
    assert scan.main([str(path), "--json"]) == 0     # the default stays the reference machine's
    assert scan.main([str(path), "--json", "--read-seconds", "auto"]) == 0
    assert scan.main([str(path), "--json", "--read-seconds", "1.5"]) == 0
    assert given == [learned.FRAME_SECONDS, pytest.approx(3 * learned.FRAME_SECONDS), 1.5]
