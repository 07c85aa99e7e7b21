"""The lobby's endpoints: open seeks (list, create, cancel, accept) and quick pairing pools. The
seeks themselves, their lifetimes and the pairing are `server/lobby.py`; their websocket is in
`websocket.py`."""
from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Request
from pydantic import Field

from .. import ratings
from ..accounts import client_of
from ..clock import TIME_CONTROLS
from ..lobby import POOLS, SeekRefused
from ..services import Services, ServicesDep, VisitorDep
from ..throttle import refuse_if_throttled
from .matches import MatchIn, new_game

router = APIRouter()

RatingBound = Annotated[int, Field(ge=0, le=4000)]


class SeekIn(MatchIn):
    rated: bool = False
    # who may accept, by their rating in the seek's pool: [lowest, highest], your own included
    rating_range: tuple[RatingBound, RatingBound] | None = None


@router.get("/api/seeks")
async def open_seeks(s: ServicesDep) -> dict:
    return {"seeks": s.lobby.listing()["seeks"]}


@router.post("/api/seeks")
async def create_seek(body: SeekIn, request: Request, who: VisitorDep, s: ServicesDep) -> dict:
    """A seek with the settings of a match (`POST /api/matches`), rated or casual, open to anyone
    (in the rating range, if one is given)."""
    _refuse_flood(s, request)
    if body.invite:
        raise HTTPException(400, "a seek is open to anyone: to invite an account, create a match")
    account = who.player is not None and who.player.password_hash is not None
    if body.rated and not account:
        raise HTTPException(403, "rated games are between accounts: log in or register to create a rated seek")
    if body.rating_range is not None:
        low, high = body.rating_range
        if not account:
            raise HTTPException(403, "a rating range needs an account: guests have no rating")
        if low > high:
            raise HTTPException(400, f"the rating range {low}-{high} excludes everyone: write the lower bound first")
    game = await s.offload.run(new_game, body, who, s.now())
    if body.rating_range is not None:
        mine = round(s.lobby.rating_of(game.creator_id, ratings.pool_of(game.variant, game.mode, game.time_control)).rating)
        if not low <= mine <= high:
            raise HTTPException(400, f"the rating range {low}-{high} excludes your own rating ({mine}): "
                                     "nobody near your level could accept")
    return _answer(lambda: s.lobby.add(game, body.rated, body.rating_range))


@router.delete("/api/seeks/{seek_id}")
async def cancel_seek(seek_id: str, who: VisitorDep, s: ServicesDep) -> dict:
    _answer(lambda: s.lobby.cancel(seek_id, who.id))
    return {"ok": True}


@router.post("/api/seeks/{seek_id}/accept")
async def accept_seek(seek_id: str, who: VisitorDep, s: ServicesDep) -> dict:
    """The game starts for both players; its id."""
    seek = _answer(lambda: s.lobby.refuse_acceptor(seek_id, who.player))
    try:
        return {"game_id": await s.lobby.accept(seek, who.player_or_guest().id)}
    except SeekRefused as e:
        raise HTTPException(e.status, str(e)) from None


@router.get("/api/pools")
def quick_pools() -> dict:
    return {"pools": [{"id": p.id, "variant": p.variant, "speed": TIME_CONTROLS[p.time_control].speed,
                       "time_control": {"id": p.time_control, "name": TIME_CONTROLS[p.time_control].name}}
                      for p in POOLS.values()]}


@router.post("/api/pools/{pool_id}/join")
async def join_pool(pool_id: str, request: Request, who: VisitorDep, s: ServicesDep) -> dict:
    """`{"game_id"}` when paired with a waiting player, else `{"seek"}`: the seek left in the lobby."""
    pool = POOLS.get(pool_id)
    if pool is None:
        raise HTTPException(404, f"no quick pairing pool {pool_id[:40]!r}")
    _refuse_flood(s, request)
    game = await s.offload.run(new_game, MatchIn(variant=pool.variant, time_control=pool.time_control), who, s.now())
    try:
        return await s.lobby.join_pool(pool, who.player_or_guest(), game)
    except SeekRefused as e:
        raise HTTPException(e.status, str(e)) from None


def _refuse_flood(s: Services, request: Request) -> None:
    client = client_of(request)
    refuse_if_throttled((s.lobby.creations, client), what="seeks created")
    s.lobby.creations.take(client)


def _answer(call):
    """`call()`, its SeekRefused as the HTTP error it names."""
    try:
        return call()
    except SeekRefused as e:
        raise HTTPException(e.status, str(e)) from None
