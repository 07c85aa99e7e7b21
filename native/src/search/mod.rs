//! The native search (`superchess/engine/native_search.py` is its Python glue): alpha-beta on a
//! copy of a native position, with the evaluation tables the Python side builds, a transposition
//! table sized by the `Hash` megabytes, and no GIL held while it thinks.
//!
//! Memory: a searcher holds its transposition table (at most `hash_mb` MB) plus its move-ordering
//! memory (`Heuristics`: 12 bytes per piece code and cell, 0.37 MB on a 16x16 board, plus at most
//! 2 MB of continuation history) and, during a search, a copy of the position and per-ply buffers
//! (well under 1 MB). `Searcher.nbytes` reports the first two.

mod alphabeta;
mod eval;
mod network;
mod see;
mod tt;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::encoding::Move;
use crate::PyPosition;

use alphabeta::{Heuristics, Iteration, Limits, Search};
pub use alphabeta::time_scale;
pub use alphabeta::{MATE, MATE_BOUND};
use eval::EvalTables;
use network::NetworkData;
use tt::Tt;

/// The largest `Hash` accepted, in MB.
const MAX_HASH_MB: usize = 1 << 16;

/// Evaluation tables of one variant and roster pair (see eval.rs).
#[pyclass(name = "Evaluation", module = "superchess._native", frozen)]
pub struct PyEvaluation {
    ev: Arc<EvalTables>,
}

#[pymethods]
impl PyEvaluation {
    /// Per code * n + cell: `mg`, `eg` (Player 1's point of view); per code: `phase`, `value`,
    /// `order_value`, `attack_weight`, `shield`, `minor`; `terms`: eval.toml's [terms];
    /// `insufficient`: "never", "fide" or "lone_minor"; `move_rule`: the claimable half-moves;
    /// `net`: the learned network's weights and each view's input per code * n + cell.
    #[new]
    #[pyo3(signature = (n, files, mg, eg, phase, phase_max, value, order_value, attack_weight,
                        shield, minor, zone_radius, terms, insufficient, move_rule, net=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        n: usize,
        files: usize,
        mg: Vec<i32>,
        eg: Vec<i32>,
        phase: Vec<i32>,
        phase_max: i32,
        value: Vec<i32>,
        order_value: Vec<i32>,
        attack_weight: Vec<i32>,
        shield: Vec<i32>,
        minor: Vec<bool>,
        zone_radius: i32,
        terms: &Bound<PyDict>,
        insufficient: &str,
        move_rule: u32,
        net: Option<NetworkData>,
    ) -> PyResult<PyEvaluation> {
        let ev = EvalTables::new(
            n,
            files,
            mg,
            eg,
            phase,
            phase_max,
            value,
            order_value,
            attack_weight,
            shield,
            minor,
            zone_radius,
            terms,
            insufficient,
            move_rule,
            net,
        )?;
        Ok(PyEvaluation { ev: Arc::new(ev) })
    }

    fn nbytes(&self) -> usize {
        self.ev.nbytes()
    }
}

/// A stop request another thread can make while a search runs.
#[pyclass(name = "StopFlag", module = "superchess._native", frozen)]
pub struct PyStopFlag {
    flag: Arc<AtomicBool>,
}

#[pymethods]
impl PyStopFlag {
    #[new]
    fn new() -> PyStopFlag {
        PyStopFlag {
            flag: Arc::new(AtomicBool::new(false)),
        }
    }

    fn set(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }
}

struct State {
    tt: Tt,
    heuristics: Option<Heuristics>,
}

impl State {
    /// The table and the ordering memory (made afresh for a board of another size).
    fn parts(&mut self, n: usize, types: usize) -> (&mut Tt, &mut Heuristics) {
        if !self.heuristics.as_ref().is_some_and(|h| h.fits(n, types)) {
            self.heuristics = None;
        }
        let h = self.heuristics.get_or_insert_with(|| Heuristics::new(n, types));
        (&mut self.tt, h)
    }
}

/// A searcher: its transposition table and move-ordering memory, kept between searches. Its
/// lock is only ever taken without the GIL, so a search that calls back into Python (progress
/// reports, diagram records) never waits on a thread that waits for it.
#[pyclass(name = "Searcher", module = "superchess._native", frozen)]
pub struct PySearcher {
    hash_mb: usize,
    state: Mutex<State>,
}

impl PySearcher {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn check_tables(pos: &crate::position::Pos, ev: &EvalTables) -> PyResult<()> {
    if pos.t.n != ev.n || pos.t.files != ev.files {
        return Err(PyValueError::new_err(
            "the evaluation was made for another board",
        ));
    }
    Ok(())
}

#[pymethods]
impl PySearcher {
    /// A searcher whose transposition table takes at most `hash_mb` MB.
    #[new]
    fn new(py: Python<'_>, hash_mb: usize) -> PyResult<PySearcher> {
        if hash_mb == 0 || hash_mb > MAX_HASH_MB {
            return Err(PyValueError::new_err(format!(
                "hash_mb must be 1..{MAX_HASH_MB}"
            )));
        }
        let tt = py.allow_threads(|| Tt::new(hash_mb));
        Ok(PySearcher {
            hash_mb,
            state: Mutex::new(State {
                tt,
                heuristics: None,
            }),
        })
    }

    #[getter]
    fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Bytes held between searches: the transposition table and the ordering memory.
    fn nbytes(&self, py: Python<'_>) -> usize {
        py.allow_threads(|| {
            let st = self.lock();
            st.tt.bytes() + st.heuristics.as_ref().map_or(0, |h| h.bytes())
        })
    }

