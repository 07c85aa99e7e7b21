//! One game's play as its two sides see it: the same rules as `Side.on_state` and
//! `Side.maybe_move` in bench/load.py, kept free of I/O (the socket tasks in `side` do that).

use crate::protocol::{GameReport, Incoming, LatestMessage, Legal, LegalMove, SideReport, State};
use crate::rng::SplitMix64;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Utf8Bytes;

pub struct Game {
    index: u64,
    plies: usize,
    /// Mean think time, seconds (each move waits uniform 0..2x).
    think: f64,
    rng: SplitMix64,
    /// ply -> (move, when it was sent; None while it waits for its think time)
    sent: BTreeMap<usize, (String, Option<Instant>)>,
    sides: Vec<SideState>,
    /// (ply, send time, latency) of each move as it reached the opponent
    samples: Vec<(usize, Instant, Duration)>,
    errors: Vec<String>,
    version_faults: u32,
}

#[derive(Default)]
struct SideState {
    version: Option<i64>,
    /// The moves of the move events, in the order received.
    observed: Vec<String>,
    /// The last state message (its text: parsed again only at `go` and for the report).
    latest: Option<Utf8Bytes>,
    done: bool,
}

/// What a side's socket task should do after a message or the start signal.
#[derive(Default)]
pub struct Reaction {
    /// The message was a state with no event: the side's initial state.
    pub initial: bool,
    /// A move to send, after its think time if any.
    pub play: Option<Planned>,
    /// This side's end was the last one the game waited for.
    pub game_over: bool,
    /// The message could not be handled: stop reading and close, as load.py's exception does.
    pub stop: bool,
}

pub struct Planned {
    pub ply: usize,
    pub mv: String,
    pub delay: Option<Duration>,
}

impl Game {
    pub fn new(index: u64, seed: i64, plies: usize, think: f64, sides: usize) -> Self {
        Self {
            index,
            plies,
            think,
            rng: SplitMix64::for_game(seed, index),
            sent: BTreeMap::new(),
            sides: (0..sides).map(|_| SideState::default()).collect(),
            samples: Vec::new(),
            errors: Vec::new(),
            version_faults: 0,
        }
    }

    pub fn error(&mut self, side: usize, text: &str) {
        self.errors.push(format!("side {side}: {text}"));
    }

    /// A text message received by side `k` at `received`; `started` once the play has begun.
    pub fn on_message(
        &mut self,
        k: usize,
        text: &Utf8Bytes,
        received: Instant,
        started: bool,
    ) -> Reaction {
        let msg: Incoming = match serde_json::from_str(text) {
            Ok(msg) => msg,
            Err(e) => return self.fail(k, &format!("unreadable message: {e}")),
        };
        match msg.kind.as_ref() {
            "state" => {}
            "error" => {
                self.error(
                    k,
                    &format!("server error: {}", msg.message.as_deref().unwrap_or("")),
                );
                return Reaction::default();
            }
            other => {
                self.error(k, &format!("unexpected message type {other:?}"));
                return Reaction::default();
            }
        }
        if self.sides[k].done {
            return Reaction::default(); // once done, the socket stays open (and idle) until the end
        }
        let Some(state) = msg.state else {
            return self.fail(k, "a state message without a state");
        };
        self.check_version(k, msg.version);
        self.sides[k].latest = Some(text.clone());
        let ply = state.moves.len();
        let initial = msg.event.is_none();
        if let Some(event) = msg.event.filter(|e| e.kind == "move") {
            let Some(mv) = event.mv else {
                return self.fail(k, "a move event without a move");
            };
            self.heard(k, ply.checked_sub(1), mv, event.side, received);
        }
        if state.status != "active" || ply >= self.plies {
            return Reaction {
                initial,
                game_over: self.finish_side(k),
                ..Reaction::default()
            };
        }
        let played = if started {
            self.play(k, &state)
        } else {
            Reaction::default()
        };
        Reaction { initial, ..played }
    }

    /// The start signal: a side already to move moves.
    pub fn on_go(&mut self, k: usize) -> Reaction {
        let side = &self.sides[k];
        let Some(text) = side.latest.clone().filter(|_| !side.done) else {
            return Reaction::default();
        };
        // the text parsed when it arrived, so it parses again
        match serde_json::from_str(&text) {
            Ok(Incoming {
                state: Some(state), ..
            }) => self.play(k, &state),
            _ => Reaction::default(),
        }
    }

