"""What the board page draws of a variant: its cells (shapes and centres) and its pieces."""
from __future__ import annotations

from fastapi import APIRouter, HTTPException

from .. import variants

router = APIRouter()


@router.get("/api/variants/{variant}/layout")
def variant_layout(variant: str) -> dict:
    """The board description the page draws: cells with their shapes and centres."""
    if not variants.known(variant):
        raise HTTPException(404, f"unknown variant {variant!r}")
    return variants.layout(variants.variant_of(variant).geometry)


@router.get("/api/variants/{variant}/pieces")
def variant_pieces(variant: str) -> dict:
    """Every piece type of the variant, one entry per letter (InterGrid's two armies share theirs)."""
    if not variants.known(variant):
        raise HTTPException(404, f"unknown variant {variant!r}")
    v = variants.variant_of(variant)
    return {"variant": v.name, "files": v.geometry.files, "ranks": v.geometry.ranks,
            "reprogrammable": v.reprogrammable, "start_fen": v.start_fen,
            "pieces": variants.piece_entries(v)}
