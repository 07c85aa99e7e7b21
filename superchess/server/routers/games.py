"""Games: a player's list (in progress, finished, invitations), one game's state as its viewer may
see it, and its record for download."""
from __future__ import annotations

import time
from typing import Literal

from fastapi import APIRouter, HTTPException
from fastapi.responses import PlainTextResponse

from ...rules.game.record import Game
from .. import variants
from ..clock import TIME_CONTROLS
from ..services import ServicesDep, VisitorDep

router = APIRouter()


@router.get("/api/games")
async def my_games(who: VisitorDep, s: ServicesDep) -> dict:
    """The visitor's games: ongoing ones (those where it is their turn first, the least time left
    first), finished ones and invitations, most recent first."""
    out = {"ongoing": [], "finished": [], "invitations": []}
    p = who.player
    now = s.now()
    for row in s.store.games_of(p.id) if p else ():
        # games in progress are in memory, with their turn; the others' rows say all
        g = await s.hub.load(row.id) if row.status in ("active", "setup") else None
        if g is not None:
            row = g.row
        side = 0 if p.id == row.player0_id else 1 if p.id == row.player1_id else None
        opp_id = row.player1_id if side == 0 else row.player0_id if side == 1 else row.creator_id
        opponent = s.store.player(opp_id).name if opp_id else None
        summary = {"id": row.id, "variant": row.variant, "time_control": TIME_CONTROLS[row.time_control].name,
                   "opponent": opponent, "your_side": side, "status": row.status,
                   "your_turn": g is not None and side is not None and (
                       row.status == "active" and side == g.game.board.turn
                       or row.status == "setup" and not getattr(row, f"submitted{side}")),
                   "result": row.result, "termination": row.termination, "rated": bool(row.rated),
                   "time_left": g.time_left(side, now) if g is not None and side is not None else None,
                   "invite_url": f"/invite/{row.invite_token}" if row.creator_id == p.id else None}
        if row.status in ("active", "setup"):
            out["ongoing"].append(summary)
        elif row.status == "waiting":
            if row.creator_id == p.id or row.invited_id == p.id:
                out["invitations"].append(summary)
        else:
            out["finished"].append(summary)
    out["ongoing"].sort(key=lambda g: (not g["your_turn"], g["time_left"] if g["your_turn"] and g["time_left"] is not None
                                       else float("inf")))
    return out


@router.get("/api/games/{game_id}")
async def game_state(game_id: str, who: VisitorDep, s: ServicesDep) -> dict:
    state = await s.hub.view(game_id, who.id)
    if state is None:
        raise HTTPException(404, "no such game")
    return state


@router.get("/api/games/{game_id}/positions/{moves}")
async def game_position(game_id: str, moves: int, who: VisitorDep, s: ServicesDep) -> dict:
    """The position after the first `moves` moves of the game as this visitor sees it (the replay)."""
    g = await s.hub.load(game_id)
    if g is None:
        raise HTTPException(404, "no such game")
    async with s.hub.locks[game_id]:
        try:
            return await s.offload.run(g.position, g.side_of(who.id), moves)
        except ValueError as e:
            raise HTTPException(400, str(e)) from None


@router.get("/api/games/{game_id}/guide")
async def game_guide(game_id: str, who: VisitorDep, s: ServicesDep) -> dict:
    """The piece guide of the game as this visitor may see it (secret programs stay secret)."""
    g = await s.hub.load(game_id)
    if g is None:
        raise HTTPException(404, "no such game")
    async with s.hub.locks[game_id]:
        return await s.offload.run(g.guide, g.side_of(who.id))


@router.get("/api/games/{game_id}/reach/{square}")
async def piece_reach(game_id: str, square: str, who: VisitorDep, s: ServicesDep) -> dict:
    """Where the piece on `square` could move if it were its side's turn (the guide's hover)."""
    g = await s.hub.load(game_id)
    if g is None:
        raise HTTPException(404, "no such game")
    async with s.hub.locks[game_id]:
        try:
            return await s.offload.run(g.reach, g.side_of(who.id), square[:8])
        except ValueError as e:
            raise HTTPException(400, str(e)) from None


@router.get("/api/games/{game_id}/record")
async def game_record(game_id: str, s: ServicesDep,
                      notation: Literal["readable", "coordinates"] = "readable") -> PlainTextResponse:
    """The game's record: its moves in the readable notation, or with `?notation=coordinates` in the
    machine move text (both read back by the importer)."""
    g = await s.hub.load(game_id)
    if g is None:
        raise HTTPException(404, "no such game")
    async with s.hub.locks[game_id]:
        if not g.rosters_revealed():
            raise HTTPException(409, "the record of a Private game is available when a game both sides "
                                     "played ends (its rosters stay secret otherwise)")
        text = g.game.export()
        finished = len(g.game.board.move_stack) - g.game.board.moves_in_turn
        headers = {"Site": "superchess", "Player1": g.names.get(g.row.player0_id) or "?",
                   "Player2": g.names.get(g.row.player1_id) or "?",
                   "Date": time.strftime("%Y.%m.%d", time.gmtime(g.row.created_at / 1000)),
                   "TimeControl": g.tc.name}
    public = await s.offload.run(_public_record, text, finished, headers, notation == "readable")
    return PlainTextResponse(public, headers={
        "Content-Disposition": f'attachment; filename="superchess-{game_id}.pgn"'})


def _public_record(text: str, finished: int, headers: dict[str, str], readable: bool) -> str:
    """A game's record as anyone may download it: with the players' names, and without a drafted
    turn's unfinished part (tiling-rider R12: it is the mover's alone)."""
    record = Game.parse(text)
    if variants.drafted_turns(record.board.variant):
        while len(record.board.move_stack) > finished:  # (reading it back may have ended the turn)
            record.board.pop()
    record.headers.update(headers)
    return record.export(readable)
