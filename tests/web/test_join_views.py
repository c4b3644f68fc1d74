"""The join page through the test client: its QR codes decode to the game's addresses, and a new address locks the old one out.

The codes are checked with a real QR decoder (zxing-cpp): the inline SVG is rasterised by a
tiny renderer of its unit squares, so a code that only looks like a QR code fails here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
import zxingcpp
from flask import Flask
from PIL import Image, ImageDraw
from sqlalchemy import select

from models import Game, db
from tests.helpers import EN, PhoneClient, csrf_token, read_token, start

SCALE = 10
QUIET_ZONE = 4
"""Modules of white the QR standard asks for round the code."""

LAN = "192.168.1.23"
PHONES = f"http://{LAN}"
"""Where the phones find the test server: the test client calls itself localhost, which no phone can open."""

SQUARE = re.compile(r"M(\d+),(\d+)H(\d+)V(\d+)H(\d+)z")


# --- Reading the QR codes off the page --------------------------------------------------------


@dataclass(frozen=True)
class QrSvg:
    """One inline QR code: the size of its viewBox and the dark unit squares it draws."""

    width: int
    height: int
    squares: tuple[tuple[int, int], ...]

    def extent(self) -> tuple[int, int, int, int]:
        """Return the smallest and largest column and row holding a dark square."""
        xs = [x for x, _ in self.squares]
        ys = [y for _, y in self.squares]
        return min(xs), min(ys), max(xs), max(ys)

    def image(self) -> Image.Image:
        """Return the code as a black-on-white greyscale image, every module SCALE pixels wide."""
        picture = Image.new("L", (self.width * SCALE, self.height * SCALE), 255)
        pen = ImageDraw.Draw(picture)
        for x, y in self.squares:
            pen.rectangle((x * SCALE, y * SCALE, (x + 1) * SCALE - 1, (y + 1) * SCALE - 1), fill=0)
        return picture

    def decode(self) -> str:
        """Return the text a QR reader finds in the code (exactly one code must be found)."""
        found = zxingcpp.read_barcodes(self.image(), formats=zxingcpp.BarcodeFormat.QRCode)
        assert len(found) == 1, f"expected one QR code, the reader found {len(found)}"
        return str(found[0].text)


def parse_svg(svg: str) -> QrSvg:
    """Return the code an inline ``<svg>`` draws: a viewBox and one path of unit squares ``Mx,yHx+1Vy+1Hxz``."""
    box = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    assert box, "the QR code has no viewBox from 0 0"
    paths = re.findall(r'<path\b[^>]*\bd="([^"]*)"', svg)
    assert len(paths) == 1, f"expected one path in the QR code, found {len(paths)}"
    d = paths[0]
    squares = []
    position = 0
    for match in SQUARE.finditer(d):
        assert match.start() == position, f"unexpected path data at {position}: {d[position : position + 30]!r}"
        x, y, right, bottom, back = (int(v) for v in match.groups())
        assert (right, bottom, back) == (x + 1, y + 1, x), f"not a unit square: {match.group(0)}"
        squares.append((x, y))
        position = match.end()
    assert position == len(d), f"unexpected path data at {position}: {d[position : position + 30]!r}"
    assert squares, "the QR code draws nothing"
    return QrSvg(width=int(box.group(1)), height=int(box.group(2)), squares=tuple(squares))


def qr_codes(page: str) -> list[QrSvg]:
    """Return every inline QR code of a page, in page order."""
    figures = re.findall(r'<figure class="qr[^"]*"[^>]*>(.*?)</figure>', page, re.S)
    return [parse_svg(figure) for figure in figures]


def written_addresses(page: str) -> list[str]:
    """Return the addresses the page writes out for typing (each a link to itself)."""
    links = re.findall(r'<p class="address"><a href="([^"]+)">([^<]+)</a></p>', page)
    assert all(href == text for href, text in links), links
    return [text for _, text in links]


# --- Games ----------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def network_address(monkeypatch: pytest.MonkeyPatch) -> None:
    """Give the machine a fixed address on the local network."""
    monkeypatch.setattr("views.pages.qr.lan_address", lambda: LAN)


def table_token(app: Flask, token: str) -> str:
    """Return the address of the table the game an edit token opens is played at."""
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None
        return game.card_table.token


# --- The join page --------------------------------------------------------------------------


def test_the_big_code_carries_the_table_address_and_the_small_one_the_read_only_address(plain_app: Flask, phone: PhoneClient) -> None:
    """Both codes decode, with a real QR reader, to absolute addresses, which are also written out, with the TV's."""
    token = start(phone, "auruxxx")
    watch = read_token(plain_app, token)
    table = table_token(plain_app, token)
    response = phone.get(f"/g/{token}/join", headers=EN)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    table_code, watch_code = qr_codes(page)
    assert table_code.decode() == f"{PHONES}/t/{table}"
    assert watch_code.decode() == f"{PHONES}/g/{watch}"
    assert written_addresses(page) == [f"{PHONES}/t/{table}", f"{PHONES}/g/{watch}", f"{PHONES}/t/{table}/tv"]


