"""Two people, two browser contexts, from the invitation to a finished game, by clicking."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.rules.helpers import make_fen

from .conftest import screenshot
from .helpers import play, start_match, state


def test_checkmate_from_a_position_a_few_moves_before_mate(two_players, server):
    a, b = two_players
    fen = make_fen("super16", {"a16": "k", "a15": "p", "b15": "p", "p13": "p",
                               "e1": "R", "i1": "K", "h2": "P"})
    game_id = start_match(two_players, server, fen=fen)
    play(a, b, "h2", "h3", 0)
    # legal destinations light up for the player to move only
    play(b, a, "p13", "p12", 1)
    play(a, b, "e1", "e16", 2)
    for p in (a, b):
        expect(p.locator("#status")).to_contain_text("Checkmate")
    assert state(a, game_id)["result"] == "1-0"
    screenshot(a, "checkmate-player1")
    screenshot(b, "checkmate-player2")


def test_resignation_after_moves_on_the_default_board(two_players, server):
    a, b = two_players
    game_id = start_match(two_players, server)
    play(a, b, "h2", "h4", 0)
    play(b, a, "h15", "h13", 1)
    b.on("dialog", lambda d: d.accept())
    b.click("#resign")
    for p in (a, b):
        expect(p.locator("#status")).to_contain_text("resigned")
    assert state(a, game_id)["result"] == "1-0"
    screenshot(a, "resignation-super16")


def test_promotion_through_the_picker(two_players, server):
    a, b = two_players
    fen = make_fen("super16", {"c15": "P", "i1": "K", "i16": "k", "p10": "p"})
    game_id = start_match(two_players, server, fen=fen)
    a.click('#board [data-square="c15"]')
    a.click('#board [data-square="c16"]')
    expect(a.locator("#promotion")).to_be_visible()
    a.click('#promotion [data-promotion="u"]')
    expect(b.locator('#moves [data-ply="0"]')).to_have_attribute("data-move", "c15c16u")
    assert state(b, game_id)["pieces"]["c16"] == "U"
    screenshot(a, "promotion")


def test_draw_offer_accepted(two_players, server):
    a, b = two_players
    game_id = start_match(two_players, server)
    play(a, b, "h2", "h4", 0)
    a.click("#offer-draw")
    expect(b.locator("#accept-draw")).to_be_visible()
    b.click("#accept-draw")
    for p in (a, b):
        expect(p.locator("#status")).to_contain_text("agreement")
    assert state(a, game_id)["result"] == "1/2-1/2"


def test_bullet_game_lost_on_time(two_players, server):
    a, b = two_players
    game_id = start_match(two_players, server, variant="chess", time_control="bullet-1+0")
    play(a, b, "e2", "e4", 0)   # each side's first move is not timed (R18)
    play(b, a, "e7", "e5", 1)
    server.time.advance(61)     # Player 1 thinks for more than the whole minute
    server.check_clocks()
    for p in (a, b):
        expect(p.locator("#status")).to_contain_text("lost on time")
    assert state(a, game_id)["result"] == "0-1"
    screenshot(b, "lost-on-time")


def _fill(page, square):
    return page.eval_on_selector(f'#board [data-square="{square}"] .piece-art',
                                 "g => [...g.querySelectorAll('[fill]')].map(e => e.getAttribute('fill'))[0]")


def test_colours_are_the_games_seen_by_everyone_remembered_and_watchers_cannot_act(two_players, server, browser):
    a, b = two_players
    game_id = start_match(two_players, server)
    assert _fill(a, "i1").lower() == "#d03030" and _fill(b, "i16").lower() == "#3060d0"  # defaults
    a.fill("#colour", "#11aa44")
    a.dispatch_event("#colour", "change")
    green = '#board [data-square="i1"] .piece-art [fill="#11aa44"]'
    expect(a.locator(green).first).to_be_attached()
    expect(b.locator(green).first).to_be_attached()  # the opponent sees it at once
    a.reload()
    expect(a.locator(green).first).to_be_attached()
    watcher = browser.new_context().new_page()
    watcher.goto(f"{server.url}/game/{game_id}")
    expect(watcher.locator(green).first).to_be_attached()  # and so do watchers
    for button in ("#resign", "#offer-draw", "#abort"):
        expect(watcher.locator(button)).to_be_hidden()
    watcher.click('#board [data-square="h2"]')
    watcher.click('#board [data-square="h4"]')
    play(a, b, "h2", "h4", 0)  # the watcher's clicks sent nothing: the first move is still Player 1's
    screenshot(watcher, "watcher")
    watcher.context.close()
