"""The browser front end: plain ES modules, SVG and CSS served as static files (no build step).

The server serves `STATIC_DIR` at `/static/` and the pages `/` (index.html), `/game/{id}`
(game.html) and `/invite/{token}` (invite.html) from `PAGES_DIR`.
"""
from pathlib import Path

WEB_DIR = Path(__file__).resolve().parent
PAGES_DIR = WEB_DIR / "pages"
STATIC_DIR = WEB_DIR / "static"
PAGES = {"index": PAGES_DIR / "index.html", "game": PAGES_DIR / "game.html", "invite": PAGES_DIR / "invite.html"}
