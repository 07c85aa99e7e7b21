"""What the endpoints share, made once per application: the store, the hub of live games (with the
offload its rules work runs in), the lobby, identity, the roster previews' throttle and the clock. The
application keeps them in `app.state.services`; an endpoint receives them through the dependency
`ServicesDep`, and who is asking through `VisitorDep`."""
from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Annotated, Callable

from fastapi import Depends, Request, Response
from fastapi.requests import HTTPConnection

from .accounts import Accounts, Visitor
from .ai import AIPlayers
from .analysis import Analyses, analysis_pool
from .cluster import Cluster
from .hub import Hub
from .lobby import Lobby
from .offload import Offload
from .passwords import Passwords
from .store import Store
from .throttle import Throttle

# roster previews per client address (each may compile a roster's tables: seconds of a worker
# process), per window in ms; the roster editor asks at most a few a second, debounced
PREVIEWS_PER_CLIENT = (60, 60_000)
# analysis-board positions per client address (each replays a line: up to a few tenths of a second
# of a rules thread), per window in ms; a board page asks one per move made or clicked
POSITIONS_PER_CLIENT = (300, 60_000)


@dataclass
class Services:
    store: Store
    hub: Hub
    lobby: Lobby
    accounts: Accounts
    previews: Throttle  # roster previews per client address
    positions: Throttle  # analysis-board positions per client address
    analyses: Analyses  # the engine analyses of the analysis board
    now: Callable[[], int]  # milliseconds

    @classmethod
    def create(cls, store: Store, now: Callable[[], int], ai_executor: Callable[[], Executor],
               passwords: Passwords, analysis_executor: Callable[[], Executor] = analysis_pool) -> "Services":
        """The services over `store`, the computer thinking in pools `ai_executor` makes, the analysis
        board's engine in those `analysis_executor` makes."""
        hub = Hub(store, now)
        hub.ai = AIPlayers(hub, ai_executor)
        lobby = Lobby(store, hub, now)
        if store.shared:  # other processes may serve the same games (cluster.py)
            hub.cluster = lobby.cluster = Cluster(store, hub, lobby)
        return cls(store, hub, lobby, Accounts(store, now, passwords),
                   Throttle(*PREVIEWS_PER_CLIENT, now), Throttle(*POSITIONS_PER_CLIENT, now), Analyses(analysis_executor),
                   now)

    @property
    def offload(self) -> Offload:
        """Where rules work runs, off the event loop."""
        return self.hub.offload

    def close(self) -> None:
        """Stop the worker pools and the lobby's timers (the application's shutdown)."""
        self.lobby.close()
        self.hub.ai.close()
        self.analyses.close()
        self.hub.offload.close()
        self.accounts.passwords.close()


async def services(connection: HTTPConnection) -> Services:
    """Dependency: the application's services (a request or a websocket)."""
    return connection.app.state.services


ServicesDep = Annotated[Services, Depends(services)]


def visitor(request: Request, response: Response, s: ServicesDep) -> Visitor:
    """Dependency of the endpoints that act for someone: who sent the request (`Accounts.visitor`)."""
    return s.accounts.visitor(request, response)


VisitorDep = Annotated[Visitor, Depends(visitor)]
