//! A set of cells (cells are below 1024) as a fixed bitset: garrisons, pins, block targets.

#[derive(Clone, Copy, Default)]
pub struct CellSet([u64; 16]);

impl CellSet {
    #[inline]
    pub fn new() -> CellSet {
        CellSet([0; 16])
    }

    #[inline]
    pub fn insert(&mut self, cell: usize) {
        self.0[cell >> 6] |= 1 << (cell & 63);
    }

    #[inline]
    pub fn contains(&self, cell: usize) -> bool {
        self.0[cell >> 6] >> (cell & 63) & 1 != 0
    }
}
