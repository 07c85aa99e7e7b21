"""Identity: who sends a request (session cookies), guests made only when needed, accounts
(register, log in, log out, log out everywhere) with throttled password checks. See
docs/protocol.md, "Identity".

A guest identity is a player row and a session; it is made when a visitor first does something
that needs one (creates or joins a game, sets a colour), never for reading. Session tokens are
stored as digests and expire when unused (store.py has the lifetimes); the cookies are `HttpOnly`,
`SameSite=Lax`, and `Secure` when the request came over https (directly, or through a proxy the
server trusts: `superchess serve --trusted-proxies`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.requests import HTTPConnection
from pydantic import BaseModel, Field

from .passwords import Busy, Passwords
from .store import GUEST_SESSION_MS, PlayerRow, Store, new_token
from .throttle import Throttle, refuse_if_throttled

GUEST_COOKIE, SESSION_COOKIE = "sc_guest", "sc_session"
COOKIE_MAX_AGE_S = GUEST_SESSION_MS // 1000  # renewed daily on use; the server's expiry is what counts
NAME_RE = re.compile(r"[A-Za-z0-9_-]{3,20}\Z")
# (attempts, window in ms): login attempts per account name and per client address (a success is
# not counted), registrations per client address
LOGINS_PER_ACCOUNT = (5, 60_000)
LOGINS_PER_CLIENT = (20, 60_000)
REGISTRATIONS_PER_CLIENT = (10, 3_600_000)
NOBODY = {"id": None, "name": None, "account": False, "colour": None}  # /api/me before any identity


class Credentials(BaseModel):
    name: str = Field(max_length=40)
    password: str = Field(max_length=200)


def me(p: PlayerRow | None) -> dict:
    """The /api/me answer."""
    if p is None:
        return NOBODY
    return {"id": p.id, "name": p.name, "account": p.password_hash is not None, "colour": p.colour}


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
        for _ in range(5):
            name = f"Guest-{new_token(4)[:6]}"
            if not self.store.player_by_name(name):
                break
        p = self.store.add_player(name, None, self.now())
        self.set_cookie(request, response, GUEST_COOKIE, self.store.add_session(p.id, self.now()))
        return p

    @staticmethod
    def set_cookie(connection: HTTPConnection, response: Response, cookie: str, token: str) -> None:
        response.set_cookie(cookie, token, max_age=COOKIE_MAX_AGE_S, httponly=True, samesite="lax",
                            secure=connection.url.scheme in ("https", "wss"))

    # -- endpoints --------------------------------------------------------------------------
    def router(self) -> APIRouter:
        router = APIRouter()
        router.get("/api/me")(self.get_me)
        router.post("/api/register")(self.register)
        router.post("/api/login")(self.login)
        router.post("/api/logout")(self.logout)
        router.post("/api/logout-all")(self.logout_all)
        return router

    async def get_me(self, request: Request, response: Response) -> dict:
        return me(self.player_of(request, response))

    async def register(self, body: Credentials, request: Request, response: Response) -> dict:
        if not NAME_RE.match(body.name) or body.name.lower().startswith("guest"):
            raise HTTPException(400, "names are 3-20 letters, digits, _ or -, and may not start with 'guest'")
        if len(body.password) < 8:
            raise HTTPException(400, "passwords need at least 8 characters")
        client = client_of(request)
        refuse_if_throttled((self.registrations, client), what="registrations")
        self.registrations.take(client)
        self._refuse_if_taken(body.name)
        try:
            password_hash = await self.passwords.hash(body.password)
        except Busy as e:
            self.registrations.give_back(client)
            raise HTTPException(503, str(e), headers={"Retry-After": "1"}) from None
        self._refuse_if_taken(body.name)  # someone may have taken it while this one was hashed
        p = self.store.add_player(body.name, password_hash, self.now())
        self.set_cookie(request, response, SESSION_COOKIE, self.store.add_session(p.id, self.now()))
        return me(p)

    async def login(self, body: Credentials, request: Request, response: Response) -> dict:
        client, account = client_of(request), body.name.lower()
        refuse_if_throttled((self.logins_per_client, client), (self.logins_per_account, account),
                                  what="login attempts")
        self.logins_per_client.take(client)
        self.logins_per_account.take(account)
        p = self.store.player_by_name(body.name)
        try:  # an unknown name or a guest is checked against a dummy hash: it takes as long
            right = await self.passwords.verify(p.password_hash if p else None, body.password)
        except Busy as e:
            self.logins_per_client.give_back(client)
            self.logins_per_account.give_back(account)
            raise HTTPException(503, str(e), headers={"Retry-After": "1"}) from None
        if not right:
            raise HTTPException(401, "wrong name or password")
        self.logins_per_client.give_back(client)
        self.logins_per_account.clear(account)
        self.set_cookie(request, response, SESSION_COOKIE, self.store.add_session(p.id, self.now()))
        return me(p)

    async def logout(self, request: Request, response: Response) -> dict:
        token = request.cookies.get(SESSION_COOKIE)
        if token:
            self.store.drop_session(token)
        response.delete_cookie(SESSION_COOKIE)
        return {"ok": True}

    async def logout_all(self, request: Request, response: Response) -> dict:
        """Every session of the logged-in account ends (on every device)."""
        token = request.cookies.get(SESSION_COOKIE)
        found = self.store.session_player(token, self.now()) if token else None
        if found is None or found[0].password_hash is None:
            raise HTTPException(401, "you are not logged in")
        self.store.drop_sessions(found[0].id)
        response.delete_cookie(SESSION_COOKIE)
        return {"ok": True}

    def _refuse_if_taken(self, name: str) -> None:
        if self.store.player_by_name(name, any_case=True):
            raise HTTPException(409, f"the name {name} is taken")
