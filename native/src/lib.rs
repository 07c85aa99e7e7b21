//! `superchess._native`: the rules core in Rust for the one-lattice variants (chess, super16,
//! Superchess, diagram variants). It consumes the tables the Python side compiles and keeps the
//! Python core's move integers, hash values and rules; `superchess/rules/core/native.py` is the glue.
//!
//! Nothing that crosses the boundary can make it panic: moves are checked against the legal list
//! (or their cells against the board) before they are applied, and tables are range-checked once.

mod cellset;
mod diagram;
mod encoding;
mod movegen;
mod position;
mod search;
mod tables;

use std::collections::BTreeSet;
use std::sync::Arc;

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;

use encoding::*;
use movegen::Scratch;
use position::Pos;

/// Compiled tables of one variant and roster pair, shared by every position using them.
#[pyclass(name = "Tables", module = "superchess._native", frozen)]
struct PyTables {
    t: Arc<tables::Tables>,
}

#[pymethods]
impl PyTables {
    /// `tables`: a `superchess.rules.core.tables.Tables`; `fortress`: the Fortress codes per side when
    /// the variant's capture consequence is the Fortress garrison; `diagram`: a diagram variant's
    /// `DiagramTables`.
    #[new]
    #[pyo3(signature = (tables, files, types, adjacent, fortress=None, diagram=None))]
    fn new(
        tables: &Bound<PyAny>,
        files: usize,
        types: usize,
        adjacent: Vec<Vec<u16>>,
        fortress: Option<(u8, u8)>,
        diagram: Option<&Bound<PyAny>>,
    ) -> PyResult<PyTables> {
        if types >= 64 {
            return Err(PyValueError::new_err("at most 63 piece types"));
        }
        let mut t = tables::Tables::from_python(
            tables,
            files,
            types,
            adjacent,
            fortress.map(|(a, b)| [a, b]),
        )?;
        diagram::attach(&mut t, diagram)?;
        Ok(PyTables { t: Arc::new(t) })
    }

    /// An estimate of the memory the tables hold, in bytes.
    fn nbytes(&self) -> usize {
        self.t.nbytes()
    }
}

/// A position on the native core (see position.py's `Position` for the rules).
#[pyclass(name = "Position", module = "superchess._native", subclass, dict)]
pub struct PyPosition {
    pub(crate) pos: Pos,
    scratch: Scratch,
    legal: Vec<Move>,
    /// (hash, stack depth) the cached legal list was made for
    legal_key: Option<(u64, usize)>,
    lists: Vec<Vec<Move>>,
}

impl PyPosition {
    fn require_diagram(&self) -> PyResult<()> {
        if self.pos.diagram.is_none() {
            return Err(PyValueError::new_err("not a diagram variant's position"));
        }
        Ok(())
    }

    fn legal_moves(&mut self) -> &Vec<Move> {
        let key = (self.pos.hash, self.pos.stack.len());
        if self.legal_key != Some(key) {
            self.pos.legal(&mut self.legal, &mut self.scratch);
            self.legal_key = Some(key);
        }
        &self.legal
    }

    fn check_cell(&self, cell: i64) -> PyResult<usize> {
        if cell < 0 || cell as usize >= self.pos.t.n {
            return Err(PyValueError::new_err(format!(
                "cell {cell} is off the board"
            )));
        }
        Ok(cell as usize)
    }

    /// A move integer whose cells, castling entry and record lie within the tables (any legal move
    /// does); what its changes may then be computed from.
    fn check_move(&self, m: u64) -> PyResult<Move> {
        let n = self.pos.t.n;
        let ok = from_of(m) < n
            && to_of(m) < n
            && (m & CASTLE == 0 || (promo_of(m) as usize) < self.pos.t.castle_entries.len())
            && (self.pos.diagram.is_none() || self.pos.record_in_range(m));
        if !ok {
            return Err(PyValueError::new_err(format!(
                "move {m} does not fit this board"
            )));
        }
        Ok(m)
    }
}

