// Premove: during the opponent's turn a player may queue one move (click a piece of theirs, then a
// square). It is shown on the board, cancelled by another click, and sent as soon as the turn comes
// if it is legal then (else dropped, with a message). In a variant of several moves a turn
// (InterGrid, Tiling Rider) it is the first move of the next turn; the rest is played as usual.

import { sideOf } from './pieces.js';

/** The destination a listed move goes to: its `to`, or the square at the start of its text tail
 * ("e8q" -> "e8", "c16" -> "c16"). */
function destinationOf(entry) {
  if (entry && typeof entry === 'object') return entry.to;
  const m = /^[A-Za-z]+\d+/.exec(String(entry));
  return m ? m[0] : null;
}

export class Premove {
  /**
   * @param {BoardView} board
   * @param {function} sendMove  sends a move text; returns false when it could not be sent
   * @param {function} tell      tell(text) shows why a premove was dropped
   */
  constructor(board, sendMove, tell) {
    this.board = board;
    this.sendMove = sendMove;
    this.tell = tell;
    this.origin = null;  // the piece chosen, waiting for its square
    this.queued = null;  // {from, to}
    this.active = false; // the board's clicks are ours
  }

  /** Called with every state rendered: take the board's clicks while premoves are possible, play
   * a queued move when the turn has come. */
  sync(st, live) {
    const player = st.you === 0 || st.you === 1;
    const waiting = player && live && st.status === 'active' && st.turn !== st.you;
    if (player && st.status === 'active' && st.turn === st.you && this.queued) this._play(st);
    if (st.status !== 'active') this.clear();
    if (waiting) {
      this.active = true;
      this.board.onSquare = (sq) => this.click(sq);
      this._mark();
    } else if (this.active) {
      this.active = false;
      this.origin = null;
      this.board.onSquare = null;
      this.board.setMarks(null);
      this.board.container.dataset.premove = '';
    }
  }

  click(sq) {
    const st = this.board.state;
    if (!st) return;
    const piece = (st.pieces || {})[sq];
    const own = piece && sideOf(piece) === st.you;
    if (this.queued) this.clear(); // a click cancels the queued move
    else if (own && sq !== this.origin) this.origin = sq;
    else if (this.origin && sq !== this.origin) this.queued = { from: this.origin, to: sq };
    else this.origin = null;
    if (this.queued) this.origin = null;
    this._mark();
  }

  /** Nothing chosen: the board may show something else meanwhile (the guide's hover). */
  get idle() { return !this.origin && !this.queued; }

  /** The board's marks as premoves want them (after something else showed its own). */
  redraw() {
    if (this.active) this._mark();
    else this.board.setMarks(null);
  }

  clear() {
    this.origin = null;
    this.queued = null;
  }

  _mark() {
    if (this.queued) this.board.setMarks([this.queued.to], [this.queued.from]);
    else this.board.setMarks([], this.origin ? [this.origin] : []);
    this.board.container.dataset.premove = this.queued ? `${this.queued.from}${this.queued.to}` : '';
  }

  _play(st) {
    const { from, to } = this.queued;
    this.clear();
    const moves = ((st.legal || {})[from] || []).filter((e) => destinationOf(e) === to);
    if (!moves.length) {
      this.tell(`Premove ${from}–${to} is not legal now: dropped.`);
      return;
    }
    // a promotion premove takes the first choice the server lists (its strongest piece first)
    const entry = moves[0];
    this.sendMove(typeof entry === 'object' ? entry.move : `${from}${entry}`);
  }
}
