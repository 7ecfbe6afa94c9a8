"""The table's own finder from the settings page: the state, the table's set as a zip, a fitted finder
uploaded (checked; refused with what was wrong, the finder in use staying), the PIN, and forgetting it."""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path

import cv2
import numpy as np
import pytest
from flask.testing import FlaskClient

import web.finder
from companion.dataset import TableDataset
from companion.session import TableSession
from companion.tablefinder import MAX_BYTES, TableFinder, TableModels
from tests.web.test_api import error_of
from web import create_app

ROOT = Path(__file__).resolve().parents[2]
OTHER = ROOT / "benchmarks" / "models" / "finder-no-aws.onnx"   # a real finder, not the shipped one
PIN = "2468"
ONNX = {"Content-Type": "application/octet-stream", "X-Table-PIN": PIN}


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


@pytest.fixture
def app_client(session: TableSession, state: Path) -> FlaskClient:
    data = TableDataset(state / "dataset")
    jpeg = cv2.imencode(".jpg", np.full((48, 64, 3), 90, np.uint8))[1].tobytes()
    for v in (2, 5):
        data.add(jpeg, {"dice": [{"bbox": [4, 4, 10, 10], "sides": 6, "value": v}]}, width=64, height=48)
    app = create_app({"TESTING": True, "TABLE_PIN": PIN}, session=session, finder=TableFinder(state, data))
    return app.test_client()


def test_a_fitted_finder_is_uploaded_read_with_and_forgotten(app_client: FlaskClient, state: Path) -> None:
    assert app_client.get("/api/finder").json == {"finder": "shipped", "photos": 2, "fit": None,
                                                  "fit_minutes": 20.0, "last_fit": None, "fit_error": None}
    got = app_client.post("/api/finder", data=OTHER.read_bytes(), headers=ONNX)
    assert got.status_code == 200, got.json
    assert got.json["finder"] == "table" and got.json["photos"] == 2
    assert got.json["installed"]["demo_found"] >= 0.75 * got.json["installed"]["demo_dice"]
    assert TableModels(state)()[0] == got.json["path"]
    assert Path(got.json["path"]).read_bytes() == OTHER.read_bytes()
    assert not list(state.glob("finder-*")), "the upload's temporary folder is gone"
    forgot = app_client.post("/api/finder/forget", json={}, headers={"X-Table-PIN": PIN})
    assert forgot.json == {"finder": "shipped", "photos": 2, "fit": None, "fit_minutes": 20.0,
                           "last_fit": None, "fit_error": None}
    assert TableModels(state)()[0] == "finder"


def test_the_tables_set_downloads_as_a_zip(app_client: FlaskClient, state: Path) -> None:
    files = sorted(state.rglob("*"))
    got = app_client.get("/api/dataset.zip")
    assert got.status_code == 200 and got.mimetype == "application/zip"
    assert "goblin-table-set.zip" in got.headers["Content-Disposition"]
    archive = zipfile.ZipFile(io.BytesIO(got.data))
    labels = json.loads(archive.read("labels.json"))
    assert [e["dice"][0]["value"] for e in labels["images"]] == [2, 5]
    for entry in labels["images"]:
        assert archive.read(entry["file"]) == (state / "dataset" / entry["file"]).read_bytes()
    got.close()
    assert sorted(state.rglob("*")) == files, "no temporary zip is left behind"


@pytest.mark.parametrize(("body", "headers", "status", "code", "says"), [
    (b"\x08\x07not a network", ONNX, 400, "invalid-input", "not a network cv2.dnn can run"),
    ((ROOT / "vision" / "models" / "faces.onnx").read_bytes(), ONNX, 400, "invalid-input",
     "is no die finder"),
    (b"\0" * (MAX_BYTES + 1), ONNX, 413, "payload-too-large", f"at most {MAX_BYTES}"),
    (OTHER.read_bytes(), {**ONNX, "Content-Type": "application/json"}, 415, "unsupported-media-type",
     "application/octet-stream"),
    (OTHER.read_bytes(), {"Content-Type": "application/octet-stream"}, 403, "pin-required", "PIN"),
])
def test_what_is_no_finder_is_refused_and_the_finder_in_use_stays(
        app_client: FlaskClient, state: Path, body: bytes, headers: dict[str, str], status: int, code: str,
        says: str) -> None:
    shutil.copyfile(OTHER, state / "good.onnx")
    assert app_client.post("/api/finder", data=OTHER.read_bytes(), headers=ONNX).status_code == 200
    before = app_client.get("/api/finder").json
    assert says in error_of(app_client.post("/api/finder", data=body, headers=headers), status, code)
    assert app_client.get("/api/finder").json == before


