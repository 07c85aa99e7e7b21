"""Identity endpoints: who am I, register, log in, log out (here or everywhere), the player's
colour. The identity itself (sessions, cookies, guests, throttles) is `server/accounts.py`."""
from __future__ import annotations

import re

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, Field

from ..accounts import SESSION_COOKIE, client_of, me
from ..colours import COLOUR_RE
from ..passwords import Busy
from ..services import ServicesDep, VisitorDep
from ..store import Store
from ..throttle import refuse_if_throttled

NAME_RE = re.compile(r"[A-Za-z0-9_-]{3,20}\Z")

router = APIRouter()


class Credentials(BaseModel):
    name: str = Field(max_length=40)
    password: str = Field(max_length=200)


class ColourIn(BaseModel):
    colour: str = Field(max_length=7)


@router.get("/api/me")
async def get_me(request: Request, response: Response, s: ServicesDep) -> dict:
    return me(s.accounts.player_of(request, response))


@router.post("/api/register")
async def register(body: Credentials, request: Request, response: Response, s: ServicesDep) -> dict:
    accounts = s.accounts
    if not NAME_RE.match(body.name) or body.name.lower().startswith("guest"):
        raise HTTPException(400, "names are 3-20 letters, digits, _ or -, and may not start with 'guest'")
    if len(body.password) < 8:
        raise HTTPException(400, "passwords need at least 8 characters")
    client = client_of(request)
    refuse_if_throttled((accounts.registrations, client), what="registrations")
    accounts.registrations.take(client)
    _refuse_if_taken(s.store, body.name)
    try:
        password_hash = await accounts.passwords.hash(body.password)
    except Busy as e:
        accounts.registrations.give_back(client)
        raise HTTPException(503, str(e), headers={"Retry-After": "1"}) from None
    _refuse_if_taken(s.store, body.name)  # someone may have taken it while this one was hashed
    p = s.store.add_player(body.name, password_hash, s.now())
    accounts.set_cookie(request, response, SESSION_COOKIE, s.store.add_session(p.id, s.now()))
    return me(p)


@router.post("/api/login")
async def login(body: Credentials, request: Request, response: Response, s: ServicesDep) -> dict:
    accounts = s.accounts
    client, account = client_of(request), body.name.lower()
    refuse_if_throttled((accounts.logins_per_client, client), (accounts.logins_per_account, account),
                        what="login attempts")
    accounts.logins_per_client.take(client)
    accounts.logins_per_account.take(account)
    p = s.store.player_by_name(body.name)
    try:  # an unknown name or a guest is checked against a dummy hash: it takes as long
        right = await accounts.passwords.verify(p.password_hash if p else None, body.password)
    except Busy as e:
        accounts.logins_per_client.give_back(client)
        accounts.logins_per_account.give_back(account)
        raise HTTPException(503, str(e), headers={"Retry-After": "1"}) from None
    if not right:
        raise HTTPException(401, "wrong name or password")
    accounts.logins_per_client.give_back(client)
    accounts.logins_per_account.clear(account)
    accounts.set_cookie(request, response, SESSION_COOKIE, s.store.add_session(p.id, s.now()))
    return me(p)


@router.post("/api/logout")
async def logout(request: Request, response: Response, s: ServicesDep) -> dict:
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        s.store.drop_session(token)
    response.delete_cookie(SESSION_COOKIE)
    return {"ok": True}


@router.post("/api/logout-all")
async def logout_all(request: Request, response: Response, s: ServicesDep) -> dict:
    """Every session of the logged-in account ends (on every device)."""
    token = request.cookies.get(SESSION_COOKIE)
    found = s.store.session_player(token, s.now()) if token else None
    if found is None or found[0].password_hash is None:
        raise HTTPException(401, "you are not logged in")
    s.store.drop_sessions(found[0].id)
    response.delete_cookie(SESSION_COOKIE)
    return {"ok": True}


@router.put("/api/me/colour")
async def set_colour(body: ColourIn, who: VisitorDep, s: ServicesDep) -> dict:
    if not COLOUR_RE.match(body.colour):
        raise HTTPException(400, "a colour is written #rrggbb")
    p = s.store.update_player(who.player_or_guest().id, colour=body.colour.lower())
    s.hub.colour_changed(p.id, p.colour)
    return me(p)


def _refuse_if_taken(store: Store, name: str) -> None:
    if store.player_by_name(name, any_case=True):
        raise HTTPException(409, f"the name {name} is taken")
