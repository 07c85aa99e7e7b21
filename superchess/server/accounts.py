"""Identity: who sends a request (session cookies), guests made only when needed, and the
throttles of password checks and registrations (the endpoints are `routers/accounts.py`). See
docs/protocol.md, "Identity".

A guest identity is a player row and a session; it is made when a visitor first does something
that needs one (creates or joins a game, sets a colour), never for reading. Session tokens are
stored as digests and expire when unused (store.py has the lifetimes); the cookies are `HttpOnly`,
`SameSite=Lax`, and `Secure` when the request came over https (directly, or through a proxy the
server trusts: `superchess serve --trusted-proxies`).
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Callable, Iterator

from fastapi import Request, Response
from fastapi.requests import HTTPConnection

from .passwords import Passwords
from .store import GUEST_SESSION_MS, PlayerRow, Store
from .throttle import Throttle

GUEST_COOKIE, SESSION_COOKIE = "sc_guest", "sc_session"
COOKIE_MAX_AGE_S = GUEST_SESSION_MS // 1000  # renewed daily on use; the server's expiry is what counts
# (attempts, window in ms): login attempts per account name and per client address (a success is
# not counted), registrations per client address
LOGINS_PER_ACCOUNT = (5, 60_000)
LOGINS_PER_CLIENT = (20, 60_000)
REGISTRATIONS_PER_CLIENT = (10, 3_600_000)
NOBODY = {"id": None, "name": None, "account": False, "colour": None}  # /api/me before any identity


def me(p: PlayerRow | None) -> dict:
    """The /api/me answer."""
    if p is None:
        return NOBODY
    return {"id": p.id, "name": p.name, "account": p.password_hash is not None, "colour": p.colour}


def guest_names() -> Iterator[str]:
    """Names to try for a new guest, readable and easy to tell apart: `Guest-4821`; a digit more
    every few names taken, so that there is always a free one."""
    for attempt in range(30):
        digits = 4 + attempt // 3
        yield f"Guest-{10 ** (digits - 1) + secrets.randbelow(9 * 10 ** (digits - 1))}"


def client_of(request: Request) -> str:
    return request.client.host if request.client else "?"


@dataclass
class Visitor:
    """Who sent a request: the player its cookies name (None: nobody yet), and `player_or_guest()`
    for a request that needs an identity (it makes a guest, whose cookie goes with the answer)."""
    player: PlayerRow | None
    make_guest: Callable[[], PlayerRow]

    @property
    def id(self) -> int | None:
        return self.player.id if self.player else None

    def player_or_guest(self) -> PlayerRow:
        if self.player is None:
            self.player = self.make_guest()
        return self.player


class Accounts:
    """Who a request or websocket comes from, guests made on demand, and the attempt counters the
    identity endpoints consult (logins per account and per client, registrations per client)."""

    def __init__(self, store: Store, now: Callable[[], int], passwords: Passwords) -> None:
        self.store, self.now, self.passwords = store, now, passwords
        self.logins_per_account = Throttle(*LOGINS_PER_ACCOUNT, now)
        self.logins_per_client = Throttle(*LOGINS_PER_CLIENT, now)
        self.registrations = Throttle(*REGISTRATIONS_PER_CLIENT, now)

    # -- who is asking ----------------------------------------------------------------------
    def player_of(self, connection: HTTPConnection, response: Response | None = None) -> PlayerRow | None:
        """The player of the connection's session cookie, else of its guest cookie; a cookie that
        names no live session is removed, one whose session was renewed is renewed (on `response`)."""
        for cookie in (SESSION_COOKIE, GUEST_COOKIE):
            token = connection.cookies.get(cookie)
            if not token:
                continue
            found = self.store.session_player(token, self.now())
            if found is None:
                if response is not None:
                    response.delete_cookie(cookie)
                continue
            player, renewed = found
            if renewed and response is not None:
                self.set_cookie(connection, response, cookie, token)
            return player
        return None

    def visitor(self, request: Request, response: Response) -> Visitor:
        """The dependency of endpoints that act for someone."""
        return Visitor(self.player_of(request, response), lambda: self._new_guest(request, response))

    def _new_guest(self, request: Request, response: Response) -> PlayerRow:
        p = self.store.add_guest(guest_names(), self.now())
        self.set_cookie(request, response, GUEST_COOKIE, self.store.add_session(p.id, self.now()))
        return p

    @staticmethod
    def set_cookie(connection: HTTPConnection, response: Response, cookie: str, token: str) -> None:
        response.set_cookie(cookie, token, max_age=COOKIE_MAX_AGE_S, httponly=True, samesite="lax",
                            secure=connection.url.scheme in ("https", "wss"))
