"""Rosters (R13-R17): previews of a reprogrammed piece's moves, and the rosters an account keeps on
the server; and reading rosters, sent or stored, for the other endpoints."""
from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from ...rules import ProgramError, Roster
from ...rules.game.preview import preview as preview_answer
from ...rules.game.preview import validate_roster
from .. import variants
from ..accounts import Visitor, client_of
from ..services import ServicesDep, VisitorDep
from ..store import PlayerRow, SavedRosterRow
from ..throttle import refuse_if_throttled

router = APIRouter()


class PreviewIn(BaseModel):
    variant: str = Field("super16", max_length=20)
    roster: dict = Field(default_factory=dict)
    letter: str = Field(max_length=2)
    square: str = Field(max_length=4)


class SavedRosterIn(BaseModel):
    variant: str = Field("super16", max_length=20)
    roster: dict


def roster_in(data: dict | None, variant_name: str) -> Roster:
    """A roster from its JSON form, validated for the variant; HTTP 400 naming the problem."""
    try:
        roster = Roster.from_data(data or {})
        validate_roster(variants.variant_of(variant_name), roster)
    except ProgramError as e:
        raise HTTPException(400, str(e)) from None
    return roster


def stored_roster(text: str | None) -> tuple[dict | None, str | None]:
    """A stored roster in its JSON form, or None and why it cannot be read (stored by an earlier,
    laxer version): such a row must not break the lists and pages that show it."""
    try:
        return Roster.parse(text or "").to_data(), None
    except ProgramError as e:
        return None, f"this roster cannot be read ({e})"


@router.post("/api/rosters/preview")
async def preview(body: PreviewIn, request: Request, s: ServicesDep) -> dict:
    if not variants.vector_pieces(body.variant):
        raise HTTPException(400, f"unknown variant {body.variant!r}")
    client = client_of(request)
    refuse_if_throttled((s.previews, client), what="roster previews")
    s.previews.take(client)
    try:
        return await s.offload.run_in_process(preview_answer, body.variant, body.roster, body.letter, body.square)
    except ValueError as e:  # ProgramError, or a square that is not on the board
        raise HTTPException(400, str(e)) from None


@router.get("/api/rosters")
def saved_rosters(who: VisitorDep, s: ServicesDep) -> dict:
    return {"rosters": [_saved(r) for r in s.store.rosters_of(_account(who).id)]}


@router.put("/api/rosters/{name:path}")
async def save_roster(name: str, body: SavedRosterIn, who: VisitorDep, s: ServicesDep) -> dict:
    p = _account(who)
    name = name.strip()
    if not 1 <= len(name) <= 40:
        raise HTTPException(400, "a roster name has 1 to 40 characters")
    if not variants.vector_pieces(body.variant):
        raise HTTPException(400, f"unknown variant {body.variant!r}")
    roster = await s.offload.run(roster_in, body.roster, body.variant)
    return _saved(s.store.save_roster(p.id, name, body.variant, roster.text(), s.now()))


@router.delete("/api/rosters/{name:path}")
def delete_roster(name: str, who: VisitorDep, s: ServicesDep) -> dict:
    if not s.store.delete_roster(_account(who).id, name.strip()):
        raise HTTPException(404, f"no saved roster named {name.strip()!r}")
    return {"ok": True}


def _account(who: Visitor) -> PlayerRow:
    if who.player is None or who.player.password_hash is None:
        raise HTTPException(403, "guests keep their rosters in this browser; log in to keep them on the server")
    return who.player


def _saved(row: SavedRosterRow) -> dict:
    roster, problem = stored_roster(row.roster)
    return {"name": row.name, "variant": row.variant, "roster": roster, **({"problem": problem} if problem else {})}
