"""The join page's address (and its QR code) is one the server answers on: with ``serve --host
127.0.0.1`` the table is reachable on that address only, so the LAN IP would lead nowhere."""

from __future__ import annotations

import pytest

from companion.session import TableSession
from web import create_app
from web.api import lan_ip


@pytest.mark.parametrize(("listen", "host", "url"), [
    ("127.0.0.1", "127.0.0.1:8080", "http://127.0.0.1:8080/"),
    ("127.0.0.1", "localhost:8080", "http://127.0.0.1:8080/"),
    ("::1", "[::1]:8080", "http://[::1]:8080/"),
    ("192.168.1.40", "192.168.1.40:8080", "http://192.168.1.40:8080/"),
])
def test_a_table_listening_on_one_address_shows_that_one(
        session: TableSession, listen: str, host: str, url: str) -> None:
    client = create_app({"TESTING": True, "LISTEN_HOST": listen}, session=session).test_client()
    assert client.get("/api/address", headers={"Host": host}).json["url"] == url
    assert url in client.get("/join", headers={"Host": host}).get_data(as_text=True)


def test_a_table_listening_everywhere_shows_its_lan_address_for_loopback(session: TableSession) -> None:
    for listen in ("0.0.0.0", "::", None):
        client = create_app({"TESTING": True, "LISTEN_HOST": listen}, session=session).test_client()
        answer = client.get("/api/address", headers={"Host": "127.0.0.1:8080"}).json["url"]
        assert answer == f"http://{lan_ip()}:8080/"
