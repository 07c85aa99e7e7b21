"""Issue 23 item 6: a player's colour is the game's (both players and watchers see it), a colour too
close to the opponent's is refused, a saved preference is proposed for a new game, and any viewer may
show the default pair instead."""
from __future__ import annotations

from playwright.sync_api import expect

from .helpers import api_match, play, shots


def fill_of(page, square):
    return page.eval_on_selector(f'#board [data-square="{square}"] .piece-art',
                                 "g => [...g.querySelectorAll('[fill]')].map(e => e.getAttribute('fill'))[0]").lower()


def pick(page, colour):
    page.fill("#colour", colour)
    page.dispatch_event("#colour", "change")


def test_a_colour_clash_is_refused_and_a_change_during_the_game_reaches_both(two_players, server):
    a, b = two_players
    api_match(two_players, server)
    pick(a, "#3060d0")  # Player 2's blue: both armies would be blue
    expect(a.locator("#message")).to_contain_text("too close to your opponent's colour #3060d0")
    expect(a.locator("#message")).to_have_attribute("data-kind", "error")
    expect(a.locator('#board [data-square="e1"] .piece-art [fill="#d03030"]').first).to_be_attached()
    assert fill_of(b, "e1") == "#d03030"
    play(a, b, "e2", "e4", 0)
    pick(b, "#20a040")  # either player, during the game
    for p in (a, b):
        expect(p.locator('#board [data-square="e8"] .piece-art [fill="#20a040"]').first).to_be_attached()
    pick(a, "#28a848")  # now too close to Player 2's green
    expect(a.locator("#message")).to_contain_text("too close to your opponent's colour #20a040")
    assert fill_of(a, "e1") == "#d03030"
    expect(a.locator("#colour")).to_have_value("#d03030")  # the picker shows the game's colour again
    shots(a, "colour-clash-refused")
    # a viewer's own choice: the default pair
    a.set_viewport_size({"width": 1280, "height": 1000})
    a.check("#default-colours")
    expect(a.locator('#board [data-square="e8"] .piece-art [fill="#3060d0"]').first).to_be_attached()
    a.reload()
    expect(a.locator("#default-colours")).to_be_checked()
    expect(a.locator('#board [data-square="e8"] .piece-art [fill="#3060d0"]').first).to_be_attached()
    assert fill_of(b, "e8") == "#20a040"  # the other viewers keep the game's colours


def test_a_saved_colour_is_proposed_for_the_next_game(two_players, server):
    a, b = two_players
    assert a.request.put(f"{server.url}/api/me/colour", data={"colour": "#8040c0"}).ok
    api_match(two_players, server)
    for p in (a, b):
        expect(p.locator('#board [data-square="e1"] .piece-art [fill="#8040c0"]').first).to_be_attached()
    expect(b.locator("#player-0 .swatch")).to_have_css("background-color", "rgb(128, 64, 192)")