def test_one_zip_at_a_time(app_client: FlaskClient) -> None:
    import web.finder

    assert web.finder._ZIPPING.acquire()   # another download is being zipped
    try:
        assert "another download" in error_of(app_client.get("/api/dataset.zip"), 429, "too-many-requests")
    finally:
        web.finder._ZIPPING.release()
    assert app_client.get("/api/dataset.zip").status_code == 200


def test_the_finders_are_compared_once_at_a_time_with_the_pin(app_client: FlaskClient) -> None:
    """Nothing to compare with the shipped finder; without the PIN, refused; while a comparison runs,
    another is 409; with the table's finder and too few of its photos, "early", kept for the page."""
    import web.finder

    pin = {"X-Table-PIN": PIN}
    assert "nothing to compare" in error_of(app_client.post("/api/finder/compare", json={}, headers=pin),
                                            400, "invalid-input")
    assert app_client.post("/api/finder", data=OTHER.read_bytes(), headers=ONNX).status_code == 200
    assert app_client.post("/api/finder/compare", json={}).status_code == 403
    table = app_client.application.extensions[web.finder.EXTENSION]
    assert table._running.acquire()   # a comparison the table started by itself is under way
    try:
        assert "being compared" in error_of(app_client.post("/api/finder/compare", json={}, headers=pin),
                                            409, "compare-running")
    finally:
        table._running.release()
    got = app_client.post("/api/finder/compare", json={}, headers=pin)
    assert got.status_code == 200 and got.json["compared"]["verdict"] == "early"
    assert got.json["compared"]["photos"] == 0   # the set's two photos were read by the shipped finder
    assert app_client.get("/api/finder").json["compared"] == got.json["compared"]


def test_the_finder_is_fitted_here_from_the_page_one_fit_at_a_time_and_stopped(
        session: TableSession, state: Path) -> None:
    """Ten small photos, a die drawn on each: the fit starts (the PIN asked, its minutes checked), runs in
    the background, refuses a second one and a comparison, and stops when asked, nothing installed."""
    data = TableDataset(state / "dataset")
    for i in range(10):
        image = np.full((96, 128, 3), 200, np.uint8)
        cv2.rectangle(image, (20 + 5 * i, 30), (44 + 5 * i, 54), (30, 30, 160), -1)
        data.add(cv2.imencode(".jpg", image)[1].tobytes(),
                 {"dice": [{"bbox": [20 + 5 * i, 30, 24, 24], "sides": 6, "value": 1 + i % 6}]},
                 width=128, height=96)
    client = create_app({"TESTING": True, "TABLE_PIN": PIN}, session=session,
                        finder=TableFinder(state, data)).test_client()
    pin = {"X-Table-PIN": PIN}
    assert client.post("/api/finder/fit", json={}).status_code == 403
    assert "'minutes' must be a number" in error_of(
        client.post("/api/finder/fit", json={"minutes": "5"}, headers=pin), 400, "invalid-input")
    assert "at most 180 minutes, not 0" in error_of(
        client.post("/api/finder/fit", json={"minutes": 0}, headers=pin), 400, "invalid-input")
    started = client.post("/api/finder/fit", json={"minutes": 30}, headers=pin)
    assert started.status_code == 200 and started.json["fit"]["minutes"] == 30
    assert "being fitted" in error_of(client.post("/api/finder/fit", json={}, headers=pin), 409,
                                      "fit-running")
    assert "being fitted" in error_of(client.post("/api/finder/compare", json={}, headers=pin), 409,
                                      "fit-running")
    assert client.post("/api/finder/fit/stop", json={}).status_code == 403
    assert client.post("/api/finder/fit/stop", json={}, headers=pin).status_code == 200
    client.application.extensions[web.finder.EXTENSION].wait(60)
    after = client.get("/api/finder").json
    assert after["fit"] is None and after["finder"] == "shipped"
    assert after["fit_error"]["code"] == "fit-stopped"
    assert after["last_fit"] is None
    assert "no fit left out" in error_of(client.post("/api/finder/fit/install", json={}, headers=pin), 400,
                                         "invalid-input")
    assert client.post("/api/finder/fit/install", json={}).status_code == 403


