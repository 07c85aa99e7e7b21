"""Shared steps of the browser tests: two people start a match through an invitation, a game against
the computer from the home page, moves by clicking, the game's state from the API, what the page
shows of holdings and drawings; a match made through the API and screenshots at the issue's two sizes."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import screenshot

FIRST_REPLY_MS = 60_000  # the computer's first move: its worker process is spawned and the engine loaded


def start_match(pages, server, variant="super16", time_control="blitz-3+2", fen=None):
    """Player A creates a match on the home page, player B accepts through the invitation link;
    both end up on the game page."""
    a, b = pages
    a.goto(server.url + "/")
    expect(a.locator(f'#variant option[value="{variant}"]')).to_have_count(1)
    a.select_option("#variant", variant)
    a.select_option("#time-control", time_control)
    if fen:
        a.fill("#fen", fen)
    a.click("#create")
    link = a.locator("#invite-link")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert re.search(r"/invite/[\w-]{30,}$", href), href
    b.goto(server.url + href if href.startswith("/") else href)
    b.click("#accept")
    b.wait_for_url(re.compile(r"/game/"))
    a.click("#game-link")
    a.wait_for_url(re.compile(r"/game/"))
    for p in pages:
        expect(p.locator("#board [data-square]").first).to_be_attached()
    game_id = a.url.rsplit("/", 1)[1]
    return game_id


def play_the_computer(page, level: int, side: int) -> str:
    """Submit the home page's form for a game against the computer (its variant already chosen) at
    `level`, the human as player `side`; returns the game's id once its page is open."""
    page.select_option("#level", str(level))
    page.select_option("#computer-side", str(side))
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"/game/"))
    return page.url.rsplit("/", 1)[1]


def play(page, other, frm, to, ply, promotion=None):
    """Click a move on `page` and wait until both pages show it as ply number `ply` (0-based)."""
    page.click(f'#board [data-square="{frm}"]')
    page.click(f'#board [data-square="{to}"]')
    if promotion:
        page.click(f'#promotion [data-promotion="{promotion}"]')
    for p in (page, other):
        expect(p.locator(f'#moves [data-ply="{ply}"]')).to_have_count(1)


def state(page, game_id):
    return page.context.request.get(f"{page.url.split('/game/')[0]}/api/games/{game_id}").json()


def holdings(page, side):
    """{letter: count} as the page shows it in #holdings-{side}."""
    return page.eval_on_selector_all(
        f"#holdings-{side} .held[data-piece]",
        "es => Object.fromEntries(es.map(e => [e.dataset.piece, Number(e.dataset.count)]))")


def glyph(page, square, board="#board"):
    return page.get_attribute(f'{board} [data-square="{square}"] .piece-art', "data-glyph")


def wait_for_names(page):
    """The variant's piece names are loaded (drawings by name)."""
    expect(page.locator('#board[data-piece-set="superchess"]')).to_have_count(1)


SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


def api_match(pages, server, **body) -> str:
    """Player A creates a match with `body` (POST /api/matches, through its page's cookies), player B
    accepts it; both pages open the game. Returns its id."""
    a, b = pages
    body = {"variant": "chess", "time_control": "blitz-3+2", **body}
    created = a.request.post(f"{server.url}/api/matches", data=body)
    assert created.ok, created.text()
    game = created.json()
    token = game["invite_url"].rsplit("/", 1)[1]
    accepted = b.request.post(f"{server.url}/api/invitations/{token}/accept")
    assert accepted.ok, accepted.text()
    for p in pages:
        p.goto(f"{server.url}/game/{game['game_id']}")
        expect(p.locator("#status")).to_have_attribute("data-status", "active")
    return game["game_id"]


def shots(page, name: str) -> None:
    """Screenshots of the page at 1366x768 and 390x844 (the viewport is left at the phone's)."""
    for label, size in SIZES.items():
        page.set_viewport_size(size)
        screenshot(page, f"{name}-{label}")
