"""The `superchess` command: the layers exposed on the command line."""
from __future__ import annotations

import os
import socket
import sys

import click

from .rules import VARIANTS, Board, Roster


def _board(variant: str, fen: str | None, moves: tuple[str, ...] = (), roster1: str = "",
           roster2: str = "") -> Board:
    rosters = (Roster.parse(roster1), Roster.parse(roster2)) if roster1 or roster2 else None
    board = Board(variant, fen, rosters)
    for text in (w for arg in moves for w in arg.split()):
        board.push_text(text)
    return board


variant_option = click.option("--variant", "-v", type=click.Choice(tuple(VARIANTS)), default="super16",
                              show_default=True, help="Variant name.")
fen_option = click.option("--fen", default=None, help="Start position (extended FEN); default: the variant's array.")
roster_options = [
    click.option("--roster1", default="", help="Player 1's reprogrammed pieces, e.g. 'N:jump:1,2/2,1'."),
    click.option("--roster2", default="", help="Player 2's reprogrammed pieces."),
]


def _with_rosters(f):
    for opt in reversed(roster_options):
        f = opt(f)
    return f


@click.group()
def cli() -> None:
    """Large-board chess variants: rules, engine and game server."""


@cli.command()
@variant_option
@fen_option
@_with_rosters
@click.option("--moves", "moves_flag", is_flag=True, help="The moves that follow are played first.")
@click.argument("moves", nargs=-1)
def moves(variant: str, fen: str | None, roster1: str, roster2: str, moves_flag: bool,
          moves: tuple[str, ...]) -> None:
    """Print the legal moves, one per line, sorted."""
    board = _board(variant, fen, moves, roster1, roster2)
    for mv in board.legal_moves:
        click.echo(mv.text)


@cli.command("perft")
@variant_option
@fen_option
@_with_rosters
@click.option("--depth", "-d", type=click.IntRange(0, 12), required=True, help="Plies to search.")
@click.option("--divide", "show_divide", is_flag=True, help="Also print the count below each move.")
def perft_cmd(variant: str, fen: str | None, roster1: str, roster2: str, depth: int, show_divide: bool) -> None:
    """Count the leaf nodes of the legal move tree; the last line is the count alone."""
    board = _board(variant, fen, (), roster1, roster2)
    if show_divide and depth >= 1:
        rows = board.divide(depth)
        for move, n in rows:
            click.echo(f"{move.text}: {n}")
        click.echo(sum(n for _, n in rows))
    else:
        click.echo(board.perft(depth))


@cli.command()
@variant_option
def fen(variant: str) -> None:
    """Print the variant's start FEN."""
    click.echo(Board(variant).fen())


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="Port.")
@click.option("--data", default="data", show_default=True, help="Folder for the embedded (SQLite) database.")
@click.option("--db", "db_url", envvar="SUPERCHESS_DB", default=None, show_envvar=True,
              help="Database URL instead of the data folder, e.g. postgresql://user@host/superchess.")
@click.option("--allowed-origins", envvar="SUPERCHESS_ALLOWED_ORIGINS", default="", show_envvar=True,
              help="Comma-separated origins (e.g. https://chess.example.org) browsers may act from besides "
                   "the server's own (the Host it is addressed by), for deployments behind a proxy.")
@click.option("--trusted-proxies", envvar="SUPERCHESS_TRUSTED_PROXIES", default="127.0.0.1", show_default=True,
              show_envvar=True, help="Comma-separated addresses (or *) whose X-Forwarded-For and "
                                     "X-Forwarded-Proto headers are believed: the client's address and https.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Server processes on this port (with --db postgresql://... only: they share the games).")
@click.option("--log-level", envvar="SUPERCHESS_LOG_LEVEL", default="warning", show_default=True, show_envvar=True,
              type=click.Choice(["debug", "info", "warning", "error"]), help="info: also every request.")
@click.option("--log-format", envvar="SUPERCHESS_LOG_FORMAT", default="text", show_default=True, show_envvar=True,
              type=click.Choice(["text", "json"]), help="json: one object a line, with request and game ids.")