def test_a_page_opened_as_localhost_gives_the_phones_the_network_address(phone: PhoneClient) -> None:
    """The creator's laptop calls itself localhost; the codes carry the address ``make run`` prints, and the page says why."""
    token = start(phone, "auruxxx")
    table = table_token(phone.application, token)
    for base in ("http://localhost:8000", "http://127.0.0.1:8000", "http://[::1]:8000"):
        page = phone.get(f"/g/{token}/join", headers=EN, base_url=base).get_data(as_text=True)
        assert qr_codes(page)[0].decode() == f"http://{LAN}:8000/t/{table}"
        assert "Phones cannot open “localhost”" in page and LAN in page
    page = phone.get(f"/g/{token}/join", headers=EN, base_url="http://192.168.1.50:8000").get_data(as_text=True)
    assert qr_codes(page)[0].decode() == f"http://192.168.1.50:8000/t/{table}"
    assert "localhost" not in page


def test_each_code_keeps_a_quiet_zone_of_four_modules(phone: PhoneClient) -> None:
    """Between the dark modules and the edge of the viewBox there are at least four white modules on every side."""
    token = start(phone, "auruxxx")
    page = phone.get(f"/g/{token}/join", headers=EN).get_data(as_text=True)
    for code in qr_codes(page):
        left, top, right, bottom = code.extent()
        assert code.width == code.height, "a QR code is square"
        assert left >= QUIET_ZONE and top >= QUIET_ZONE
        assert code.width - 1 - right >= QUIET_ZONE and code.height - 1 - bottom >= QUIET_ZONE
        size = right - left + 1
        assert (size - 21) % 4 == 0 and size == bottom - top + 1, f"{size} modules is no QR version"


def test_a_long_address_still_decodes(plain_app: Flask, phone: PhoneClient) -> None:
    """Behind a longer host name (a bigger QR version) the code still reads back exactly."""
    token = start(phone, "auruxxx")
    page = phone.get(f"/g/{token}/join", headers=EN, base_url="https://tischblock.example-kneipe.de:8443").get_data(as_text=True)
    table_code = qr_codes(page)[0]
    assert table_code.decode() == f"https://tischblock.example-kneipe.de:8443/t/{table_token(phone.application, token)}"


def test_a_twelve_days_game_has_a_join_page_too(phone: PhoneClient) -> None:
    """The join page does not depend on the game: a 12 Days table joins the same way."""
    response = phone.post("/new/12days", data={"player": ["Anna", "Ben", "Cleo"], "variant": "standard", "action": "start"})
    assert response.status_code == 303
    token = str(response.headers["Location"]).removeprefix("/g/")
    page = phone.get(f"/g/{token}/join", headers=EN).get_data(as_text=True)
    assert qr_codes(page)[0].decode() == f"{PHONES}/t/{table_token(phone.application, token)}"


