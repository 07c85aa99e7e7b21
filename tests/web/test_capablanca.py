"""Capablanca Chess in the browser, a data-only variant (no edit to the web pages or the server): a
game against the computer from the home page on a 1366 x 768 screen, the 10 x 8 board with the
Archbishop and the Chancellor each drawn as its own compound, a move by clicking and the computer's
answer, legal for Fairy-Stockfish's `capablanca` (pyffish)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import screenshot
from .helpers import FIRST_REPLY_MS, glyph, play_the_computer, state

sf = pytest.importorskip("pyffish")


def test_play_the_computer_by_clicking(desktop, server):
    page = desktop
    page.goto(server.url + "/")
    page.select_option("#computer-variant", "capablanca")
    game_id = play_the_computer(page, level=1, side=0)
    expect(page.locator("#status")).to_have_attribute("data-status", "active")
    expect(page.locator("#board [data-square]")).to_have_count(80)
    start = sf.start_fen("capablanca")
    assert state(page, game_id)["fen"] == start

    # the Archbishop (c1) and the Chancellor (h1) have their own drawings, unlike every other piece's
    drawn = {square: glyph(page, square) for square in ("a1", "b1", "c1", "d1", "e1", "f1", "h1")}
    assert drawn["c1"] == "bishop-knight" and drawn["h1"] == "rook-knight"
    assert len(set(drawn.values())) == len(drawn), drawn

    page.click('#board [data-square="h1"]')                   # the Chancellor jumps to i3
    expect(page.locator('#board [data-square="i3"].dest')).to_have_count(1)
    expect(page.locator('#board [data-square="h8"].dest')).to_have_count(0)
    page.click('#board [data-square="i3"]')
    expect(page.locator('#moves [data-ply="0"]')).to_have_attribute("data-move", "h1i3")
    expect(page.locator('#moves [data-ply="1"]')).to_have_count(1, timeout=FIRST_REPLY_MS)
    reply = page.get_attribute('#moves [data-ply="1"]', "data-move")
    assert reply in sf.legal_moves("capablanca", start, ["h1i3"])
    expect(page.locator(f'#board [data-square="{reply[2:4]}"]')).to_have_attribute("data-side", "1")
    expect(page.locator("#status")).to_have_text(re.compile("Your move"))
    assert state(page, game_id)["moves"] == ["h1i3", reply]
    assert glyph(page, "i3") == "rook-knight"
    screenshot(page, "capablanca-computer-1366x768")