def serve(host: str, port: int, data: str, db_url: str | None, allowed_origins: str, trusted_proxies: str,
          workers: int, log_level: str, log_format: str) -> None:
    """Run the game server (with its embedded database) and print the URL to open."""
    import gc

    import uvicorn

    from .server.app import configure_logs, create_app

    configure_logs(log_level, log_format)
    if workers > 1:
        if not (db_url or "").startswith(("postgresql", "postgres:")):
            raise click.UsageError("--workers above 1 needs --db postgresql://...: SQLite serves one process")
        _serve_workers(["serve", "--host", host, "--port", str(port), "--db", db_url, "--allowed-origins",
                        allowed_origins, "--trusted-proxies", trusted_proxies, "--log-level", log_level,
                        "--log-format", log_format], workers)
        return

    app = create_app(data, db_url=db_url, allowed_origins=[o.strip() for o in allowed_origins.split(",") if o.strip()],
                     start_computer=True, start_analysis=True)
    # the rules tables and the app are long-lived: keep them out of the collector's full passes,
    # and collect young objects less often (each move allocates thousands of short-lived ones)
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    kept = "the database" if db_url else f"{data}/"
    click.echo(f"superchess: starting (games are kept in {kept})")
    # per-message deflate costs more CPU than it saves on small, frequent game messages
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws_per_message_deflate=False,
                            proxy_headers=True, forwarded_allow_ips=trusted_proxies)

    class AnnouncedServer(uvicorn.Server):
        """Prints where to open the site once it answers (after the start-up, the port bound)."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                click.echo(f"superchess: open http://{host}:{port}/ in a browser")

    # one of `--workers` servers: the port is shared
    AnnouncedServer(config).run(
        sockets=[_reused_port(host, port)] if os.environ.get("SUPERCHESS_REUSE_PORT") else None)


def _reused_port(host: str, port: int) -> socket.socket:
    """A listening socket on the port that other processes bind too (`--workers`)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    return sock


def _serve_workers(argv: list[str], workers: int) -> None:
    """`workers` servers `superchess <argv>` on one port (each binds it with SO_REUSEPORT: the
    kernel spreads the connections), each its own process over the shared database; stopping
    this one stops them."""
    import signal
    import subprocess

    env = {**os.environ, "SUPERCHESS_REUSE_PORT": "1"}
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stopped: stop the servers (below)
    children = [subprocess.Popen([sys.executable, "-m", "superchess.cli", *argv], env=env) for _ in range(workers)]
    try:
        for child in children:
            child.wait()
    except KeyboardInterrupt:
        pass
    finally:
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        for child in children:
            child.wait()


@cli.group()
def db() -> None:
    """The server's database."""


@db.command("upgrade")
@click.option("--data", default="data", show_default=True, help="Folder of the embedded (SQLite) database.")
@click.option("--db", "db_url", envvar="SUPERCHESS_DB", default=None, show_envvar=True,
              help="Database URL instead of the data folder, e.g. postgresql://user@host/superchess.")
def db_upgrade(data: str, db_url: str | None) -> None:
    """Apply the schema migrations the database lacks (the server also does at start-up)."""
    from .server.app import upgrade_database

    click.echo(f"superchess: the database is at revision {upgrade_database(data, db_url)} (the newest)")


@cli.command()
def engine() -> None:
    """Speak UCI on standard input and output (the engine for chess GUIs and tools)."""
    from .engine.uci import run

    run()


def main(argv: list[str] | None = None) -> int:
    """Entry point: errors become one line on stderr and a non-zero exit code."""
    try:
        cli.main(args=argv, prog_name="superchess", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as e:
        click.echo(e.ctx.get_help())
        return 0
    except click.ClickException as e:
        click.echo(f"superchess: error: {e.format_message()}", err=True)
        return 2
    except click.exceptions.Abort:
        return 130
    except ValueError as e:
        click.echo(f"superchess: error: {e}", err=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