#[pymethods]
impl PyPosition {
    /// A position set up from its parts (the Python core reads and validates the FEN text):
    /// `board[cell]` piece codes, `hold[side][type]` counts or None.
    #[new]
    #[pyo3(signature = (tables, board, side, castling, ep, halfmove, fullmove, hold=None, unmoved=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        tables: &PyTables,
        board: Vec<u8>,
        side: usize,
        castling: u64,
        ep: i64,
        halfmove: u32,
        fullmove: u32,
        hold: Option<Vec<Vec<u32>>>,
        unmoved: Option<Vec<u16>>,
    ) -> PyResult<PyPosition> {
        let t = Arc::clone(&tables.t);
        if board.len() != t.n {
            return Err(PyValueError::new_err(format!(
                "board needs {} cells, got {}",
                t.n,
                board.len()
            )));
        }
        if side > 1 || castling as usize >= t.z_castle.len() || ep < -1 || ep >= t.n as i64 {
            return Err(PyValueError::new_err(
                "bad side, castling rights or en passant cell",
            ));
        }
        let mut pos = Pos::new(Arc::clone(&t));
        for (cell, &code) in board.iter().enumerate() {
            let c = code as usize;
            if code != 0
                && (c >= MAX_CODE || (c & 63) == 0 || (c & 63) > t.types || code >> SIDE_SHIFT > 1)
            {
                return Err(PyValueError::new_err(format!(
                    "bad piece code {code} on cell {cell}"
                )));
            }
            pos.put(cell, code);
        }
        match (hold, t.holdings) {
            (Some(h), true) => {
                if h.len() != 2
                    || h.iter().any(|row| {
                        row.len() != t.types + 1 || row.iter().any(|&x| x as usize > t.max_held)
                    })
                {
                    return Err(PyValueError::new_err("bad holdings"));
                }
                pos.hold = h.concat();
            }
            (None, false) => {}
            _ => {
                return Err(PyValueError::new_err(
                    "holdings given for a variant without them, or missing",
                ))
            }
        }
        if t.diagram.is_some() {
            let unmoved = unmoved.unwrap_or_default();
            if unmoved.iter().any(|&c| c as usize >= t.n) {
                return Err(PyValueError::new_err("unmoved cell off the board"));
            }
            pos.diagram = Some(Box::new(diagram::DiagramState::new(&unmoved)));
        }
        pos.side = side;
        pos.castling = castling;
        pos.halfmove = halfmove;
        pos.fullmove = fullmove.max(1);
        if ep >= 0 {
            pos.ep = ep as i32;
            let mut buf = Vec::new();
            if pos.ep_capturable(&mut buf) {
                pos.ep_key = t.z_ep[ep as usize];
            }
        }
        pos.hash = pos.rehash();
        Ok(PyPosition {
            pos,
            scratch: Scratch::default(),
            legal: Vec::new(),
            legal_key: None,
            lists: Vec::new(),
        })
    }

    /// The legal moves of the side to move, as move integers.
    fn legal(&mut self) -> Vec<Move> {
        self.legal_moves().clone()
    }

    /// Plays a legal move; ValueError for any other integer.
    fn make(&mut self, m: u64) -> PyResult<()> {
        if !self.legal_moves().contains(&m) {
            return Err(PyValueError::new_err(format!(
                "move {m} is not legal in this position"
            )));
        }
        self.pos.make(m, &mut self.scratch.changes);
        Ok(())
    }

    /// Takes back the last move; IndexError when there is none.
    fn unmake(&mut self) -> PyResult<()> {
        if self.pos.stack.is_empty() {
            return Err(PyIndexError::new_err("no move to take back"));
        }
        self.pos.unmake();
        Ok(())
    }

    /// The cell changes (cell, new code) move `m` makes in this position.
    fn changes(&self, m: u64) -> PyResult<Vec<(u16, u8)>> {
        let m = self.check_move(m)?;
        let mut out = Vec::new();
        self.pos.changes(m, &mut out);
        Ok(out)
    }

    fn in_check(&self) -> bool {
        self.pos.in_check()
    }

    fn is_attacked(&self, cell: i64, by_side: usize) -> PyResult<bool> {
        let cell = self.check_cell(cell)?;
        if by_side > 1 {
            return Err(PyValueError::new_err("side must be 0 or 1"));
        }
        Ok(self.pos.is_attacked(cell, by_side))
    }

    fn repetitions(&self) -> u32 {
        self.pos.repetitions()
    }

    fn move_could_repeat(&self, times: u32) -> bool {
        self.pos.move_could_repeat(times)
    }

    /// Leaf nodes of the legal move tree `depth` plies deep (bulk counting).
    fn perft(&mut self, py: Python<'_>, depth: u32) -> u64 {
        let this = &mut *self;
        if this.pos.diagram.is_some() {
            return this.pos.perft(depth, &mut this.lists, &mut this.scratch);
        }
        py.allow_threads(|| this.pos.perft(depth, &mut this.lists, &mut this.scratch))
    }

    /// The hash computed from scratch (make/unmake keep it incrementally).
    fn rehash(&self) -> u64 {
        self.pos.rehash()
    }

    #[getter]
    fn board(&self) -> Vec<u8> {
        self.pos.board.clone()
    }

    /// Each side's occupied cells.
    #[getter]
    fn occ(&self) -> [BTreeSet<u16>; 2] {
        [
            self.pos.pieces[0].iter().copied().collect(),
            self.pos.pieces[1].iter().copied().collect(),
        ]
    }

    #[getter]
    fn kings(&self) -> [i32; 2] {
        self.pos.kings
    }

    #[getter]
    fn side(&self) -> usize {
        self.pos.side
    }

    #[getter]
    fn halfmove(&self) -> u32 {
        self.pos.halfmove
    }

    #[getter]
    fn fullmove(&self) -> u32 {
        self.pos.fullmove
    }

    #[getter]
    fn hash(&self) -> u64 {
        self.pos.hash
    }

    #[getter]
    fn castling(&self) -> u64 {
        self.pos.castling
    }

    #[getter]
    fn ep(&self) -> i32 {
        self.pos.ep
    }

    #[getter]
    fn ep_key(&self) -> u64 {
        self.pos.ep_key
    }

    /// The moves made since the position was set up, in order.
    fn moves(&self) -> Vec<Move> {
        self.pos.stack.iter().map(|u| u.m).collect()
    }

    /// Diagram variants: the cells of pieces with a recorded unmoved right (R11).
    #[getter]
    fn unmoved(&self) -> BTreeSet<u16> {
        self.pos
            .diagram
            .as_ref()
            .map(|d| d.unmoved_cells.iter().copied().collect())
            .unwrap_or_default()
    }

    /// Diagram variants: every move of the side to move by its patterns, whatever it leaves attacked.
    fn pseudo_legal(&mut self) -> PyResult<Vec<Move>> {
        self.require_diagram()?;
        let mut out = Vec::new();
        self.pos.pseudo_legal(&mut out, &mut self.scratch);
        Ok(out)
    }

    /// Diagram variants: the cell of `side`'s piece of that type (King or Prince), or -1.
    fn royal_cell(&self, side: usize, type_index: u8) -> PyResult<i32> {
        self.require_diagram()?;
        if side > 1 || type_index >= 64 {
            return Err(PyValueError::new_err("bad side or piece type"));
        }
        Ok(self.pos.royal_cell(side, type_index))
    }

    /// Diagram variants: no Prince can rescue the side to move (none, or double checkmate, 4.4).
    fn no_royal_rescue(&mut self) -> PyResult<bool> {
        self.require_diagram()?;
        Ok(self.pos.no_royal_rescue(&mut self.scratch))
    }

    /// Holdings per side, counted by piece type index; None for variants without holdings.
    #[getter]
    fn hold(&self) -> Option<Vec<Vec<u32>>> {
        if !self.pos.t.holdings {
            return None;
        }
        Some(
            self.pos
                .hold
                .chunks(self.pos.t.types + 1)
                .map(|c| c.to_vec())
                .collect(),
        )
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTables>()?;
    m.add_class::<PyPosition>()?;
    m.add_class::<search::PyEvaluation>()?;
    m.add_class::<search::PyStopFlag>()?;
    m.add_class::<search::PySearcher>()?;
    m.add("SEARCH_MATE", (search::MATE, search::MATE_BOUND))?;
    m.add_function(wrap_pyfunction!(search::soft_time_scale, m)?)?;
    // checked against encoding.py when the Python side loads the module
    m.add(
        "ENCODING",
        (
            CELL_BITS,
            DOUBLE,
            EP,
            CASTLE,
            DESTROY,
            PROMO_SHIFT,
            PROMO_MASK,
            MULTI,
            RECORD_SHIFT,
            SIDE_SHIFT,
        ),
    )?;
    Ok(())
}