def test_the_sheet_links_to_the_join_page_only_at_the_edit_address(plain_app: Flask, phone: PhoneClient) -> None:
    """The edit sheet offers the QR code; the read-only sheet does not (it would hand out its own token)."""
    token = start(phone, "auruxxx")
    watch = read_token(plain_app, token)
    assert f'href="/g/{token}/join"' in phone.get(f"/g/{token}", headers=EN).get_data(as_text=True)
    read_only = phone.get(f"/g/{watch}", headers=EN).get_data(as_text=True)
    assert "/join" not in read_only


def test_only_the_edit_address_opens_the_join_page(plain_app: Flask, phone: PhoneClient) -> None:
    """The read-only address and an unknown token find no join page; nor can they make a new address."""
    token = start(phone, "auruxxx")
    watch = read_token(plain_app, token)
    assert phone.get(f"/g/{watch}/join").status_code == 404
    assert phone.get("/g/not-a-game/join").status_code == 404
    assert phone.get(f"/g/{token}x/join").status_code == 404
    assert phone.post(f"/g/{watch}/new-address").status_code == 404
    assert phone.post("/g/not-a-game/new-address").status_code == 404
    assert phone.get(f"/g/{token}/join").status_code == 200


# --- A new address ---------------------------------------------------------------------------


def test_a_new_address_locks_the_old_one_out_at_once(strict_app: Flask, strict_phone: PhoneClient) -> None:
    """With the form's CSRF token: the old edit and table addresses are gone everywhere, the new code carries the new table address, the read-only address stays."""
    token = start(strict_phone, "auruxxx", csrf_token=csrf_token(strict_phone.get("/new/auruxxx")))
    watch = read_token(strict_app, token)
    table = table_token(strict_app, token)
    join = strict_phone.get(f"/g/{token}/join", headers=EN)

    refused = strict_phone.post(f"/g/{token}/new-address")
    assert refused.status_code == 400, "a new address without the CSRF token must be refused"
    assert strict_phone.get(f"/g/{token}/join").status_code == 200

    response = strict_phone.post(f"/g/{token}/new-address", data={"csrf_token": csrf_token(join)})
    assert response.status_code == 303
    location = str(response.headers["Location"])
    found = re.fullmatch(r"/g/([^/]+)/join", location)
    assert found, location
    new = found.group(1)
    assert new not in (token, watch)

    for path in ("", "/join", "/history", "/record.json", "/live"):
        assert strict_phone.get(f"/g/{token}{path}").status_code == 404, f"old token still opens {path or 'the sheet'}"
    tap = {"player": "Anna", "round": "0", "csrf_token": csrf_token(join)}
    assert strict_phone.post(f"/g/{token}/pass", data=tap).status_code == 404
    assert strict_phone.post(f"/g/{token}/new-address", data={"csrf_token": csrf_token(join)}).status_code == 404
    assert strict_phone.get(f"/t/{table}").status_code == 404 and strict_phone.get(f"/t/{table}/tv").status_code == 404

    page = strict_phone.get(location, headers=EN)
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    new_table = table_token(strict_app, new)
    assert new_table != table
    table_code, watch_code = qr_codes(text)
    assert table_code.decode() == f"{PHONES}/t/{new_table}"
    assert watch_code.decode() == f"{PHONES}/g/{watch}"
    assert written_addresses(text)[:2] == [f"{PHONES}/t/{new_table}", f"{PHONES}/g/{watch}"]
    assert strict_phone.get(f"/t/{new_table}").headers["Location"] == f"/g/{new}"
    assert strict_phone.get(f"/g/{new}").status_code == 200
    assert strict_phone.get(f"/g/{watch}").status_code == 200
    assert read_token(strict_app, new) == watch


def test_a_new_address_from_htmx_navigates_to_the_new_join_page(plain_app: Flask, phone: PhoneClient) -> None:
    """An htmx post is told to navigate (HX-Redirect) rather than swap the page into the form."""
    token = start(phone, "auruxxx")
    response = phone.post(f"/g/{token}/new-address", headers={"HX-Request": "true"})
    assert response.status_code == 204
    target = str(response.headers["HX-Redirect"])
    assert re.fullmatch(r"/g/[^/]+/join", target) and target != f"/g/{token}/join"
    assert phone.get(target).status_code == 200
    assert phone.get(f"/g/{token}").status_code == 404
