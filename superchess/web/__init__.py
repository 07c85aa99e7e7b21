"""The browser front end: plain ES modules, SVG and CSS served as static files (no build step).

The server serves `static/` at `/static/` and the pages `/` (index.html), `/game/{id}` (game.html),
`/invite/{token}` (invite.html) and `/rosters` (rosters.html) from `pages/`. Element ids for tests: README.md here.
"""