    /// Forgets everything learnt (a new game).
    fn clear(&self, py: Python<'_>) {
        py.allow_threads(|| {
            let mut st = self.lock();
            st.tt.clear();
            if let Some(h) = st.heuristics.as_mut() {
                h.clear();
            }
        })
    }

    /// Searches a copy of `position` without the GIL. `root_moves`: the moves to choose from
    /// (empty: every legal move; moves the position does not allow are kept, ranked last);
    /// `history`: hashes of positions before the position's own history (repetitions);
    /// limits: `depth`, `nodes` (0: none), `soft_ms` (no new iteration after about half of
    /// it, scaled by the best move's stability: `time_scale`), `hard_ms` (stop), `infinite`;
    /// `offset_ms`: time already spent on this move;
    /// `margin`, `noise`, `seed`: the weaker levels' choice among near-best moves and
    /// evaluation noise; `stop`: a `StopFlag`; `info(depth, seldepth, score, nodes, ms, pv,
    /// hashfull)` after each finished iteration. Returns a dict: move, score, depth, seldepth,
    /// pv, nodes, elapsed_ms, root_scores [(move, score)].
    #[pyo3(signature = (position, evaluation, root_moves=Vec::new(), history=Vec::new(), depth=64,
        nodes=0, soft_ms=None, hard_ms=None, infinite=false, offset_ms=0.0, margin=0, noise=0,
        seed=0, stop=None, info=None))]
    #[allow(clippy::too_many_arguments)]
    fn search<'py>(
        &self,
        py: Python<'py>,
        position: PyRef<'py, PyPosition>,
        evaluation: &PyEvaluation,
        root_moves: Vec<Move>,
        history: Vec<u64>,
        depth: i32,
        nodes: u64,
        soft_ms: Option<f64>,
        hard_ms: Option<f64>,
        infinite: bool,
        offset_ms: f64,
        margin: i32,
        noise: i32,
        seed: u64,
        stop: Option<&PyStopFlag>,
        info: Option<PyObject>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let pos = position.pos.clone();
        drop(position);
        let ev = Arc::clone(&evaluation.ev);
        check_tables(&pos, &ev)?;
        if margin < 0 || noise < 0 {
            return Err(PyValueError::new_err(
                "margin and noise must not be negative",
            ));
        }
        let flag = stop.map_or_else(|| Arc::new(AtomicBool::new(false)), |s| Arc::clone(&s.flag));
        let limits = Limits {
            depth,
            nodes,
            soft_ms,
            hard_ms,
            infinite,
        };
        let mut callback_error: Option<PyErr> = None;
        let out = py.allow_threads(|| {
            let mut st = self.lock();
            let (tt, h) = st.parts(pos.t.n, pos.t.types);
            let mut search = Search::new(
                pos, &ev, tt, h, &flag, limits, offset_ms, noise, seed, &history,
            );
            let mut report = |it: &Iteration, hashfull: u32| {
                let Some(cb) = info.as_ref() else { return };
                if callback_error.is_some() {
                    return;
                }
                Python::with_gil(|py| {
                    let args = (
                        it.depth,
                        it.seldepth,
                        it.score,
                        it.nodes,
                        it.elapsed_ms,
                        it.pv.clone(),
                        hashfull,
                    );
                    if let Err(e) = cb.call1(py, args) {
                        callback_error = Some(e);
                    }
                });
            };
            search.run(&root_moves, margin, &mut report)
        });
        if let Some(e) = callback_error {
            return Err(e);
        }
        let d = PyDict::new(py);
        d.set_item("move", out.best)?;
        d.set_item("score", out.score)?;
        d.set_item("depth", out.depth)?;
        d.set_item("seldepth", out.seldepth)?;
        d.set_item("pv", out.pv)?;
        d.set_item("nodes", out.nodes)?;
        d.set_item("elapsed_ms", out.elapsed_ms)?;
        d.set_item("root_scores", out.root_scores)?;
        Ok(d)
    }

    /// For tools, tuning and tests: after `moves` (legal ones, played by the search's own make)
    /// from `position`, (static evaluation from the incrementally kept sums, the same afresh,
    /// quiescence score), from the side to move's point of view.
    #[pyo3(signature = (position, evaluation, moves=Vec::new()))]
    fn evaluate(
        &self,
        py: Python<'_>,
        position: PyRef<'_, PyPosition>,
        evaluation: &PyEvaluation,
        moves: Vec<Move>,
    ) -> PyResult<(i32, i32, i32)> {
        let pos = position.pos.clone();
        drop(position);
        let ev = Arc::clone(&evaluation.ev);
        check_tables(&pos, &ev)?;
        let flag = AtomicBool::new(false);
        py.allow_threads(|| {
            let mut st = self.lock();
            let (tt, h) = st.parts(pos.t.n, pos.t.types);
            let limits = Limits {
                depth: 1,
                nodes: 0,
                soft_ms: None,
                hard_ms: None,
                infinite: false,
            };
            let mut search = Search::new(pos, &ev, tt, h, &flag, limits, 0.0, 0, 0, &[]);
            search.probe(&moves)
        })
        .map_err(|m| PyValueError::new_err(format!("move {m} is not legal there")))
    }
}

/// For tests and tools: the scale of the soft time limit for a search whose best move changed
/// `changes` times lately (decayed by half per iteration) and whose score fell by `drop` cp in
/// the last iteration (alphabeta.rs `time_scale`).
#[pyfunction]
pub fn soft_time_scale(changes: f64, drop: i32) -> f64 {
    time_scale(changes, drop)
}