    /// The move of `ply` leaves now.
    pub fn mark_sent(&mut self, ply: usize, at: Instant) {
        if let Some(entry) = self.sent.get_mut(&ply) {
            entry.1 = Some(at);
        }
    }

    /// Side `k`'s connection ended (or never opened); true if that ends the game.
    pub fn connection_ended(&mut self, k: usize) -> bool {
        if self.sides[k].done {
            return false;
        }
        self.error(k, "connection ended before the game did");
        self.finish_side(k)
    }

    pub fn report(&self, t0: Instant) -> GameReport {
        let since = |t: Instant| t.saturating_duration_since(t0).as_secs_f64();
        let plies = self.sent.keys().next_back().map_or(0, |last| last + 1);
        let (mut sent, mut sent_at) = (vec![None; plies], vec![None; plies]);
        for (&ply, (mv, at)) in &self.sent {
            sent[ply] = Some(mv.clone());
            sent_at[ply] = at.map(since);
        }
        GameReport {
            index: self.index,
            sent,
            sent_at,
            sides: self
                .sides
                .iter()
                .map(|s| SideReport {
                    observed: s.observed.clone(),
                    latest: s
                        .latest
                        .as_ref()
                        .and_then(|text| serde_json::from_str::<LatestMessage>(text).ok())
                        .map(|m| m.state),
                })
                .collect(),
            latencies: self.samples.iter().map(|s| s.2.as_secs_f64()).collect(),
            samples: self
                .samples
                .iter()
                .map(|&(ply, at, lat)| (ply, since(at), lat.as_secs_f64()))
                .collect(),
            errors: self.errors.clone(),
            version_faults: self.version_faults,
        }
    }

    /// The move side `k` plays in this state, if any.
    fn play(&mut self, k: usize, state: &State) -> Reaction {
        match self.choose(k, state) {
            Ok(play) => Reaction {
                play,
                ..Reaction::default()
            },
            Err(e) => self.fail(k, &e),
        }
    }

    fn fail(&mut self, k: usize, text: &str) -> Reaction {
        self.error(k, text);
        Reaction {
            stop: true,
            ..Reaction::default()
        }
    }

    /// Versions must grow by exactly one per message: no gap, no repeat.
    fn check_version(&mut self, k: usize, version: Option<i64>) {
        if let Some(last) = self.sides[k].version {
            if version != Some(last + 1) {
                let kind = if version.is_some_and(|v| v <= last) {
                    "duplicate/old"
                } else {
                    "gap"
                };
                self.version_faults += 1;
                let now = version.map_or_else(|| "none".to_string(), |v| v.to_string());
                self.error(k, &format!("version {kind}: {last} -> {now}"));
            }
        }
        self.sides[k].version = version;
    }

    /// A move event: noted as observed; the opponent's move gives a latency sample.
    fn heard(
        &mut self,
        k: usize,
        ply: Option<usize>,
        mv: String,
        by: Option<i64>,
        received: Instant,
    ) {
        if by != i64::try_from(k).ok() {
            match ply.and_then(|p| self.sent.get(&p).map(|s| (p, s))) {
                Some((p, (sent, Some(at)))) if *sent == mv => {
                    self.samples.push((p, *at, received - *at))
                }
                other => {
                    let sent = other.map_or("none", |(_, s)| s.0.as_str());
                    let at = ply.map_or_else(|| "-1".to_string(), |p| p.to_string());
                    let text = format!("move event {mv:?} at ply {at} was not sent (sent: {sent})");
                    self.error(k, &text);
                }
            }
        }
        self.sides[k].observed.push(mv);
    }

