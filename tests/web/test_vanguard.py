"""Vanguard Chess in the browser (issue 7, ../shared/rules/vanguard.md): two people play a Berserker
double capture (V6: piece, intermediate square, destination, then a confirming click once both
captures are highlighted) and Wizard swaps (R7) by clicking; pieces are drawn by name (the
Berserker's FEN letter is E, R21)."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.rules.diagram.helpers import BERSERKER_AND_WIZARDS, fen_of

from .conftest import screenshot
from .helpers import play, start_match, state


def test_berserker_double_capture_and_wizard_swaps_by_clicking(two_players, server):
    a, b = two_players
    a.goto(server.url + "/")
    expect(a.locator('#computer-variant option[value="vanguard"]')).to_have_count(1)
    game_id = start_match(two_players, server, variant="vanguard", fen=fen_of(BERSERKER_AND_WIZARDS))
    for p in (a, b):
        expect(p.locator("#board [data-square]")).to_have_count(256)  # vanguard 1.1: 16 x 16
        expect(p.locator('#board [data-square="b2"][data-piece="E"] .piece-art')).to_have_attribute("data-glyph", "berserker")

    a.click('#board [data-square="b2"]')  # the Berserker: c3 is an intermediate square to click
    expect(a.locator('#board [data-square="c3"].via-option')).to_have_count(1)
    a.click('#board [data-square="c3"]')
    expect(a.locator('#board [data-square="c3"].via')).to_have_count(1)
    expect(a.locator('#board [data-square="d4"].dest')).to_have_count(1)
    a.click('#board [data-square="d4"]')  # V6: both captures are shown before the move is sent
    for cell in ("c3", "d4"):
        expect(a.locator(f'#board [data-square="{cell}"].would-capture')).to_have_count(1)
    expect(a.locator("#board .would-capture")).to_have_count(2)
    assert state(a, game_id)["moves"] == []  # not sent yet
    a.click('#board [data-square="d4"]')  # confirmed
    for p in (a, b):
        expect(p.locator('#moves [data-ply="0"]')).to_have_count(1)
        expect(p.locator('#board [data-square="c3"].piece')).to_have_count(0)  # both removed at once
        expect(p.locator('#board [data-square="b2"].piece')).to_have_count(0)
        expect(p.locator('#board [data-square="d4"][data-piece="E"]')).to_have_count(1)
    assert state(a, game_id)["moves"] == ["b2d4xc3"]
    screenshot(a, "vanguard-after-double-capture")

    play(b, a, "h15", "i16", 1)  # R7: the Wizard swaps with its Queen
    play(a, b, "f1", "e2", 2)    # and White's with its Pawn
    for p in (a, b):
        expect(p.locator('#board [data-square="h15"][data-piece="q"]')).to_have_count(1)
        expect(p.locator('#board [data-square="i16"][data-piece="w"]')).to_have_count(1)
        expect(p.locator('#board [data-square="e2"][data-piece="W"]')).to_have_count(1)
        expect(p.locator('#board [data-square="f1"][data-piece="P"]')).to_have_count(1)
    assert state(a, game_id)["moves"] == ["b2d4xc3", "h15i16", "f1e2"]
    screenshot(b, "vanguard-after-swaps")
