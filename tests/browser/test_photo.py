"""A phone as the camera, in a real browser: a table with no camera (the real vision worker, its frame
holder never fed), a real photo from ``shared/dice-photos`` put in the page's file input
(``set_input_files``), resized by the page's canvas, read by the real vision, proposed, and confirmed on
the page; the confirmed die is checked in the session and in the SQLite file."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from playwright.sync_api import Browser, Page, expect
from waitress import wasyncore
from waitress.server import create_server

from companion.config import Config
from companion.photos import PhotoDesk
from companion.serve import VisionWorker, lan_addresses
from companion.session import TableSession
from companion.store import Store
from hardware.frames import FrameHolder
from tests.browser.conftest import Table, open_phone, record, shot
from tests.web.test_photo import BURKS
from web import create_app, stop_streams

pytestmark = [pytest.mark.browser]

PIN = "2468"
DADOTECK = {"players": ["Anna", "Bruno"]}


def photo_path(name: str) -> Path:
    assert BURKS is not None, "shared/dice-photos/burksbuilds__dicetower-dev is missing"
    return BURKS / "burksbuilds__dicetower-dev" / "images" / name


@pytest.fixture(scope="module")
def photo_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    """The table served on this machine's LAN address when it has one (plain HTTP on a LAN address, as a
    phone opens it: not a secure context), else on 127.0.0.1."""
    path = tmp_path_factory.mktemp("photo") / "companion.sqlite3"
    host = (lan_addresses() or ["127.0.0.1"])[0]
    with Store(path) as store:
        session = TableSession(store)
        worker = VisionWorker(session, FrameHolder(), config=Config()).start()
        app = create_app({"TABLE_PIN": PIN, "SSE_HEARTBEAT": 0.5, "SSE_MAX_SECONDS": 30.0}, session=session,
                         photos=PhotoDesk(session, worker))
        try:
            server = create_server(app, host=host, port=0, threads=8)
        except OSError:
            host = "127.0.0.1"
            server = create_server(app, host=host, port=0, threads=8)
        stop = threading.Event()

        def serve() -> None:
            while not stop.is_set():
                wasyncore.loop(timeout=0.05, map=server._map, count=1)

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        table = Table(f"http://{host}:{server.effective_port}", app, session)  # type: ignore[union-attr]
        table.db = path  # type: ignore[attr-defined]
        yield table
        stop_streams(app)
        server.task_dispatcher.shutdown(timeout=5)
        stop.set()
        thread.join(5)
        server.close()
        worker.stop()


def give_pin(page: Page) -> None:
    expect(page.locator("#pin-dialog")).to_be_visible()
    page.fill("#pin-input", PIN)
    page.click("#pin-ok")


def test_a_real_photo_through_the_file_input_is_read_and_confirmed(
        photo_table: Table, browser: Browser, page_errors: list[str]) -> None:
    session = photo_table.session
    session.new_game("dadoteck", DADOTECK, archive=True)
    page = open_phone(browser, page_errors)
    try:
        page.goto(photo_table.url("/"))
        expect(page.locator("#photo")).to_be_visible()
        assert page.inner_text("#photo-take") == "Scatta una foto"  # Italian by default
        assert page.get_attribute("#photo-camera", "capture") == "environment"
        assert page.get_attribute("#photo-file", "capture") is None  # the picker works without a camera
        # over plain HTTP on a LAN address chromium gives no getUserMedia: the file input is the way
        secure = page.evaluate("() => [window.isSecureContext, typeof navigator.mediaDevices]")
        record("photo-context", {"url": photo_table.base, "isSecureContext": secure[0],
                                 "mediaDevices": secure[1]})
        if not photo_table.base.startswith("http://127."):
            assert secure == [False, "undefined"]
        shot(page, "photo-01-asked")
        items = page.evaluate("""() => [performance.getEntriesByType('navigation')[0],
                                        ...performance.getEntriesByType('resource')]
            .filter(r => !r.name.includes('/api/stream') && !r.name.includes('/api/snapshot.jpg'))
            .map(r => ({name: new URL(r.name).pathname, bytes: r.encodedBodySize}))""")
        photo_js = sum(i["bytes"] for i in items if i["name"] == "/static/photo.js")
        record("photo-page-weight", {"table_page_kb": round(sum(i["bytes"] for i in items) / 1024, 1),
                                     "photo_js_kb": round(photo_js / 1024, 1), "items": items})
        assert 0 < photo_js < 8 * 1024  # only a table that takes photos downloads it

        page.set_input_files("#photo-file", str(photo_path("D20_A_5.jpg")))
        give_pin(page)  # the table PIN, as for any control action
        expect(page.locator("#proposal [data-slot=p0] b")).to_have_text("5", timeout=30_000)
        # the live stream can bring the proposal before the POST's own answer reaches the card
        expect(page.locator("#photo-status")).to_contain_text("Foto letta")
        status = page.inner_text("#photo-status")
        assert "1776×1840" in status and "Foto letta" in status, status
        expect(page.locator("#snapshot")).to_be_visible()  # the annotated photo
        assert session.snapshot()["step"] == 0  # proposed, nothing confirmed yet
        shot(page, "photo-02-proposed")

        page.click("#proposal-confirm")
        expect(page.locator("#dado-sq-5 .pawn")).to_contain_text("Anna")  # Anna's pawn placed on 5
        snap = session.snapshot()
        assert snap["step"] == 1 and snap["history"][-1]["action"] == {"type": "reading", "values": {"p0": 5}}
        assert snap["history"][-1]["source"] == "camera" and not snap["history"][-1].get("manual")
        with Store(photo_table.db) as reopened:  # type: ignore[attr-defined]
            record_ = reopened.load()
            assert record_ is not None
            assert record_.events[-1].action == {"type": "reading", "values": {"p0": 5}}
        shot(page, "photo-03-confirmed")
    finally:
        page.context.close()
    assert not page_errors, page_errors


def test_a_big_photo_is_resized_on_the_phone(photo_table: Table, browser: Browser, page_errors: list[str],
                                             tmp_path: Path) -> None:
    """A 12 MP-sized photo leaves the phone at 2048 px on its long side, as JPEG, and is read the same."""
    session = photo_table.session
    session.new_game("dadoteck", DADOTECK, archive=True)
    image = cv2.imread(str(photo_path("D20_A_5.jpg")))
    big = cv2.resize(image, (3864, 4000), interpolation=cv2.INTER_CUBIC)  # 15.5 MP
    path = tmp_path / "big.png"  # lossless, 20+ MB: over the table's own 8 MB cap unless resized
    cv2.imwrite(str(path), big)
    assert path.stat().st_size > 8 * 1024 * 1024
    page = open_phone(browser, page_errors)
    try:
        page.goto(photo_table.url("/?lang=en"))
        expect(page.locator("#photo-take")).to_have_text("Take a photo")
        page.evaluate(f"() => localStorage.setItem('goblin.pin', '{PIN}')")
        page.set_input_files("#photo-camera", str(path))
        expect(page.locator("#proposal [data-slot=p0] b")).to_have_text("5", timeout=60_000)
        # the live stream can bring the proposal before the POST's own answer reaches the card
        expect(page.locator("#photo-status")).to_contain_text("Photo read")
        status = page.inner_text("#photo-status")
        assert "1978×2048" in status and "Photo read" in status, status
        kb = int(status.split(", ")[1].split(" kB")[0])
        record("photo-resized", {"from": [3864, 4000], "file_bytes": path.stat().st_size, "sent_kb": kb,
                                 "status": status})
        assert kb < 1024
    finally:
        page.context.close()
    assert not page_errors, page_errors


def test_a_refused_photo_is_said_in_the_page_language(photo_table: Table, browser: Browser,
                                                      page_errors: list[str], tmp_path: Path) -> None:
    session = photo_table.session
    session.new_game("dadoteck", DADOTECK, archive=True)
    fake = tmp_path / "dice.jpg"
    fake.write_bytes(b"\xff\xd8\xff\xe0 this is no photo" * 20)
    page = open_phone(browser, page_errors)
    try:
        page.goto(photo_table.url("/"))
        page.evaluate(f"() => localStorage.setItem('goblin.pin', '{PIN}')")
        page.set_input_files("#photo-file", str(fake))
        # chromium cannot decode it either, so it goes as it is, and the table's refusal is said in Italian
        expect(page.locator("#photo-status.error")).to_be_visible()  # said on the card, by its buttons
        text = page.inner_text("#photo-status")
        assert "non è una foto che il tavolo sa leggere" in text and "Richiesta non valida" in text, text
        assert session.snapshot()["proposal"] is None and session.snapshot()["step"] == 0
        # a file of a type the table does not take is not even sent: the page says so itself
        other = tmp_path / "dice.gif"
        other.write_bytes(b"GIF89a no picture")
        page.set_input_files("#photo-file", str(other))
        expect(page.locator("#photo-status")).to_contain_text("Questo telefono non sa aprire la foto")
        assert session.snapshot()["proposal"] is None and session.snapshot()["step"] == 0
        shot(page, "photo-04-refused")
    finally:
        page.context.close()
    assert not page_errors, page_errors


def test_an_over_exposed_photo_is_read_and_the_page_says_the_light_is_wrong(
        photo_table: Table, browser: Browser, page_errors: list[str], tmp_path: Path) -> None:
    """A phone's photo burnt by a lamp (matteop65's four "5"s, x1.6 + 20): read as it comes, and the table
    page says why the camera may miss or misread dice (``vision.exposure``), here beside what Dadoteck
    expects (a d20, not the d6s in the photo)."""
    from vision.data import photo_set

    session = photo_table.session
    session.new_game("dadoteck", DADOTECK, archive=True)
    (five,) = [p for p in photo_set("matteop65") if p.path.name == "five_32.jpg"]
    burnt = np.clip(five.load().astype(np.float32) * 1.6 + 20, 0, 255).astype(np.uint8)
    path = tmp_path / "burnt.png"
    cv2.imwrite(str(path), burnt)
    page = open_phone(browser, page_errors)
    try:
        page.goto(photo_table.url("/"))
        page.evaluate(f"() => localStorage.setItem('goblin.pin', '{PIN}')")
        expect(page.locator("#light-note")).to_be_hidden()
        page.set_input_files("#photo-file", str(path))
        expect(page.locator("#light-note")).to_contain_text("Troppa luce sul tavolo", timeout=30_000)
        expect(page.locator("#awaiting-text")).to_contain_text("atteso: d20; la fotocamera vede: d6")
        expect(page.locator("#photo-status")).to_contain_text("ma non dà una proposta")
        reading = session.snapshot()["reading"]
        assert reading["light"] == "burnt" and reading["dice"] >= 3, reading
        shot(page, "photo-04-burnt")
    finally:
        page.context.close()
    assert not page_errors, page_errors
