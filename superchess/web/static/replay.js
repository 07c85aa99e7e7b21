// Looking back through a game (the game page's replay): the position after any number of moves,
// asked of the server (`GET /api/games/{id}/positions/{n}`) and kept once fetched. The live game
// goes on meanwhile: a move that arrives while looking back is signalled, never forced on the view.

import * as api from './api.js';

/** The fields of a position that replace the live state's when it is shown. */
const SHOWN = ['pieces', 'last_move', 'check', 'captured', 'holdings', 'aggregates', 'fen', 'turn'];

export class Replay {
  /**
   * @param {string} gameId
   * @param {function} onChange  called after the view changed (a position arrived, back to live,
   *                             a new move signalled): the page renders again.
   * @param {function} onError   called with an error message when a position cannot be fetched.
   */
  constructor(gameId, onChange, onError) {
    this.gameId = gameId;
    this.onChange = onChange;
    this.onError = onError;
    this.viewing = null;   // null: the live position; else the number of moves shown
    this.total = 0;        // the moves of the live game
    this.moves = [];       // their texts (a position is kept under the moves that lead to it)
    this.missed = 0;       // moves that arrived while looking back
    this.cache = new Map();
  }

  get live() { return this.viewing === null; }

  /** A new live state: looking back stays where it is (and counts the new moves); a position that
   * no longer exists (a move taken back) returns to the live one. */
  update(st) {
    const moves = Array.isArray(st.moves) ? st.moves : [];
    if (!this.live && moves.length > this.total) this.missed += moves.length - this.total;
    this.total = moves.length;
    this.moves = moves;
    if (!this.live && (this.viewing >= this.total || this.position(this.viewing) === undefined)) this.toLive();
  }

  key(n) { return `${n}|${this.moves.slice(0, n).join(' ')}`; }

  /** The cached position after `n` moves (undefined: not fetched yet; null: being fetched). */
  position(n) { return this.cache.get(this.key(n)); }

  /** The state to draw: the live one, or the live one with the position looked at. */
  shown(st) {
    if (this.live) return st;
    const pos = this.position(this.viewing);
    if (!pos) return st;
    const out = { ...st, legal: {}, can_end_turn: false };
    for (const k of SHOWN) if (k in pos) out[k] = pos[k];
    return out;
  }

  /** Show the position after `n` moves (clamped; the last one is the live position). */
  go(n) {
    const target = Math.max(0, Math.min(this.total, n));
    if (target === this.total) { this.toLive(); return; }
    this.viewing = target;
    const key = this.key(target);
    if (this.cache.get(key) === undefined) {
      this.cache.set(key, null);
      api.getJSON(`/api/games/${encodeURIComponent(this.gameId)}/positions/${target}`)
        .then((pos) => { this.cache.set(key, pos); this.onChange(); })
        .catch((err) => { this.cache.delete(key); this.onError(err.message); if (this.viewing === target) this.toLive(); });
    }
    this.onChange();
  }

  step(delta) { this.go((this.live ? this.total : this.viewing) + delta); }

  toLive() {
    const was = this.viewing;
    this.viewing = null;
    this.missed = 0;
    if (was !== null) this.onChange();
  }
}
