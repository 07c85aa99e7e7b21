"""Creating matches: the options a match form lists, a match with a person (open, or addressed to
an account) or with the computer, and a generated set-up shown before the match is made."""
from __future__ import annotations

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field

from ...rules import Board, FenError
from ...rules.game.preview import roster_problem
from ...rules.game.setups import random_substitution, substitution_fen
from .. import ratings, variants
from ..accounts import Visitor
from ..ai import LEVELS
from ..clock import SPEEDS, TIME_CONTROLS
from ..live import MODES
from ..services import ServicesDep, VisitorDep
from ..store import GameRow, PlayerRow, waiting_game
from .rosters import roster_in

router = APIRouter()


class MatchIn(BaseModel):
    variant: str = Field("super16", max_length=20)
    time_control: str = Field("blitz-3+2", max_length=30)
    creator_side: int = Field(0, ge=0, le=1)
    fen: str | None = Field(None, max_length=1000)
    invite: str | None = Field(None, max_length=40)
    mode: str = Field("default", max_length=10)
    roster: dict | None = None  # Symmetric mode: the proposed roster
    # variants with generated set-ups (Superchess): a seed, or the substitutes square by square;
    # neither: a random set-up
    setup_seed: str | None = Field(None, max_length=40)
    setup_squares: dict[str, str] | None = None


class ComputerMatchIn(MatchIn):
    level: int = Field(3, ge=1, le=8)


class SetupIn(BaseModel):
    variant: str = Field("superchess", max_length=20)
    seed: str | None = Field(None, max_length=40)
    squares: dict[str, str] | None = None


@router.get("/api/options")
def options() -> dict:
    return {"variants": [variants.option(v) for v in variants.names()],
            "time_controls": [{"id": tc.id, "name": tc.name, "initial": tc.initial_ms // 1000,
                               "increment": tc.increment_ms // 1000, "daily": tc.daily, "speed": tc.speed}
                              for tc in TIME_CONTROLS.values()],
            "levels": list(LEVELS), "speeds": list(SPEEDS), "rating_variants": list(ratings.rating_variants())}


@router.post("/api/matches")
async def create_match(body: MatchIn, who: VisitorDep, s: ServicesDep) -> dict:
    invited = None
    if body.invite:
        invited = s.store.player_by_name(body.invite.strip())
        if invited is None or invited.password_hash is None:
            raise HTTPException(404, f"no account named {body.invite.strip()!r}")
        if invited.id == who.id:
            raise HTTPException(400, "you cannot invite yourself")
    row = await s.offload.run(new_game, body, who, s.now(), invited)
    s.store.add_game(row)
    return {"game_id": row.id, "invite_url": f"/invite/{row.invite_token}"}


@router.post("/api/matches/computer")
async def play_computer(body: ComputerMatchIn, who: VisitorDep, s: ServicesDep) -> dict:
    if body.invite:
        raise HTTPException(400, "a game against the computer invites nobody")
    row = await s.offload.run(new_game, body, who, s.now())
    bot = s.store.bot(body.level, s.now())
    setattr(row, f"player{body.creator_side ^ 1}_id", bot.id)
    s.store.add_game(row)
    await s.hub.start_game(row.id, row.player0_id, row.player1_id)
    return {"game_id": row.id}


@router.post("/api/setups/preview")
async def setup_preview(body: SetupIn, s: ServicesDep) -> dict:
    """The "new shuffle" control: a set-up (random, from a seed, or square by square) to show
    before the match is created."""
    if not variants.known(body.variant):
        raise HTTPException(400, f"unknown variant {body.variant!r}")
    return await s.offload.run(_setup, body.variant, body.seed, body.squares)


def new_game(body: MatchIn, creator: Visitor, now: int, invited: PlayerRow | None = None) -> GameRow:
    """A validated match created at `now` (HTTP 400 naming what is wrong), not yet stored; a
    creator without an identity gets one (a guest) once the match is valid. Rules work: run it off
    the event loop."""
    if not variants.known(body.variant):
        raise HTTPException(400, f"unknown variant {body.variant!r}")
    if body.time_control not in TIME_CONTROLS:
        raise HTTPException(400, f"unknown time control {body.time_control!r}")
    fen = body.fen.strip() if body.fen and body.fen.strip() else None
    if body.mode == "prelude" and (fen or body.setup_seed or body.setup_squares):
        raise HTTPException(400, "in a prelude the players choose the set-up: give no FEN, seed or squares")
    if fen is None and variants.variant_of(body.variant).setup and body.mode != "prelude":
        fen = _setup(body.variant, body.setup_seed, body.setup_squares)["fen"]
    elif body.setup_seed or body.setup_squares:
        raise HTTPException(400, "a set-up choice needs a variant with generated set-ups and no FEN")
    try:
        start = Board(body.variant, fen)
    except FenError as e:
        raise HTTPException(400, f"bad start position: {e}") from None
    _playable_start(start)
    if body.mode not in MODES:
        raise HTTPException(400, f"unknown mode {body.mode!r} (default, private, symmetric or prelude)")
    if body.mode in ("private", "symmetric") and not variants.variant_of(body.variant).reprogrammable:
        raise HTTPException(400, f"{body.variant} pieces cannot be reprogrammed: use the default mode")
    if body.mode == "prelude" and not variants.variant_of(body.variant).setup:
        raise HTTPException(400, f"{body.variant} has no prelude: use the default mode")
    proposal = None
    if body.mode == "symmetric":
        proposal = roster_in(body.roster, body.variant)
        if not proposal:
            raise HTTPException(400, "symmetric mode needs a roster to propose")
        for side in (0, 1):
            problem = roster_problem(variants.variant_of(body.variant), proposal, side, fen)
            if problem:
                raise HTTPException(400, problem)
        _playable_start(Board(body.variant, fen, (proposal, proposal)))
    elif body.roster:
        raise HTTPException(400, "only symmetric mode takes a roster at creation")
    return waiting_game(body.variant, body.time_control, creator.player_or_guest().id, body.creator_side, now,
                        start_fen=fen, mode=body.mode, roster=proposal.text() if proposal else None,
                        invited_id=invited.id if invited else None)


def _setup(variant_name: str, seed: str | None, squares: dict[str, str] | None) -> dict:
    """A generated start position: explicit squares, else from the seed, else random."""
    v = variants.variant_of(variant_name)
    if not v.setup:
        raise HTTPException(400, f"{variant_name} has no generated set-ups")
    choice = squares if squares else random_substitution(v, seed or None)
    try:
        return {"fen": substitution_fen(v, choice), "squares": choice}
    except ValueError as e:
        raise HTTPException(400, f"bad set-up: {e}") from None


def _playable_start(board: Board) -> None:
    """HTTP 400 if the game would be over before its first move (checkmate, stalemate, a dead
    position): such a game could never be played."""
    outcome = board.outcome()
    if outcome:
        raise HTTPException(400, f"the start position is already over ({outcome.termination.value.replace('_', ' ')}): "
                                 "choose a position with a move to play")
