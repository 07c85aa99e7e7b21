"""The browser's pages (the home page with the lobby, a game, the roster editor, an invitation, a
player's profile, the leaderboards) and their static files (superchess/web)."""
from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

WEB = Path(__file__).resolve().parent.parent.parent / "web"
PAGES = WEB / "pages"

router = APIRouter(include_in_schema=False)
router.mount("/static", StaticFiles(directory=WEB / "static", check_dir=False), name="static")


@router.get("/")
def home() -> FileResponse:
    return FileResponse(PAGES / "index.html")


@router.get("/game/{game_id}")
def game_page(game_id: str) -> FileResponse:
    return FileResponse(PAGES / "game.html")


@router.get("/rosters")
def rosters_page() -> FileResponse:
    return FileResponse(PAGES / "rosters.html")


@router.get("/invite/{token}")
def invite_page(token: str) -> FileResponse:
    return FileResponse(PAGES / "invite.html")


@router.get("/@/{name}")
def profile_page(name: str) -> FileResponse:
    return FileResponse(PAGES / "profile.html")


@router.get("/leaderboard")
def leaderboard_page() -> FileResponse:
    return FileResponse(PAGES / "leaderboard.html")
