"""Invitations: an open match seen, accepted or declined through its link's token, or a match
addressed to an account answered by that account."""
from __future__ import annotations

from fastapi import APIRouter, HTTPException

from .. import variants
from ..accounts import Visitor
from ..clock import TIME_CONTROLS
from ..live import ActionError
from ..services import Services, ServicesDep, VisitorDep
from ..store import GameRow
from .rosters import stored_roster

router = APIRouter()


@router.get("/api/invitations/{token}")
def invitation(token: str, who: VisitorDep, s: ServicesDep) -> dict:
    row = s.store.game_by_token(token)
    if row is None:
        raise HTTPException(404, "no such invitation")
    creator = s.store.player(row.creator_id)
    return {"game_id": row.id, "variant": row.variant, "title": variants.variant_of(row.variant).title,
            "time_control": TIME_CONTROLS[row.time_control].name, "creator": creator.name,
            "your_side": row.creator_side ^ 1, "fen": row.start_fen, "status": row.status,
            "yours": row.creator_id == who.id, "mode": row.mode,
            "roster": stored_roster(row.roster0)[0] if row.mode == "symmetric" else None}


@router.post("/api/invitations/{token}/accept")
async def accept_token(token: str, who: VisitorDep, s: ServicesDep) -> dict:
    return await _accept(s, s.store.game_by_token(token), who)


@router.post("/api/invitations/{token}/decline")
async def decline_token(token: str, who: VisitorDep, s: ServicesDep) -> dict:
    return await _decline(s, s.store.game_by_token(token), who.id)


@router.post("/api/games/{game_id}/accept")
async def accept_addressed(game_id: str, who: VisitorDep, s: ServicesDep) -> dict:
    return await _accept(s, _addressed(s, game_id, who), who)


@router.post("/api/games/{game_id}/decline")
async def decline_addressed(game_id: str, who: VisitorDep, s: ServicesDep) -> dict:
    return await _decline(s, _addressed(s, game_id, who), who.id)


def _addressed(s: Services, game_id: str, who: Visitor) -> GameRow:
    """The match addressed to this visitor, else HTTP 404."""
    row = s.store.game(game_id)
    if row is None or who.id is None or row.invited_id != who.id:
        raise HTTPException(404, "no invitation for you in that game")
    return row


async def _accept(s: Services, row: GameRow | None, who: Visitor) -> dict:
    if row is None:
        raise HTTPException(404, "no such invitation")
    if row.creator_id == who.id:
        raise HTTPException(400, "this is your own invitation; send the link to your opponent")
    if row.invited_id is not None and row.invited_id != who.id:
        raise HTTPException(403, "this invitation is for another player")
    problem = stored_roster(row.roster0)[1] or stored_roster(row.roster1)[1]
    if problem:
        raise HTTPException(409, f"{problem}: this invitation cannot be accepted")
    if row.status != "waiting":  # (checked again under the game's lock) before making a guest
        raise HTTPException(409, "this invitation is no longer open")
    players = [None, None]
    players[row.creator_side] = row.creator_id
    players[row.creator_side ^ 1] = who.player_or_guest().id
    try:
        await s.hub.start_game(row.id, players[0], players[1])
    except ActionError as e:
        raise HTTPException(409, str(e)) from None
    return {"game_id": row.id}


async def _decline(s: Services, row: GameRow | None, viewer_id: int | None) -> dict:
    if row is None:
        raise HTTPException(404, "no such invitation")
    if row.invited_id is not None and viewer_id not in (row.invited_id, row.creator_id):
        raise HTTPException(403, "this invitation is for another player")
    try:
        await s.hub.decline(row.id)
    except ActionError as e:
        raise HTTPException(409, str(e)) from None
    return {"ok": True}
