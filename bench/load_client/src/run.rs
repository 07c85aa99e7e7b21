//! What every socket task of one run shares: the phase, the connection slots, and the counts
//! that tell the driver when every side is connected and when every game is over.

use std::cell::Cell;
use std::time::Instant;
use tokio::sync::{watch, Notify, Semaphore};

#[derive(Clone, Copy)]
pub enum Phase {
    /// Opening the websockets; sides read but do not move.
    Connect,
    /// `go` was read: sides move.
    Play,
    /// The report is out: close the sockets.
    Close,
}

pub struct Run {
    /// Websocket handshakes (up to each side's initial state) in flight at once.
    pub connect_slots: Semaphore,
    pub phase: watch::Receiver<Phase>,
    unconnected: Cell<usize>,
    failed: Cell<usize>,
    all_connected: Notify,
    unfinished: Cell<usize>,
    ended_at: Cell<Option<Instant>>,
    all_finished: Notify,
}

impl Run {
    pub fn new(
        connect_concurrency: usize,
        phase: watch::Receiver<Phase>,
        sides: usize,
        games: usize,
    ) -> Self {
        let run = Self {
            connect_slots: Semaphore::new(connect_concurrency.max(1)),
            phase,
            unconnected: Cell::new(sides),
            failed: Cell::new(0),
            all_connected: Notify::new(),
            unfinished: Cell::new(games),
            ended_at: Cell::new(None),
            all_finished: Notify::new(),
        };
        if sides == 0 {
            run.all_connected.notify_one();
        }
        if games == 0 {
            run.ended_at.set(Some(Instant::now()));
            run.all_finished.notify_one();
        }
        run
    }

    /// A side got its initial state (`ok`) or will never get it.
    pub fn side_connected(&self, ok: bool) {
        if !ok {
            self.failed.set(self.failed.get() + 1);
        }
        self.unconnected.set(self.unconnected.get() - 1);
        if self.unconnected.get() == 0 {
            self.all_connected.notify_one();
        }
    }

    pub fn game_finished(&self) {
        self.unfinished.set(self.unfinished.get() - 1);
        if self.unfinished.get() == 0 {
            self.ended_at.set(Some(Instant::now()));
            self.all_finished.notify_one();
        }
    }

    /// Every side connected or failed; how many failed.
    pub async fn connected(&self) -> usize {
        self.all_connected.notified().await;
        self.failed.get()
    }

    /// Every game over; when the last one ended.
    pub async fn finished(&self) -> Instant {
        self.all_finished.notified().await;
        self.ended_at.get().unwrap_or_else(Instant::now)
    }
}
