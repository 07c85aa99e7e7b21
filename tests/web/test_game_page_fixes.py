"""Issue 23 item 9: the game page's and home page's bugs, each as the user met it."""
from __future__ import annotations

from playwright.sync_api import expect

from .conftest import screenshot
from .helpers import api_match, play, shots

BIG_KNIGHT = {"N": {"mode": "jump", "vectors": [[dx, dy] for dx in range(-2, 3) for dy in range(-2, 3) if dx or dy]}}


def test_an_intergrid_game_page_requests_nothing_missing(two_players, server):
    a, _ = two_players
    missing: list[str] = []
    a.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    api_match(two_players, server, variant="intergrid")
    expect(a.locator("#board")).to_have_attribute("data-piece-set", "intergrid")
    a.wait_for_load_state("networkidle")
    assert missing == []


def test_check_says_who_is_in_check_to_each_viewer(two_players, server, browser):
    a, b = two_players
    game_id = api_match(two_players, server)
    play(a, b, "e2", "e4", 0)
    play(b, a, "f7", "f6", 1)
    play(a, b, "d1", "h5", 2)
    expect(b.locator("#status")).to_contain_text("You are in check!")
    expect(a.locator("#status")).to_contain_text("is in check.")
    expect(a.locator("#status")).not_to_contain_text("You are in check")
    expect(a.locator("#status")).to_have_attribute("data-check", "1")
    watcher = browser.new_page()
    watcher.goto(f"{server.url}/game/{game_id}")
    expect(watcher.locator("#status")).to_contain_text("(Player 2) is in check.")
    watcher.close()
    shots(b, "check-says-who")


def test_a_declined_draw_offer_is_not_announced_after_the_end(two_players, server):
    a, b = two_players
    api_match(two_players, server)
    play(a, b, "e2", "e4", 0)
    a.click("#offer-draw")
    b.click("#decline-draw")
    expect(a.locator("#message")).to_have_text("Your draw offer was declined.")
    a.on("dialog", lambda d: d.accept())
    a.click("#resign")
    expect(a.locator("#status")).to_contain_text("resigned")
    expect(a.locator("#message")).to_have_text("")


def test_the_pieces_badge_only_where_pieces_can_be_programmed(two_players, server):
    a, _ = two_players
    api_match(two_players, server, variant="chess")
    expect(a.locator("#board")).to_have_attribute("data-piece-set", "chess")
    expect(a.locator("#mode")).to_be_hidden()
    api_match(two_players, server, variant="super16")
    expect(a.locator("#mode")).to_have_text("Default pieces")


def test_the_roster_panel_shows_a_long_program_whole(two_players, server):
    a, _ = two_players
    api_match(two_players, server, variant="super16", mode="symmetric", roster=BIG_KNIGHT)
    panel = a.locator("#rosters")
    expect(panel.locator("#roster-0")).to_contain_text("(2, 2)")
    a.set_viewport_size({"width": 1366, "height": 768})
    box = panel.bounding_box()
    inner = a.evaluate("() => [document.querySelector('#rosters').clientHeight, "
                       "document.querySelector('#rosters').scrollHeight]")
    assert box["height"] >= min(inner[1], 150), (box, inner)  # not squeezed to a sliver
    last = panel.locator("#roster-1 li").last
    last.scroll_into_view_if_needed()
    expect(last).to_be_in_viewport()
    shots(a, "roster-panel")


def test_the_home_page_first_screen_offers_a_new_game_and_the_computer(browser, server):
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(server.url + "/")
    for sel in ("#lobby", "#goto-new-match", "#goto-computer", "#computer-card h2", "#new-match-card h2",
                "#play-computer"):
        expect(page.locator(sel)).to_be_in_viewport()
    screenshot(page, "home-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator("#goto-computer")).to_be_in_viewport()
    page.click("#goto-computer")
    expect(page.locator("#play-computer")).to_be_in_viewport()
    screenshot(page, "home-phone")
    page.close()
