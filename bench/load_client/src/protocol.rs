//! What crosses the pipes to bench/load.py (the plan in, the report out) and the parts of the
//! server's websocket messages the client reads.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::borrow::Cow;

/// The first line on stdin.
#[derive(Deserialize)]
pub struct Plan {
    pub think_ms: f64,
    pub games: Vec<PlannedGame>,
    pub connect_concurrency: usize,
    pub timeout_s: f64,
}

#[derive(Deserialize)]
pub struct PlannedGame {
    pub index: u64,
    pub seed: i64,
    pub plies: usize,
    /// sides[k] is the player of side k.
    pub sides: Vec<PlannedSide>,
}

#[derive(Deserialize)]
pub struct PlannedSide {
    pub url: String,
    pub cookie: String,
}

/// The one line on stdout after play.
#[derive(Serialize)]
pub struct Report {
    /// Seconds from `go` to the last game's end (or to the timeout).
    pub wall: f64,
    pub timed_out: bool,
    pub games: Vec<GameReport>,
}

#[derive(Serialize)]
pub struct GameReport {
    pub index: u64,
    /// The move chosen for each ply (null for a ply never chosen: the plies should be contiguous).
    pub sent: Vec<Option<String>>,
    /// When each ply's move was sent, seconds since `go` (null if chosen but not sent yet).
    pub sent_at: Vec<Option<f64>>,
    pub sides: Vec<SideReport>,
    pub latencies: Vec<f64>,
    /// (ply, send time since `go`, latency), seconds.
    pub samples: Vec<(usize, f64, f64)>,
    pub errors: Vec<String>,
    pub version_faults: u32,
}

#[derive(Serialize)]
pub struct SideReport {
    pub observed: Vec<String>,
    pub latest: Option<Latest>,
}

/// The last state a side received, as far as load.py looks at it.
#[derive(Serialize, Deserialize)]
pub struct Latest {
    pub status: String,
    #[serde(default)]
    pub termination: Option<String>,
    pub moves: Vec<String>,
}

/// A message from the server, parsed no further than play needs.
#[derive(Deserialize)]
pub struct Incoming<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Cow<'a, str>,
    #[serde(default)]
    pub version: Option<i64>,
    #[serde(default, borrow)]
    pub message: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    pub event: Option<Event<'a>>,
    #[serde(default, borrow)]
    pub state: Option<State<'a>>,
}

#[derive(Deserialize)]
pub struct Event<'a> {
    #[serde(borrow)]
    pub kind: Cow<'a, str>,
    #[serde(rename = "move", default)]
    pub mv: Option<String>,
    #[serde(default)]
    pub side: Option<i64>,
}

#[derive(Deserialize)]
pub struct State<'a> {
    #[serde(borrow)]
    pub status: Cow<'a, str>,
    #[serde(default)]
    pub turn: Option<i64>,
    /// Only counted: the ply is their number.
    pub moves: Vec<serde::de::IgnoredAny>,
    /// Parsed only by the side to move.
    #[serde(default, borrow)]
    pub legal: Option<&'a RawValue>,
}

/// The `state.legal` of the side to move: origin -> moves.
pub type Legal<'a> = std::collections::HashMap<Cow<'a, str>, Vec<LegalMove<'a>>>;

/// A plain move is its text after the origin; a move that lists its captures is an object with
/// the whole move in `move`.
#[derive(Deserialize)]
#[serde(untagged)]
pub enum LegalMove<'a> {
    Tail(#[serde(borrow)] Cow<'a, str>),
    Whole {
        #[serde(rename = "move", borrow)]
        mv: Cow<'a, str>,
    },
}

/// The message that plays a move.
#[derive(Serialize)]
pub struct MoveMessage<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    #[serde(rename = "move")]
    pub mv: &'a str,
}

/// A stored state message, read again for the report.
#[derive(Deserialize)]
pub struct LatestMessage {
    pub state: Latest,
}
