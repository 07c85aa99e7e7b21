"""The server's endpoints, one router per concern (docs/protocol.md); each receives what it shares
with the others through the dependencies of `server/services.py`. Endpoints that touch live games
are `async`: they run on the event loop, never in a worker thread beside the game processing."""
from __future__ import annotations

from . import accounts, analysis, boards, games, health, invitations, lobby, matches, pages, players, rosters, websocket

ROUTERS = (accounts.router, matches.router, lobby.router, invitations.router, games.router, players.router,
           boards.router, rosters.router, analysis.router, websocket.router, health.router, pages.router)