def test_an_app_without_the_tables_set_has_no_finder(session: TableSession) -> None:
    client = create_app({"TESTING": True}, session=session).test_client()
    assert client.get("/api/finder").status_code == 404
    assert client.get("/api/dataset.zip").status_code == 404
    assert client.post("/api/finder/compare", json={}).status_code == 404
    assert client.post("/api/finder/fit", json={}).status_code == 404


def test_a_photo_dropped_meanwhile_is_left_out_of_the_zip_with_its_labels(tmp_path: Path) -> None:
    data = TableDataset(tmp_path / "dataset")
    jpeg = cv2.imencode(".jpg", np.full((48, 64, 3), 90, np.uint8))[1].tobytes()
    names = [data.add(jpeg, {"dice": [{"bbox": [4, 4, 10, 10], "sides": 6, "value": v}]}, width=64, height=48)
             for v in (1, 2, 3)]
    (tmp_path / "dataset" / str(names[1])).unlink()   # the oldest-first cap, or a hand, took it
    out = io.BytesIO()
    assert data.write_zip(out) == 2
    archive = zipfile.ZipFile(out)
    labels = json.loads(archive.read("labels.json"))
    assert [e["file"] for e in labels["images"]] == [names[0], names[2]]
    assert sorted(archive.namelist()) == sorted(["labels.json", str(names[0]), str(names[2])])


def test_the_table_page_warns_when_the_last_comparison_found_the_tables_finder_worse(
        app_client: FlaskClient, state: Path) -> None:
    from companion.tablefinder import judge

    assert 'id="finder-banner"' not in app_client.get("/").get_data(as_text=True)
    got = app_client.post("/api/finder", data=OTHER.read_bytes(), headers=ONNX).json
    compared = Path(got["path"]).with_name(Path(got["path"]).stem + ".compared.json")
    for rows, shown in (([(8, 0, 0, 0, 0)] * 10, False), ([(8, 1, 0, 0, 0)] * 10, True)):
        compared.write_text(json.dumps(judge(rows)))
        page = app_client.get("/").get_data(as_text=True)
        assert ('id="finder-banner"' in page) is shown
        assert ("perde o inventa più dadi di quello di serie" in page) is shown
    compared.write_text("{not json")
    assert 'id="finder-banner"' not in app_client.get("/").get_data(as_text=True)


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def _with_metadata(onnx: bytes, key: str, value: bytes) -> bytes:
    """``onnx`` with one more ``metadata_props`` entry (ModelProto field 14), as
    ``onnx.helper.set_model_props`` writes it: protobuf fields appended to a message merge into it."""
    entry = b"\x0a" + _varint(len(key.encode())) + key.encode() + b"\x12" + _varint(len(value)) + value
    return onnx + b"\x72" + _varint(len(entry)) + entry


def test_a_finder_uploaded_alone_shows_the_card_the_fit_kept_inside_it(app_client: FlaskClient) -> None:
    """tools/fit_table_finder.py keeps its card in the model's metadata; the page uploads the file alone and
    the state carries the card (what the settings line says the fit measured)."""
    from companion.tablefinder import CARD_KEY, embedded_card

    card = {"photos": 145, "before": {"found_pct": 89.66, "phantom_per_photo": 0.524},
            "after": {"found_pct": 93.19, "phantom_per_photo": 0.097}, "note": "però"}
    data = _with_metadata(_with_metadata(OTHER.read_bytes(), "producer.note", b"x"), CARD_KEY,
                          json.dumps(card).encode())
    assert embedded_card(data) == card and embedded_card(OTHER.read_bytes()) is None
    got = app_client.post("/api/finder", data=data, headers=ONNX)
    assert got.status_code == 200, got.json
    assert got.json["card"] == card and app_client.get("/api/finder").json["card"] == card


@pytest.mark.parametrize("data", [
    b"",
    b"\x72",                                                   # a field with no length
    b"\x72\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",       # a varint past 64 bits
    b"\x72" + _varint(1 << 40) + b"\x0a",                      # a length past the end
    b"\x73\x00",                                               # wire type 3 (a group): not ONNX
    _with_metadata(b"", "goblin.card", b"[1, 2]"),              # JSON, but no card
    _with_metadata(b"", "goblin.card", b"\xff\xfe"),            # not UTF-8
    _with_metadata(b"", "goblin.card", b"{" * 100_000),         # over the card's cap
])
def test_a_malformed_embedded_card_is_none(data: bytes) -> None:
    from companion.tablefinder import embedded_card

    assert embedded_card(data) is None
