"""Health and readiness, for a load balancer or an orchestrator (docs/deploy.md): `/healthz` answers
from the process alone (it touches no game state and no database: the event loop turns); `/readyz`
checks that the database answers (and, with several processes, that this one hears the others)."""
from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ..services import ServicesDep

READY_TIMEOUT_S = 2.0  # a database slower than this to answer `SELECT 1` counts as unavailable

router = APIRouter(include_in_schema=False)


@router.get("/healthz")
async def healthz() -> dict:
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(s: ServicesDep) -> JSONResponse:
    try:
        await asyncio.wait_for(asyncio.to_thread(s.store.ping), READY_TIMEOUT_S)
    except Exception as e:  # unreachable, refusing, or too slow
        return JSONResponse({"status": "unavailable", "detail": f"the database does not answer: "
                                                               f"{type(e).__name__}"}, status_code=503)
    cluster = s.hub.cluster
    if cluster is not None and not cluster.listening:
        return JSONResponse({"status": "unavailable", "detail": "not listening to the other processes"},
                            status_code=503)
    return JSONResponse({"status": "ready"})
