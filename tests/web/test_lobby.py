"""Issue 22 in a real browser: two players meet through the lobby, play a rated game, see their
rating change, play a rematch, and find both games on the profile page; quick pairing pairs two
waiting players. Screenshots: test-artifacts/lobby.png, rated-game-end.png, profile.png."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import screenshot
from .helpers import play


def register(page, server, name: str) -> None:
    r = page.context.request.post(f"{server.url}/api/register", data={"name": name, "password": "correct horse"})
    assert r.ok, r.text()


def game_id_of(page) -> str:
    return page.url.rsplit("/", 1)[1]


def test_two_players_meet_in_the_lobby_play_rated_and_again(two_players, server):
    a, b = two_players
    register(a, server, "alice")
    register(b, server, "bob")
    b.goto(server.url + "/")
    expect(b.locator("#lobby-connection")).to_have_attribute("data-state", "open")
    expect(b.locator("#no-seeks")).to_be_visible()
    a.goto(server.url + "/")
    expect(a.locator('#variant option[value="chess"]')).to_have_count(1)
    a.select_option("#variant", "chess")
    a.select_option("#time-control", "blitz-3+2")
    a.check("#rated")
    a.click("#create-seek")
    mine = a.locator('#seeks tr[data-mine="true"]')
    expect(mine).to_have_count(1)
    expect(mine.locator("button.cancel")).to_be_visible()
    seek = b.locator('#seeks tr[data-seek-id][data-mine="false"]')  # arrives without a reload
    expect(seek).to_have_count(1)
    expect(seek).to_contain_text("alice")
    expect(seek).to_contain_text("1500?")
    expect(seek).to_contain_text("Rated")
    screenshot(b, "lobby")
    seek.locator("button.accept").click()
    for page in (a, b):  # both are taken to the game
        page.wait_for_url(re.compile(r"/game/"))
        expect(page.locator("#board [data-square]").first).to_be_attached()
    first = game_id_of(a)
    assert game_id_of(b) == first
    expect(a.locator("#rated")).to_have_text("Rated")
    expect(a.locator("#rating-0")).to_have_text("1500?")
    # Fool's mate: Player 1 (alice, the seek's creator) is mated in two
    play(a, b, "f2", "f3", 0)
    play(b, a, "e7", "e5", 1)
    play(a, b, "g2", "g4", 2)
    play(b, a, "d8", "h4", 3)
    for page in (a, b):
        expect(page.locator("#status")).to_contain_text("Checkmate")
        expect(page.locator("#rating-change-0")).to_have_text(re.compile(r"^1500 → 1\d{3} \(−\d+\)$"))
        expect(page.locator("#rating-change-1")).to_have_text(re.compile(r"^1500 → 1\d{3} \(\+\d+\)$"))
    screenshot(a, "rated-game-end")
    b.click("#rematch")
    expect(a.locator("#accept-rematch")).to_be_visible()
    expect(b.locator("#rematch")).to_have_text("Rematch offered")
    a.click("#accept-rematch")
    for page in (a, b):
        page.wait_for_url(re.compile(r"/game/(?!" + first + ")"))
        expect(page.locator("#board [data-square]").first).to_be_attached()
    second = game_id_of(a)
    assert game_id_of(b) == second
    expect(a.locator("#player-1 .pc-you")).to_be_visible()  # the sides are swapped: alice is Player 2
    expect(b.locator("#player-0 .pc-you")).to_be_visible()
    expect(a.locator("#rating-1")).to_have_text(re.compile(r"^1\d{3}\?$"))
    play(b, a, "e2", "e4", 0)
    a.on("dialog", lambda d: d.accept())
    a.click("#resign")
    expect(b.locator("#rating-change-0")).to_be_visible()
    a.goto(f"{server.url}/@/alice")
    games = a.locator("#profile-games li[data-game-id]")
    expect(games).to_have_count(2)
    expect(a.locator(f'#profile-games li[data-game-id="{first}"]')).to_contain_text("bob")
    expect(a.locator(f'#profile-games li[data-game-id="{second}"]')).to_have_attribute("data-outcome", "loss")
    expect(a.locator('#ratings tr[data-variant="chess"][data-speed="blitz"] td.games')).to_have_text("2")
    expect(a.locator("#rating-chart svg.chart")).to_have_attribute("data-points", "2")
    expect(a.locator("#rating-chart svg.chart circle.point")).to_have_count(2)
    screenshot(a, "profile")
    a.select_option("#games-variant", "super16")
    expect(a.locator("#profile-games li.empty")).to_be_visible()
    a.select_option("#games-variant", "chess")
    expect(games).to_have_count(2)
    a.locator(f'#profile-games li[data-game-id="{first}"] a').click()  # a game opens its page
    a.wait_for_url(re.compile(f"/game/{first}$"))
    expect(a.locator("#status")).to_contain_text("Checkmate")


def test_quick_pairing_pairs_two_waiting_players(two_players, server):
    a, b = two_players
    for page in (a, b):
        page.goto(server.url + "/")
        expect(page.locator('#pools [data-pool="chess-blitz-3+2"]')).to_be_visible()
    a.click('#pools [data-pool="chess-blitz-3+2"]')
    expect(a.locator('#pools [data-pool="chess-blitz-3+2"]')).to_have_attribute("data-mine", "true")
    expect(b.locator('#pools [data-pool="chess-blitz-3+2"] .pool-note')).to_have_text("1 waiting")
    b.click('#pools [data-pool="chess-blitz-3+2"]')
    for page in (a, b):
        page.wait_for_url(re.compile(r"/game/"))
        expect(page.locator("#status")).to_contain_text("move")
    assert game_id_of(a) == game_id_of(b)
    expect(a.locator("#rated")).to_have_text("Casual")  # two guests
