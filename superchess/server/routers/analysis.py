"""The analysis board (docs/protocol.md, "Analysis"): its page, any position of any variant with its
legal moves, a pasted record read in, a line exported as a record, and the engine's evaluation and
best line. The rules work runs in the offload's threads, the engine in its own worker process."""
from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, PlainTextResponse
from pydantic import BaseModel, Field

from ..accounts import client_of
from ..analysis import ENGINE_MS, MAX_ENGINE_MS, MAX_MOVES, BusyError, imported, position_state, record_of
from ..services import ServicesDep
from ..throttle import refuse_if_throttled
from .pages import PAGES

router = APIRouter()
MAX_RECORD = 15000  # characters of a pasted record (the request body cap is 16 kB)


class PositionIn(BaseModel):
    variant: str = Field(max_length=20)
    fen: str | None = Field(None, max_length=1000)
    moves: list[str] = Field(default_factory=list, max_length=MAX_MOVES)
    rosters: list[dict] | None = Field(None, min_length=2, max_length=2)


class EngineIn(PositionIn):
    movetime_ms: int = Field(ENGINE_MS, ge=100, le=MAX_ENGINE_MS)


class RecordIn(BaseModel):
    record: str = Field(max_length=MAX_RECORD)


@router.get("/analysis", include_in_schema=False)
def analysis_page() -> FileResponse:
    return FileResponse(PAGES / "analysis.html")


async def _position(body: PositionIn, request: Request, s: ServicesDep) -> dict:
    """The position `body` names, checked (HTTP 400 naming the problem); throttled per client."""
    if any(len(m) > 40 for m in body.moves):
        raise HTTPException(400, "bad moves: a move text is at most 40 characters")
    client = client_of(request)
    refuse_if_throttled((s.positions, client), what="analysis positions")
    s.positions.take(client)
    try:
        return await s.offload.run(position_state, body.variant, body.fen, body.moves, body.rosters)
    except ValueError as e:  # an unknown variant, a bad FEN or roster, an illegal move
        raise HTTPException(400, str(e)) from None


@router.post("/api/analysis/position")
async def analysis_position(body: PositionIn, request: Request, s: ServicesDep) -> dict:
    return await _position(body, request, s)


@router.post("/api/analysis/import")
async def analysis_import(body: RecordIn, s: ServicesDep) -> dict:
    try:
        return await s.offload.run(imported, body.record)
    except ValueError as e:
        raise HTTPException(400, str(e)) from None


@router.post("/api/analysis/record")
async def analysis_record(body: PositionIn, s: ServicesDep) -> PlainTextResponse:
    try:
        text = await s.offload.run(record_of, body.variant, body.fen, body.moves, body.rosters)
    except ValueError as e:
        raise HTTPException(400, str(e)) from None
    return PlainTextResponse(text, headers={"Content-Disposition": 'attachment; filename="superchess-analysis.pgn"'})


@router.post("/api/analysis/engine")
async def analysis_engine(body: EngineIn, request: Request, s: ServicesDep) -> dict:
    position = await _position(body, request, s)
    if position["outcome"] is not None:
        return {"score": None, "white_cp": None, "depth": 0, "pv": [], "line": [], "time_ms": 0}
    try:
        return await s.analyses.run(client_of(request), body.variant, body.fen, position["moves"], body.rosters,
                                    body.movetime_ms)
    except BusyError as e:
        raise HTTPException(429, str(e), headers={"Retry-After": "3"}) from None
