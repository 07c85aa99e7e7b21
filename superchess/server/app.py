"""The server application: its services, start-up and shutdown, the middleware every request
passes (the Origin check, security headers, the body cap) and the routers (`server/routers/`)."""
from __future__ import annotations

import asyncio
import time
from concurrent.futures import Executor
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Callable, Iterable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from . import schema, variants
from .ai import default_executor
from .analysis import analysis_pool
from .limits import BodyLimit
from .logs import RequestIds
from .logs import configure as configure_logs
from .passwords import Passwords
from .routers import ROUTERS
from .security import BrowserGuard
from .services import Services
from .store import Store

__all__ = ["configure_logs", "create_app", "upgrade_database"]  # what the command line uses

MAX_BODY = 16384  # bytes of one HTTP request body
PURGE_EVERY_S = 3600  # expired sessions and idle guests without games are dropped this often


def create_app(data_dir: str | Path = "data", db_url: str | None = None,
               now: Callable[[], int] | None = None,
               ai_executor: Callable[[], Executor] = default_executor,
               allowed_origins: Iterable[str] = (), passwords: Passwords | None = None,
               start_computer: bool = False, analysis_executor: Callable[[], Executor] = analysis_pool,
               start_analysis: bool = False) -> FastAPI:
    """The server application. `now` (milliseconds) can be injected so tests drive the clocks
    and the throttles' windows; `ai_executor` makes the pool the computer thinks in (a process
    pool by default); `allowed_origins` are origins besides the server's own that browsers may
    act from (security.py); `passwords` hashes and checks passwords (argon2id defaults);
    `start_computer`: start and warm the computer's worker during the start-up (`serve` does)
    rather than at its first move; `analysis_executor` makes the analysis board's pool, which
    `start_analysis` starts and warms at the end of the start-up without waiting for it (`serve`
    does) rather than at the first analysis."""
    now = now or (lambda: int(time.time() * 1000))
    store = Store(db_url) if db_url else Store.in_folder(data_dir)
    services = Services.create(store, now, ai_executor, passwords or Passwords(), analysis_executor)

    async def purge_regularly() -> None:
        while True:
            await asyncio.sleep(PURGE_EVERY_S)
            await asyncio.to_thread(store.purge, now())

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        warming = services.hub.ai.warm() if start_computer else None  # in the worker, beside the start-up
        variants.load_all()
        store.purge(now())  # before serving: nothing waits for it
        if warming is not None:
            await warming
        if start_analysis:  # after the computer's warm-up (the cores are few); the server does not wait
            await asyncio.to_thread(services.analyses.start)
        services.hub.resume()  # the games' clocks run from the end of the start-up
        services.lobby.resume()
        cluster = services.hub.cluster
        if cluster is not None:
            await cluster.start()  # the games nobody owns are taken over before serving
        purging = asyncio.create_task(purge_regularly())
        yield
        purging.cancel()
        with suppress(asyncio.CancelledError):
            await purging
        if cluster is not None:
            await cluster.close()
        services.close()

    app = FastAPI(title="superchess", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.services = services
    app.add_exception_handler(RequestValidationError, bad_request)
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(BrowserGuard, allowed_origins=allowed_origins)  # also on 413s
    app.add_middleware(RequestIds)  # outermost: every response has its id
    for router in ROUTERS:
        app.include_router(router)
    return app


def upgrade_database(data_dir: str | Path, db_url: str | None) -> str:
    """Bring the database (the data folder's, or at `db_url`) to the newest schema, as a start-up
    does (`superchess db upgrade`); the revision it is at."""
    store = Store(db_url) if db_url else Store.in_folder(data_dir)
    try:
        return schema.revision(store.engine)
    finally:
        store.engine.dispose()


async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
    """A request the endpoint's model refuses: HTTP 400 naming the first bad field."""
    first = exc.errors()[0] if exc.errors() else {}
    where = ".".join(x for x in first.get("loc", ())[1:] if isinstance(x, str)) or "request body"
    return JSONResponse({"detail": f"bad {where}: {first.get('msg', 'invalid')}"}, status_code=400)