    /// The move side `k` plays in this state, if it is to move; Err if `legal` is unreadable.
    fn choose(&mut self, k: usize, state: &State) -> Result<Option<Planned>, String> {
        let ply = state.moves.len();
        if state.status != "active"
            || state.turn != i64::try_from(k).ok()
            || self.sent.contains_key(&ply)
            || ply >= self.plies
        {
            return Ok(None);
        }
        let raw = state
            .legal
            .ok_or("to move but the state has no legal moves")?;
        let legal: Legal =
            serde_json::from_str(raw.get()).map_err(|e| format!("unreadable legal moves: {e}"))?;
        let mut choices: Vec<String> = legal
            .iter()
            .flat_map(|(origin, moves)| {
                moves.iter().map(move |m| match m {
                    LegalMove::Tail(tail) => format!("{origin}{tail}"),
                    LegalMove::Whole { mv } => mv.to_string(),
                })
            })
            .collect();
        if choices.is_empty() {
            self.error(k, &format!("to move at ply {ply} but state.legal is empty"));
            return Ok(None);
        }
        choices.sort_unstable();
        let mv = choices.swap_remove(self.rng.below(choices.len()));
        self.sent.insert(ply, (mv.clone(), None));
        let delay =
            (self.think > 0.0).then(|| Duration::from_secs_f64(self.rng.unit() * 2.0 * self.think));
        Ok(Some(Planned { ply, mv, delay }))
    }

    /// Side `k` is done; true if it was the last side of the game still playing.
    fn finish_side(&mut self, k: usize) -> bool {
        self.sides[k].done = true;
        self.sides.iter().all(|s| s.done)
    }
}

#[cfg(test)]
mod tests {
    use super::Game;
    use std::time::{Duration, Instant};
    use tokio_tungstenite::tungstenite::Utf8Bytes;

    fn state(version: i64, turn: i64, moves: &[&str], legal: &str, event: &str) -> Utf8Bytes {
        let moves = serde_json::to_string(moves).unwrap();
        format!(
            r#"{{"type":"state","version":{version},"state":{{"status":"active","turn":{turn},"moves":{moves},"legal":{legal}}}{event}}}"#
        )
        .into()
    }

    #[test]
    fn the_side_to_move_picks_a_listed_move_and_the_opponent_times_it() {
        let mut game = Game::new(0, 1, 40, 0.0, 2);
        let now = Instant::now();
        let legal = r#"{"a1":["a2","a3"],"b1":[{"to":"b2","move":"b1b2xc3","captures":["c3"]}]}"#;
        assert!(
            game.on_message(0, &state(1, 0, &[], legal, ""), now, false)
                .initial
        );
        assert!(game
            .on_message(1, &state(1, 0, &[], "{}", ""), now, false)
            .play
            .is_none());
        let play = game.on_go(0).play.expect("side 0 is to move");
        assert!(["a1a2", "a1a3", "b1b2xc3"].contains(&play.mv.as_str()));
        assert!(game.on_go(0).play.is_none(), "a ply is chosen once");
        assert!(game.on_go(1).play.is_none(), "not side 1's turn");
        game.mark_sent(0, now);
        let event = format!(
            r#","event":{{"kind":"move","move":"{}","side":0}}"#,
            play.mv
        );
        let later = now + Duration::from_millis(5);
        game.on_message(
            1,
            &state(2, 1, &[&play.mv], r#"{"h8":["h7"]}"#, &event),
            later,
            true,
        );
        assert_eq!(game.samples, [(0, now, Duration::from_millis(5))]);
        assert!(game.errors.is_empty(), "{:?}", game.errors);
    }

    #[test]
    fn a_version_gap_or_an_unsent_move_is_a_fault() {
        let mut game = Game::new(0, 1, 40, 0.0, 2);
        let now = Instant::now();
        game.on_message(1, &state(1, 0, &[], "{}", ""), now, true);
        let event = r#","event":{"kind":"move","move":"a1a2","side":0}"#;
        game.on_message(1, &state(3, 1, &["a1a2"], "{}", event), now, false);
        assert_eq!(game.version_faults, 1);
        assert_eq!(game.errors.len(), 2, "{:?}", game.errors);
        assert!(game.samples.is_empty());
    }

    #[test]
    fn a_game_is_over_when_both_sides_are_done() {
        let mut game = Game::new(0, 1, 1, 0.0, 2);
        let now = Instant::now();
        assert!(
            !game
                .on_message(0, &state(1, 1, &["a1a2"], "{}", ""), now, true)
                .game_over
        );
        assert!(game.connection_ended(1));
        assert_eq!(
            game.errors,
            ["side 1: connection ended before the game did"]
        );
    }
}
