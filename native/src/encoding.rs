//! The move and piece-code encoding of `superchess/rules/core/encoding.py` (checked against it when the
//! Python side loads the module: `ENCODING`).

pub type Move = u64;

pub const CELL_BITS: u32 = 10;
pub const CELL_MASK: Move = (1 << CELL_BITS) - 1;
pub const TO_SHIFT: u32 = CELL_BITS;
pub const DOUBLE: Move = 1 << 20;
pub const EP: Move = 1 << 21;
pub const CASTLE: Move = 1 << 22;
pub const DESTROY: Move = 1 << 23;
pub const PROMO_SHIFT: u32 = 24;
pub const PROMO_MASK: Move = 63;
pub const MULTI: Move = 1 << 30;
pub const RECORD_SHIFT: u32 = 31;
pub const SPECIAL: Move = DOUBLE | EP | CASTLE | DESTROY | MULTI | (PROMO_MASK << PROMO_SHIFT);
pub const ROUTE: Move = CELL_MASK | CELL_MASK << TO_SHIFT;
pub const SIDE_SHIFT: u32 = 6;
pub const MAX_CODE: usize = 2 << SIDE_SHIFT;

#[inline]
pub fn from_of(m: Move) -> usize {
    (m & CELL_MASK) as usize
}

#[inline]
pub fn to_of(m: Move) -> usize {
    (m >> TO_SHIFT & CELL_MASK) as usize
}

#[inline]
pub fn promo_of(m: Move) -> u8 {
    (m >> PROMO_SHIFT & PROMO_MASK) as u8
}

#[inline]
pub fn side_of(code: u8) -> usize {
    (code >> SIDE_SHIFT) as usize
}
