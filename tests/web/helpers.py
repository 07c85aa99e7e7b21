"""Helpers of the game page's browser tests: a match made through the API in the pages' own
browser contexts (their cookies), and screenshots at the two sizes the issue names."""
from __future__ import annotations

from playwright.sync_api import expect

from .conftest import screenshot

SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


def api_match(pages, server, **body) -> str:
    """Player A creates a match with `body` (POST /api/matches), player B accepts it; both pages
    open the game. Returns its id."""
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
