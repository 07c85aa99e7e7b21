//! Static exchange evaluation: what a move wins or loses in material if both sides then capture
//! on its destination with their least valuable attacker, each free to stop. The move itself is
//! applied through its cell changes, so en passant, promotion, captures off the destination
//! (diagram variants) and the Fortress's mutual destruction count exactly; in the exchange that
//! follows, a non-royal piece that captures a piece garrisoned by a Fortress (an own Fortress next
//! to it) dies too, which ends the exchange.

use crate::encoding::*;
use crate::position::Pos;
use crate::tables::{has, Attack};

use super::eval::EvalTables;

/// The deepest exchange followed.
const MAX_SWAPS: usize = 32;

/// The cell and code of the least valuable piece attacking through the entry `att`.
fn least_attacker(board: &[u8], att: &Attack, value: &[i32]) -> Option<(usize, u8)> {
    let mut best: Option<(usize, u8)> = None;
    let mut consider = |a: usize, p: u8| {
        if best.is_none_or(|(_, q)| value[p as usize] < value[q as usize]) {
            best = Some((a, p));
        }
    };
    for &(a, codes) in &att.leaps {
        let p = board[a as usize];
        if has(codes, p) {
            consider(a as usize, p);
        }
    }
    for ray in &att.rays {
        for &(a, codes) in ray {
            let p = board[a as usize];
            if p != 0 {
                if has(codes, p) {
                    consider(a as usize, p);
                }
                break;
            }
        }
    }
    for (a, codes, between) in &att.pats {
        let p = board[*a as usize];
        if has(*codes, p) && between.iter().all(|&b| board[b as usize] == 0) {
            consider(*a as usize, p);
        }
    }
    best
}

/// Scratch for `see`: a copy of the board and the move's changes.
#[derive(Default)]
pub struct SeeScratch {
    board: Vec<u8>,
    changes: Vec<(u16, u8)>,
}

/// Is the piece of `side` on `cell` garrisoned (an own Fortress next to it)?
fn garrisoned(pos: &Pos, board: &[u8], cell: usize, side: usize) -> bool {
    match pos.t.fortress {
        Some(f) => pos.t.adjacent[cell]
            .iter()
            .any(|&c| board[c as usize] == f[side]),
        None => false,
    }
}

/// The material the side to move gains by `m` and the exchange on its destination.
pub fn see(pos: &Pos, ev: &EvalTables, m: Move, s: &mut SeeScratch) -> i32 {
    if m & CASTLE != 0 {
        return 0;
    }
    let value = &ev.order_value;
    let us = pos.side;
    let to = to_of(m);
    s.board.clear();
    s.board.extend_from_slice(&pos.board);
    let board = &mut s.board;
    let mut gain = [0i32; MAX_SWAPS + 1];
    if m & SPECIAL == 0 {
        gain[0] = ev.value[board[to] as usize];
        board[to] = board[from_of(m)];
        board[from_of(m)] = 0;
    } else {
        // the mover's material balance over the move's cell changes
        pos.changes(m, &mut s.changes);
        for &(cell, new) in &s.changes {
            let old = board[cell as usize];
            for (code, sign) in [(old, -1), (new, 1)] {
                if code != 0 {
                    let own = side_of(code) == us;
                    gain[0] += sign * if own { 1 } else { -1 } * ev.value[code as usize];
                }
            }
            board[cell as usize] = new;
        }
    }
    let mut occupant = board[to];
    if occupant == 0 || side_of(occupant) != us {
        return gain[0];
    }
    let mut side = us ^ 1;
    let mut d = 0;
    while d < MAX_SWAPS {
        let Some((a, attacker)) = least_attacker(board, &pos.t.attacks[side][to], value) else {
            break;
        };
        d += 1;
        gain[d] = value[occupant as usize] - gain[d - 1];
        if garrisoned(pos, board, to, side ^ 1) && !pos.t.royal[attacker as usize] {
            gain[d] -= ev.value[attacker as usize]; // mutual destruction: the square empties
            break;
        }
        if gain[d].max(-gain[d - 1]) < 0 {
            break; // the side to capture loses whether it stops here or not
        }
        board[a] = 0;
        board[to] = attacker;
        occupant = attacker;
        side ^= 1;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}
