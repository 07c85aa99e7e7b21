//! Diagram variants (Vanguard, pasted Interactive Diagrams): placeholder until stage 4.

use crate::encoding::Move;
use crate::movegen::Scratch;
use crate::position::Pos;

pub struct DiagramState {}

impl DiagramState {
    pub fn in_check(&self, _pos: &Pos) -> bool {
        false
    }
    pub fn attacked_by(&self, _pos: &Pos, _cell: usize, _by: usize) -> bool {
        false
    }
    pub fn unmoved_hash(&self) -> u64 {
        0
    }
    pub fn changes(&self, pos: &Pos, m: Move, out: &mut Vec<(u16, u8)>) {
        pos.core_changes(m, out)
    }
    pub fn make(&mut self, pos: &mut Pos, m: Move, buf: &mut Vec<(u16, u8)>) {
        pos.make_core(m, buf)
    }
    pub fn unmake(&mut self) {}
    pub fn move_in_range(&self, _m: Move) -> bool {
        true
    }
    pub fn legal(&self, pos: &mut Pos, moves: &mut Vec<Move>, s: &mut Scratch) {
        pos.legal_core(moves, s)
    }
}
