// The phone's magnifier for boards whose squares are small (a 16x16 board on a phone: 23 px): a touch
// held still for a moment opens a loupe above the finger with the squares around it magnified and the
// square under the finger outlined; moving the finger moves it, and lifting the finger chooses that
// square as a tap would (`BoardView.tap`). A quick tap, or a swipe that scrolls, works as before.

import { svgEl } from './pieces.js';

const HOLD_MS = 250;     // a touch held this long without moving opens the loupe
const SLOP_PX = 8;       // ... and moving less than this is holding still
const SMALL_PX = 30;     // the loupe serves boards whose squares are narrower than this on screen
const RADIUS_PX = 70;    // the loupe's radius on screen
const MAGNIFY = 2;       // how much larger the loupe shows the board (3 squares across at 23 px)
const LIFT_PX = 95;      // how far above the finger the loupe's centre sits (the finger hides the board)

export class Loupe {
  /** @param {BoardView} board */
  constructor(board) {
    this.board = board;
    this.el = document.createElement('div');
    this.el.className = 'loupe';
    this.el.hidden = true;
    this.view = svgEl('svg', { class: 'loupe-view', 'aria-hidden': 'true' });
    this.el.appendChild(this.view);
    document.body.appendChild(this.el);
    this.timer = null;
    this.touch = null; // {x, y} of the finger while a loupe may open or is open
    this.open = false;
    const svg = board.svg;
    svg.addEventListener('touchstart', (e) => this._start(e), { passive: true });
    svg.addEventListener('touchmove', (e) => this._move(e), { passive: false });
    svg.addEventListener('touchend', (e) => this._end(e), { passive: false });
    svg.addEventListener('touchcancel', () => this._close());
    svg.addEventListener('contextmenu', (e) => { if (this.open) e.preventDefault(); });
  }

  /** Are the board's squares small on screen (its longer side's squares over its rendered width)? */
  _small() {
    const st = this.board.state;
    if (!st) return false;
    return this.board.svg.getBoundingClientRect().width / Math.max(st.files || 8, st.ranks || 8) < SMALL_PX;
  }

  _start(e) {
    this._close();
    if (e.touches.length !== 1 || !this.board.interactive || !this._small()) return;
    const t = e.touches[0];
    this.touch = { x: t.clientX, y: t.clientY, startX: t.clientX, startY: t.clientY };
    this.timer = setTimeout(() => this._open(), HOLD_MS);
  }

  _move(e) {
    const t = e.touches[0];
    if (!this.touch || !t) return;
    if (!this.open) { // moving before the hold ends: a swipe, not ours
      if (Math.hypot(t.clientX - this.touch.startX, t.clientY - this.touch.startY) > SLOP_PX) this._close();
      return;
    }
    e.preventDefault(); // the page does not scroll under the loupe
    this.touch.x = t.clientX;
    this.touch.y = t.clientY;
    this._draw();
  }

  _end(e) {
    if (!this.open) { this._close(); return; }
    e.preventDefault(); // no click follows: the square is chosen here
    const sq = this.board.squareAt(this.touch.x, this.touch.y);
    this._close();
    if (sq) this.board.tap(sq);
  }

  _open() {
    this.open = true;
    this.board.cancelDrag();
    // the board as it is now, drawn again inside the loupe (its marks, pieces and colours)
    this.view.replaceChildren(...Array.from(this.board.svg.childNodes, (n) => n.cloneNode(true)));
    this.el.hidden = false;
    this._draw();
  }

  _draw() {
    const { x, y } = this.touch;
    const ctm = this.board.svg.getScreenCTM();
    if (!ctm) return;
    const at = new DOMPoint(x, y).matrixTransform(ctm.inverse());
    const half = RADIUS_PX / MAGNIFY / ctm.a; // board units from the loupe's centre to its edge
    this.view.setAttribute('viewBox', `${at.x - half} ${at.y - half} ${2 * half} ${2 * half}`);
    const top = Math.max(4, y - LIFT_PX - RADIUS_PX);
    const left = Math.min(Math.max(4, x - RADIUS_PX), window.innerWidth - 2 * RADIUS_PX - 4);
    this.el.style.left = `${left}px`;
    this.el.style.top = `${top}px`;
    const sq = this.board.squareAt(x, y);
    for (const g of this.view.querySelectorAll('.loupe-target')) g.classList.remove('loupe-target');
    const target = sq && this.view.querySelector(`[data-square="${sq}"]`);
    if (target) target.classList.add('loupe-target');
    this.el.dataset.square = sq || '';
  }

  _close() {
    clearTimeout(this.timer);
    this.timer = null;
    this.touch = null;
    if (!this.open) return;
    this.open = false;
    this.el.hidden = true;
    this.el.dataset.square = '';
    this.view.replaceChildren();
  }
}
