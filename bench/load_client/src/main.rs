//! The play phase of bench/load.py as a compiled client (`--client native`): every side of every
//! game on one thread, so that the load generator costs the machine little next to the server.
//!
//! stdin: a plan (one JSON line), later `go`, later end of file. stdout: `{"ready": true, "failed":
//! K}` once every side has its initial state (or failed), then after play one JSON report. The
//! sockets stay open until stdin ends, so that load.py reads this process's CPU time first.

#![forbid(unsafe_code)]

mod game;
mod protocol;
mod rng;
mod run;
mod side;

use game::Game;
use protocol::{Plan, Report};
use run::{Phase, Run};
use std::cell::RefCell;
use std::io::Write;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, BufReader, Lines, Stdin};
use tokio::sync::watch;
use tokio::task::{spawn_local, LocalSet};

fn main() -> ExitCode {
    // one thread plays every side, like load.py's asyncio client
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => return fail(&format!("runtime: {e}")),
    };
    match LocalSet::new().block_on(&runtime, drive()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

fn fail(text: &str) -> ExitCode {
    eprintln!("load_client: {text}");
    ExitCode::FAILURE
}

async fn drive() -> Result<(), String> {
    let mut stdin = BufReader::new(tokio::io::stdin()).lines();
    let plan: Plan = serde_json::from_str(&next_line(&mut stdin).await?.ok_or("no plan on stdin")?)
        .map_err(|e| format!("plan: {e}"))?;
    let (phase_tx, phase_rx) = watch::channel(Phase::Connect);
    let sides = plan.games.iter().map(|g| g.sides.len()).sum();
    let run = Rc::new(Run::new(
        plan.connect_concurrency,
        phase_rx,
        sides,
        plan.games.len(),
    ));
    let think = plan.think_ms / 1000.0;
    let mut games = Vec::with_capacity(plan.games.len());
    let mut tasks = Vec::with_capacity(sides);
    for g in plan.games {
        let game = Rc::new(RefCell::new(Game::new(
            g.index,
            g.seed,
            g.plies,
            think,
            g.sides.len(),
        )));
        for (k, s) in g.sides.into_iter().enumerate() {
            tasks.push(spawn_local(side::play_side(
                run.clone(),
                game.clone(),
                k,
                s.url,
                s.cookie,
            )));
        }
        games.push(game);
    }

    let failed = run.connected().await;
    write_line(&serde_json::json!({"ready": true, "failed": failed}))?;
    match next_line(&mut stdin).await?.as_deref().map(str::trim) {
        Some("go") => {}
        other => return Err(format!("expected `go` on stdin, got {other:?}")),
    }
    let t0 = Instant::now();
    phase_tx.send_replace(Phase::Play);
    let timeout =
        Duration::try_from_secs_f64(plan.timeout_s).map_err(|e| format!("timeout_s: {e}"))?;
    let (end, timed_out) = match tokio::time::timeout(timeout, run.finished()).await {
        Ok(end) => (end, false),
        Err(_) => (Instant::now(), true),
    };
    write_line(&Report {
        wall: end.duration_since(t0).as_secs_f64(),
        timed_out,
        games: games.iter().map(|g| g.borrow().report(t0)).collect(),
    })?;

    while next_line(&mut stdin).await?.is_some() {}
    phase_tx.send_replace(Phase::Close);
    for task in tasks {
        task.await.map_err(|e| format!("a side's task: {e}"))?;
    }
    Ok(())
}

async fn next_line(stdin: &mut Lines<BufReader<Stdin>>) -> Result<Option<String>, String> {
    stdin.next_line().await.map_err(|e| format!("stdin: {e}"))
}

fn write_line(value: &impl serde::Serialize) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer(&mut out, value).map_err(|e| format!("stdout: {e}"))?;
    out.write_all(b"\n")
        .and_then(|()| out.flush())
        .map_err(|e| format!("stdout: {e}"))
}
