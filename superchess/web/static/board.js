// A reusable SVG board for any files x ranks. It displays a game state from the protocol
// (pieces, legal, last_move, check) and turns clicks into moves:
//   click an origin listed in state.legal -> it is selected and its destinations light up;
//   click a destination -> onMove(moveText) (several moves to one square: a promotion picker);
//   a move passing an intermediate square (its `via`): click the piece, that square, the destination;
//   a move capturing off its destination or not moving: a second click confirms it, once every
//   capture it makes is highlighted;
//   a group of cells moving as one (a giant piece's block, a formed aggregate): a click on any of
//   its cells offers the group's moves (with that cell's own piece's moves), each destination
//   block is marked whole and a click anywhere on it makes the move; a square reached both ways
//   offers the choice in the picker;
//   click anywhere else -> deselect.
// Every square is one <g class="square" data-square="e2"> (unique per square); when occupied it
// also carries class "piece", data-piece="P" and data-side="0|1", and holds the piece drawing.

import { DEFAULT_COLOURS, DEFAULT_SET, pieceGroup, pieceIcon, sideOf } from './pieces.js';

const SVGNS = 'http://www.w3.org/2000/svg';
const S = 100; // one square, in SVG units

let instances = 0;

/** An aggregate move (four like pieces on a unit moving as one, tiling-rider 3.2, R6): its text is
 * "@" and the lower-left squares of the origin and destination units (docs/protocol.md). */
const isAggregateMove = (m) => m.move.startsWith('@');

export function squareName(file, rank) {
  return String.fromCharCode(97 + file) + String(rank + 1);
}

/** The state's legal moves by origin, each as {to, move, promotion, captures?, via?}. The server
 * sends a plain move as its text after the origin (destination and promotion letter, e.g. "h4",
 * "c16q"); moves that capture off their destination come as whole objects. */
export function expandLegal(legal) {
  const out = {};
  for (const [origin, moves] of Object.entries(legal || {})) {
    out[origin] = moves.map((m) => {
      if (typeof m !== 'string') return m;
      const to = m.match(/^[a-z]+[0-9]+/)[0];
      return { to, move: origin + m, promotion: m.slice(to.length) || null };
    });
  }
  return out;
}

/** The pieces of a FEN's placement field as {square: letter} (ranks from the top, runs of digits). */
export function piecesFromFen(fen, files, ranks) {
  const pieces = {};
  const rows = String(fen || '').trim().split(/\s+/)[0].split('/');
  rows.forEach((row, i) => {
    const rank = ranks - 1 - i;
    let file = 0;
    for (const tok of row.match(/[0-9]+|[A-Za-z]/g) || []) {
      if (/[0-9]/.test(tok)) file += Number(tok);
      else {
        if (file < files && rank >= 0) pieces[squareName(file, rank)] = tok;
        file += 1;
      }
    }
  });
  return pieces;
}

/** The board description the server sends (GET /api/variants/{v}/layout) for a plain files x ranks
 * board: every cell a square, centres in board units. Boards without a server layout use this. */
export function rectLayout(files, ranks) {
  const cells = [];
  for (let r = 0; r < ranks; r++) {
    for (let f = 0; f < files; f++) cells.push({ name: squareName(f, r), shape: 'square', x: f + 0.5, y: r + 0.5, size: 1 });
  }
  const labels = { square: { files: Array.from({ length: files }, (_, f) => String.fromCharCode(97 + f)).join(''),
    ranks: Array.from({ length: ranks }, (_, r) => String(r + 1)) } };
  return { width: files, height: ranks, cells, labels };
}

export function parseSquare(name) {
  const m = /^([a-z])([1-9][0-9]*)$/.exec(name || '');
  return m ? [m[1].charCodeAt(0) - 97, Number(m[2]) - 1] : null;
}

function svgEl(tag, attrs = {}) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

export class BoardView {
  /**
   * @param {HTMLElement} container  the element the board is drawn into (e.g. #board)
   * @param {object} options  onMove(moveText, legalEntry), promotionId (default "promotion"),
   *                          pieceColours(state) -> [c0, c1] (optional), interactive (default true),
   *                          pieceSet (pieces.js PieceSet: the variant's drawings; setPieceSet()).
   *   Editor boards (no moves) pass onSquare(square) instead: every click on a square calls it;
   *   onSquareRemove(square) is called on a right click (its menu is suppressed) or a long press
   *   (~500 ms, touch or pen, without moving). Highlights come from setMarks() then.
   */
  constructor(container, options = {}) {
    this.container = container;
    this.onMove = options.onMove || (() => {});
    this.id = ++instances;
    this.state = null;
    this.flipped = false;
    this.selected = null;
    this.colours = [...DEFAULT_COLOURS];
    this.pieceSet = options.pieceSet || DEFAULT_SET;
    this.interactive = options.interactive !== false;
    this.onSquare = options.onSquare || null;
    this.onSquareRemove = options.onSquareRemove || null;
    this.marks = null;          // {dests: Set, origins: Set} shown instead of `legal` (editor boards)
    this.layout = null;         // the server's board description (cells with shapes); else rectLayout
    this.pending = null;        // a capturing move awaiting its confirming second click
    this.via = null;            // the intermediate square chosen after the piece (moves that pass one)
    this.press = null;          // a long-press candidate (onSquareRemove)
    this.programmed = [new Set(), new Set()]; // per side, the letters of reprogrammed types (marked)

    container.classList.add('board');
    this.svg = svgEl('svg', { class: 'board-svg', role: 'img', 'aria-label': 'Board' });
    container.appendChild(this.svg);

    this.picker = document.createElement('div');
    this.picker.id = options.promotionId || 'promotion';
    this.picker.className = 'promotion';
    this.picker.setAttribute('role', 'dialog');
    this.picker.setAttribute('aria-label', 'Choose the promotion piece');
    this.picker.hidden = true;
    container.appendChild(this.picker);

    this.svg.addEventListener('click', (e) => this._onClick(e));
    this.drag = null;           // a pointer press on a movable piece (becomes a drag past a few px)
    this.suppressClick = false; // the click that ends a drag is not a click
    this.svg.addEventListener('pointerdown', (e) => this._onPointerDown(e));
    this.svg.addEventListener('pointermove', (e) => this._onPointerMove(e));
    this.svg.addEventListener('pointerup', (e) => this._onPointerUp(e));
    this.svg.addEventListener('pointercancel', (e) => { this._cancelPress(e, true); this._endDrag(); });
    this.picker.addEventListener('click', (e) => this._onPickerClick(e));
    if (this.onSquareRemove) {
      this.svg.addEventListener('contextmenu', (e) => {
        const sq = this._eventSquare(e);
        if (!sq) return;
        e.preventDefault();
        if (this.interactive) this.onSquareRemove(sq);
      });
    }
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        if (!this.picker.hidden) this.closePicker();
        else if (this.selected) this.deselect();
      }
    });
  }

  // ---- public API ----------------------------------------------------------------------

  setState(state) {
    this.state = state;
    this.pending = null;
    this.via = null;
    if (this.selected && !this._movesOf(this.selected).length) this.selected = null;
    if (!this.picker.hidden && !this.selected) this.closePicker(false);
    this.render();
  }

  /** Highlights for boards without moves: `dests` get class `dest` (`capture` when occupied),
   * `origins` class `origin` (and the selected look). null: back to the state's legal moves. */
  setMarks(dests, origins = []) {
    this.marks = dests === null ? null : { dests: new Set(dests || []), origins: new Set(origins || []) };
    this.render();
  }

  /** The board description from the server: cells with their shapes, centres and sizes. */
  setLayout(layout) {
    this.layout = layout || null;
    this.render();
  }

  setColours(colours) {
    this.colours = [colours[0] || DEFAULT_COLOURS[0], colours[1] || DEFAULT_COLOURS[1]];
    this.render();
  }

  /** The drawings of the variant shown (a PieceSet from pieces.js). */
  setPieceSet(set) {
    this.pieceSet = set || DEFAULT_SET;
    this.container.dataset.pieceSet = this.pieceSet.loaded ? (this.pieceSet.variant || '') : '';
    this.render();
  }

  setFlipped(flipped) {
    this.flipped = Boolean(flipped);
    this.render();
  }

  flip() {
    this.setFlipped(!this.flipped);
  }

  deselect() {
    this.selected = null;
    this.via = null;
    this.pending = null;
    this.closePicker(false);
    this.render();
  }

  /** The same as a user's click on the square named `sq`. */
  clickSquare(sq) {
    if (!this.interactive || !this.state) return;
    if (this.selected && !this.via && !this.pending && this._viaMoves(sq).length) {
      // the intermediate square of a move that passes one (a Berserker's first capture): its
      // destinations light up; a move straight to that square is then a click on it again
      this.via = sq;
      this.render();
      return;
    }
    if (this.selected) {
      const moves = this._movesTo(sq);
      if (this.pending && moves.includes(this.pending)) { this._send(this.pending); return; }
      if (moves.length === 1 && this._needsConfirm(moves[0])) {
        // a move that captures more than its destination: highlight every piece it captures first
        this.pending = moves[0];
        this.render();
        return;
      }
      if (moves.length === 1) { this._send(moves[0]); return; }
      if (moves.length > 1) { this._openPicker(moves); return; }
    }
    // a square of a piece drawn over several stands for its lower-left square
    const group = this._groupAt(sq);
    const pick = group && group.giant ? group.anchor : sq;
    if (this.selected && pick === this.selected) { this.deselect(); return; }
    if (this._movesOf(pick).length) {
      this.selected = pick;
      this.via = null;
      this.pending = null;
      this.closePicker(false);
      this.render();
      return;
    }
    this.deselect();
  }

  closePicker(rerender = true) {
    this.picker.hidden = true;
    this.picker.replaceChildren();
    this.pendingMoves = null;
    if (rerender) this.render();
  }

  // ---- internals -----------------------------------------------------------------------

  /** A move whose captures (the state lists them where a move can capture off its destination)
   * include more than its destination, or that does not move the piece (a pass, a capture without
   * moving), is confirmed by a second click on it, once its captures are highlighted. */
  _needsConfirm(move) {
    const caps = move.captures || [];
    return (caps.some((c) => c !== move.to) || move.to === this.selected) && this.pending !== move;
  }

  /** The selected piece's moves whose first intermediate square (`via`) is `sq`. */
  _viaMoves(sq) {
    return this._ownMoves(this.selected).filter((m) => m.via && m.via[0] === sq);
  }

  /** The selection's moves a click on `sq` means: with an intermediate square chosen, those
   * passing it to `sq` (or the move straight to it, on a second click on it); else the selected
   * piece's moves to `sq` that pass none, or, when every move to `sq` passes one, all of them; and
   * the moves of its group whose destination block holds `sq`. */
  _movesTo(sq) {
    const all = this._ownMoves(this.selected).filter((m) => m.to === sq);
    const direct = all.filter((m) => !(m.via && m.via.length));
    if (this.via) return this.via === sq ? direct : all.filter((m) => m.via && m.via[0] === this.via);
    const grouped = this._groupMoves(this.selected).filter((d) => d.cells.includes(sq)).map((d) => d.move);
    return [...(direct.length ? direct : all), ...grouped];
  }

  /** The groups of cells that move as one, each {anchor, cells, n, giant, moves}: a piece the
   * layout draws over n x n squares (`piece_sizes`; all its moves) and each aggregate formed
   * (`state.aggregates`; its `@` moves). Both list their moves under their lower-left square
   * (`anchor`), to the lower-left square of the n x n destination block. */
  _groups() {
    const st = this.state;
    if (this._groupsOf === st && this._groupsLayout === this.layout) return this._groupList;
    const legal = this._legal();
    const blocks = new Map();
    for (const [sq, anchor] of this._anchors()) blocks.set(anchor, [...(blocks.get(anchor) || []), sq]);
    const groups = [...blocks].map(([anchor, cells]) => ({
      anchor, cells, n: this.layout.piece_sizes[st.pieces[anchor]], giant: true, moves: legal[anchor] || [] }));
    for (const agg of st.aggregates || []) {
      const anchor = this._lowerLeft(agg.cells);
      groups.push({ anchor, cells: agg.cells, n: Math.round(Math.sqrt(agg.cells.length)), giant: false,
        moves: (legal[anchor] || []).filter(isAggregateMove) });
    }
    this._groupsOf = st;
    this._groupsLayout = this.layout;
    this._groupList = groups;
    return groups;
  }

  _groupAt(sq) {
    return this._groups().find((g) => g.cells.includes(sq)) || null;
  }

  /** The moves of the piece on `sq` alone (not those of the group listed under the same square). */
  _ownMoves(sq) {
    const group = this._groupAt(sq);
    const moves = this._legal()[sq] || [];
    return group && group.anchor === sq ? moves.filter((m) => !group.moves.includes(m)) : moves;
  }

  /** The moves of the group holding `sq`, each {move, cells: its destination block}. */
  _groupMoves(sq) {
    const group = sq && this._groupAt(sq);
    return group ? group.moves.map((move) => ({ move, cells: this._block(move.to, group.n) })) : [];
  }

  /** Everything a click on `sq` offers: its piece's own moves and its group's. */
  _movesOf(sq) {
    return [...this._ownMoves(sq), ...this._groupMoves(sq).map((d) => d.move)];
  }

  /** The squares of the n x n block whose lower-left square is `to`. */
  _block(to, n) {
    const cells = this._layout().cells;
    const corner = cells.find((c) => c.name === to);
    if (!corner) return [];
    return cells.filter((c) => c.shape !== 'point' && c.x >= corner.x && c.x < corner.x + n
      && c.y >= corner.y && c.y < corner.y + n).map((c) => c.name);
  }

  _legal() {
    const st = this.state;
    if (!st || !st.legal) return {};
    if (this._legalOf !== st) {  // expanded once per state
      this._legalOf = st;
      this._legalMoves = expandLegal(st.legal);
    }
    return this._legalMoves;
  }

  _send(entry) {
    this.selected = null;
    this.via = null;
    this.pending = null;
    this.closePicker(false);
    this.render();
    this.onMove(entry.move, entry);
  }

  _onClick(e) {
    if (this.suppressClick) { this.suppressClick = false; return; }
    if (this.onSquare) {
      const sq = this._eventSquare(e);
      if (sq) this.tap(sq);
      return;
    }
    const g = e.target.closest('[data-square]');
    if (g && this.svg.contains(g)) this.tap(g.getAttribute('data-square'));
    else if (!this.picker.hidden) this.closePicker();
    else if (this.selected) this.deselect();
  }

  /** What a click on the square `sq` does (the phone's loupe, loupe.js, chooses a square so). */
  tap(sq) {
    if (this.onSquare) {
      if (this.interactive) this.onSquare(sq);
    } else if (!this.picker.hidden) {
      this.closePicker();
    } else {
      this.clickSquare(sq);
    }
  }

  /** Forget a press that could become a drag (another gesture, the loupe's, took the finger). */
  cancelDrag() {
    const d = this.drag;
    this._endDrag();
    if (d && d.active) this.render();
  }

  /** The square under a pointer event (by its target, else by its position: the squares may have
   * been redrawn between the press and the release). */
  _eventSquare(e) {
    const g = e.target && e.target.closest && e.target.closest('[data-square]');
    if (g && this.svg.contains(g)) return g.getAttribute('data-square');
    return (e.clientX || e.clientY) ? this.squareAt(e.clientX, e.clientY) : null;
  }

  _onPickerClick(e) {
    const btn = e.target.closest('button');
    if (!btn) return;
    if (btn.hasAttribute('data-cancel')) { this.closePicker(); return; }
    const idx = Number(btn.getAttribute('data-index'));
    const entry = this.pendingMoves && this.pendingMoves[idx];
    if (entry) this._send(entry);
  }

  // ---- dragging: press on a movable piece, move, release on a destination ----------------

  /** The cell under a client position: a point (drawn on top) before the square around it. */
  squareAt(clientX, clientY) {
    const st = this.state;
    const ctm = this.svg.getScreenCTM();
    if (!st || !ctm) return null;
    const pt = new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse());
    const layout = this._layout();
    const [bx, by] = this._boardAt(pt.x, pt.y, layout);
    const inside = (c) => (c.shape === 'point'
      ? Math.hypot(bx - c.x, by - c.y) <= c.size / 2
      : Math.abs(bx - c.x) <= c.size / 2 && Math.abs(by - c.y) <= c.size / 2);
    const hit = layout.cells.find((c) => c.shape === 'point' && inside(c))
      || layout.cells.find((c) => c.shape !== 'point' && inside(c));
    return hit ? hit.name : null;
  }

  _svgPoint(clientX, clientY) {
    const ctm = this.svg.getScreenCTM();
    return ctm ? new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse()) : null;
  }

  _onPointerDown(e) {
    if (this.onSquareRemove && this.interactive && e.pointerType && e.pointerType !== 'mouse') {
      const g = e.target.closest('[data-square]');
      if (g) {
        clearTimeout(this.press && this.press.timer);
        const press = { x: e.clientX, y: e.clientY, pointerId: e.pointerId, square: g.getAttribute('data-square') };
        press.timer = setTimeout(() => {
          if (this.press !== press) return;
          press.fired = true; // kept until the release: that release is not a click
          this.onSquareRemove(press.square);
        }, 500);
        this.press = press;
      }
    }
    if (!this.interactive || !this.state || e.button !== 0 || !this.picker.hidden) return;
    const g = e.target.closest('[data-square]');
    const sq = g && g.getAttribute('data-square');
    const group = sq && this._groupAt(sq);
    const from = group && group.giant ? group.anchor : sq;
    if (!sq || !this._movesOf(from).length) return;
    this.drag = { from, x: e.clientX, y: e.clientY, pointerId: e.pointerId, active: false, ghost: null };
  }

  _cancelPress(e, always = false) {
    const p = this.press;
    if (!p || (e && e.pointerId !== p.pointerId)) return;
    if (!always && !p.fired && e && Math.hypot(e.clientX - p.x, e.clientY - p.y) < 8) return;
    if (p.fired && !always) return;
    clearTimeout(p.timer);
    this.press = null;
    if (p.fired) {
      this.suppressClick = true;
      setTimeout(() => { this.suppressClick = false; }, 0);
    }
  }

  _onPointerMove(e) {
    this._cancelPress(e);
    const d = this.drag;
    if (!d || e.pointerId !== d.pointerId) return;
    if (!d.active) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 6) return;
      d.active = true;
      try { this.svg.setPointerCapture(e.pointerId); } catch { /* ignore */ }
      this.selected = d.from;
      this.render();
      const letter = this.state.pieces && this.state.pieces[d.from];
      const origin = this.svg.querySelector(`[data-square="${d.from}"] .piece-art`);
      if (origin) origin.style.opacity = '0.35';
      if (letter) {
        d.ghost = pieceGroup(letter, this.colours[sideOf(letter)], this.pieceSet);
        d.ghost.classList.add('drag-ghost');
        this.svg.appendChild(d.ghost);
      }
    }
    const pt = this._svgPoint(e.clientX, e.clientY);
    if (d.ghost && pt) d.ghost.setAttribute('transform', `translate(${pt.x - S / 2} ${pt.y - S / 2})`);
  }

  _onPointerUp(e) {
    this._cancelPress(e, true);
    const d = this.drag;
    if (!d || e.pointerId !== d.pointerId) return;
    this._endDrag();
    if (!d.active) return; // a plain click: the click handler does the work
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    const to = this.squareAt(e.clientX, e.clientY);
    if (to && to !== d.from) this.clickSquare(to);
    else this.render();
  }

  _endDrag() {
    const d = this.drag;
    this.drag = null;
    if (d && d.ghost) d.ghost.remove();
  }

  _openPicker(moves) {
    const st = this.state;
    const order = (st.promotion_choices || []).map((c) => String(c).toLowerCase());
    const rank = (m) => {
      const i = order.indexOf(String(m.promotion || '').toLowerCase());
      return i < 0 ? order.length : i;
    };
    const sorted = [...moves].sort((a, b) => rank(a) - rank(b));
    this.pendingMoves = sorted;
    const mover = st.pieces && st.pieces[this.selected];
    const side = mover ? sideOf(mover) : (st.you ?? st.turn ?? 0);
    const fill = this.colours[side];

    this.picker.replaceChildren();
    const title = document.createElement('div');
    title.className = 'promotion-title';
    title.textContent = sorted.some((m) => m.promotion) ? 'Promote to' : 'Which move?';
    this.picker.appendChild(title);
    const list = document.createElement('div');
    list.className = 'promotion-choices';
    sorted.forEach((m, i) => {
      const btn = document.createElement('button');
      btn.type = 'button';
      btn.setAttribute('data-index', String(i));
      btn.setAttribute('data-move', m.move);
      if (m.promotion) {
        const letter = String(m.promotion);
        btn.setAttribute('data-promotion', letter.toLowerCase());
        const shown = side === 0 ? letter.toUpperCase() : letter.toLowerCase();
        const name = this.pieceSet.name(letter);
        btn.title = name;
        btn.appendChild(pieceIcon(shown, fill, 44, this.pieceSet));
        const label = document.createElement('span');
        label.textContent = name;
        btn.appendChild(label);
      } else { // moves to one square without promotion (a piece's own move, its group's move)
        btn.setAttribute('data-promotion', '');
        const aggregate = isAggregateMove(m);
        if (aggregate) btn.setAttribute('data-aggregate', '');
        const who = aggregate ? 'Aggregate' : this.pieceSet.name(mover || '');
        const taken = (m.captures || []).length ? ` takes ${m.captures.join(' ')}` : '';
        btn.textContent = `${who} ${m.move}${taken}`;
      }
      list.appendChild(btn);
    });
    this.picker.appendChild(list);
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'promotion-cancel';
    cancel.setAttribute('data-cancel', '');
    cancel.textContent = 'Cancel';
    this.picker.appendChild(cancel);
    this.picker.hidden = false;
    const first = list.querySelector('button');
    if (first) first.focus({ preventScroll: true });
  }

  _layout() {
    const st = this.state;
    return this.layout || rectLayout(st.files || 8, st.ranks || 8);
  }

  /** Square -> the lower-left square of the block its piece covers, for pieces the layout draws
   * over n x n squares (`piece_sizes`, e.g. {"K": 2}); `pieces` names such a piece on every square
   * of its block (one block per letter). */
  _anchors() {
    const sizes = (this.layout && this.layout.piece_sizes) || {};
    const anchors = new Map();
    if (!this.state || !Object.keys(sizes).length) return anchors;
    const names = new Set(this._layout().cells.map((c) => c.name));
    for (const letter of Object.keys(sizes)) {
      const block = Object.entries(this.state.pieces || {}).filter(([sq, l]) => l === letter && names.has(sq)).map(([sq]) => sq);
      if (!block.length) continue;
      const anchor = this._lowerLeft(block);
      for (const sq of block) anchors.set(sq, anchor);
    }
    return anchors;
  }

  /** The leftmost of the lowest of the named cells. */
  _lowerLeft(names) {
    const cells = new Map(this._layout().cells.map((c) => [c.name, c]));
    const key = (sq) => [cells.get(sq).y, cells.get(sq).x];
    return names.reduce((a, b) => {
      const [ay, ax] = key(a);
      const [by, bx] = key(b);
      return by < ay || (by === ay && bx < ax) ? b : a;
    });
  }

  /** SVG rectangle {x, y, width, height} around the named cells. */
  _box(names, layout) {
    const cells = new Map(layout.cells.map((c) => [c.name, c]));
    const xs = [];
    const ys = [];
    for (const n of names) {
      const c = cells.get(n);
      if (!c) continue;
      for (const [dx, dy] of [[-1, -1], [1, 1]]) {
        const [sx, sy] = this._svgAt(c.x + (dx * c.size) / 2, c.y + (dy * c.size) / 2, layout);
        xs.push(sx);
        ys.push(sy);
      }
    }
    if (!xs.length) return null;
    const x = Math.min(...xs);
    const y = Math.min(...ys);
    return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
  }

  /** What the layout and state add over the cells: tile borders, aggregates formed (`state.aggregates`,
   * each its cells; "selected" when the selection offers its moves), the outlines of the selected
   * group's destination blocks (`blockDests`, each {move, cells}) and the pieces drawn over several
   * squares, once each from their lower-left square. */
  _overlay(layout, anchors, blockDests) {
    const st = this.state;
    const over = svgEl('g', { class: 'overlay' });
    for (const tile of layout.tiles || []) {
      const box = this._box(tile, layout);
      if (box) over.appendChild(svgEl('rect', { class: 'tile-border', ...box }));
    }
    const inset = (box, d, cls, attrs) => svgEl('rect', { class: cls, ...attrs,
      x: box.x + d, y: box.y + d, width: box.width - 2 * d, height: box.height - 2 * d, rx: 2 * d + 2 });
    const moving = blockDests.length ? this._groupAt(this.selected) : null;
    for (const agg of st.aggregates || []) {
      const box = this._box(agg.cells, layout);
      if (!box) continue;
      const cls = moving && moving.cells === agg.cells ? 'aggregate selected' : 'aggregate';
      over.appendChild(inset(box, 6, cls, { 'data-cells': agg.cells.join(','), 'data-piece': agg.piece }));
    }
    for (const d of blockDests) {
      const box = this._box(d.cells, layout);
      if (box) over.appendChild(inset(box, 4, 'dest-block', { 'data-move': d.move.move, 'data-to': d.move.to }));
    }
    const sizes = layout.piece_sizes || {};
    for (const [sq, anchor] of anchors) {
      if (sq !== anchor) continue;
      const letter = st.pieces[sq];
      const block = [...anchors].filter(([, a]) => a === anchor).map(([s]) => s);
      const box = this._box(block, layout);
      const n = sizes[letter] || 1;
      const art = pieceGroup(letter, this.colours[sideOf(letter)], this.pieceSet);
      art.classList.add('giant');
      art.setAttribute('data-anchor', anchor);
      art.setAttribute('transform', `translate(${box.x + 5 * n} ${box.y + 5 * n}) scale(${0.9 * n})`);
      over.appendChild(art);
    }
    return over;
  }

  /** SVG position of a board-unit point (y grows towards Black; flipped turns the board round). */
  _svgAt(x, y, layout) {
    const W = layout.width * S;
    const H = layout.height * S;
    return this.flipped ? [W - x * S, y * S] : [x * S, H - y * S];
  }

  _boardAt(sx, sy, layout) {
    const W = layout.width * S;
    const H = layout.height * S;
    return this.flipped ? [(W - sx) / S, sy / S] : [sx / S, (H - sy) / S];
  }

  render() {
    const st = this.state;
    const svg = this.svg;
    if (!st) { svg.replaceChildren(); return; }
    const files = st.files || 8;
    const ranks = st.ranks || 8;
    const layout = this._layout();
    const hasPoints = layout.cells.some((c) => c.shape === 'point');
    const M = Math.max(files, ranks) * 3.2; // margin for the coordinates
    const P = hasPoints ? S * 0.3 : 0; // the points on the edges reach beyond the squares
    const T = hasPoints ? P + M : 0; // top and right margin: the points' coordinates
    const W = layout.width * S;
    const H = layout.height * S;
    svg.setAttribute('viewBox', `${-M - P} ${-T} ${W + M + P + T} ${H + M + P + T}`);
    // Sizing hints for the stylesheet (on the board and its wrapper, which sizes it).
    for (const el of [this.container, this.container.parentElement]) {
      if (!el) continue;
      el.style.setProperty('--aspect', String((W + M + P + T) / (H + M + P + T)));
      el.style.setProperty('--board-min', `${Math.max(280, Math.max(files, ranks) * 24)}px`);
    }
    this.container.dataset.files = String(files);
    this.container.dataset.ranks = String(ranks);
    this.container.dataset.flipped = String(this.flipped);
    if (this.selected) this.container.dataset.selected = this.selected;
    else delete this.container.dataset.selected;

    const pieces = st.pieces || {};
    const legal = this._legal();
    const dests = new Map();
    const marks = this.marks;
    if (marks) for (const sq of marks.dests) dests.set(sq, true);
    else if (this.via) for (const m of [...this._viaMoves(this.via), ...this._movesTo(this.via)]) dests.set(m.to, m);
    else if (this.selected) for (const m of this._ownMoves(this.selected)) dests.set(m.to, m);
    // the destination blocks of the selection's group (a giant piece, an aggregate), each marked whole
    const blockDests = marks || this.via ? [] : this._groupMoves(this.selected);
    const inBlock = new Set(blockDests.flatMap((d) => d.cells));
    const vias = new Set(this.selected && !this.via && !marks
      ? this._ownMoves(this.selected).filter((m) => m.via && m.via.length).map((m) => m.via[0]) : []);
    const last = st.last_move || null;
    const doomed = new Set((this.pending && this.pending.captures) || []);
    const pendingBlock = blockDests.find((d) => d.move === this.pending);
    const pendingCells = new Set(pendingBlock ? pendingBlock.cells : this.pending ? [this.pending.to] : []);
    const anchors = this._anchors();
    // the King in check: its square, or every square of a giant King's block
    const checked = anchors.has(st.check) ? (sq) => anchors.get(sq) === anchors.get(st.check) : (sq) => sq === st.check;
    const gid = `sc-check-${this.id}`;

    const frag = document.createDocumentFragment();
    const defs = svgEl('defs');
    const grad = svgEl('radialGradient', { id: gid });
    grad.appendChild(svgEl('stop', { offset: '0%', 'stop-color': '#ff0000', 'stop-opacity': 1 }));
    grad.appendChild(svgEl('stop', { offset: '45%', 'stop-color': '#e70000', 'stop-opacity': 0.9 }));
    grad.appendChild(svgEl('stop', { offset: '100%', 'stop-color': '#a50000', 'stop-opacity': 0 }));
    defs.appendChild(grad);
    frag.appendChild(defs);

    frag.appendChild(svgEl('rect', { class: 'board-frame', x: -4, y: -4, width: W + 8, height: H + 8 }));

    const squares = svgEl('g', { class: 'squares' });
    const points = svgEl('g', { class: 'points' });
    for (const cell of layout.cells) {
      const name = cell.name;
      const isPoint = cell.shape === 'point';
      const [cx, cy] = this._svgAt(cell.x, cell.y, layout);
      const half = (cell.size * S) / 2;
      const classes = isPoint ? ['square', 'point'] : ['square', (Math.floor(cell.x) + Math.floor(cell.y)) % 2 === 0 ? 'dark' : 'light'];
      if (cell.tint) classes.push(`tint-${cell.tint}`); // e.g. a Tiling Rider unit's colour
      const g = svgEl('g', { 'data-square': name, transform: `translate(${cx - half} ${cy - half}) scale(${cell.size})` });
      // a highlight covers the cell: the whole square, or the disc of a point
      const cover = (cls) => (isPoint ? svgEl('circle', { class: cls, cx: S / 2, cy: S / 2, r: S / 2 })
        : svgEl('rect', { class: cls, width: S, height: S }));
      if (isPoint) {
        g.appendChild(svgEl('circle', { class: 'pt-bg', cx: S / 2, cy: S / 2, r: S / 2 }));
        g.appendChild(svgEl('circle', { class: 'pt-dot', cx: S / 2, cy: S / 2, r: S * 0.12 }));
      } else {
        g.appendChild(svgEl('rect', { class: 'sq-bg', width: S, height: S }));
      }
      if (last && (last.from === name || last.to === name)) {
        classes.push('last');
        g.appendChild(cover('hl-last'));
      }
      if (marks && marks.origins.has(name)) {
        classes.push('origin');
        g.appendChild(cover('hl-selected'));
      } else if (this.selected === name) {
        classes.push('selected');
        g.appendChild(cover('hl-selected'));
      }
      const group = this._groupAt(name);
      if ((legal[name] && legal[name].length) || (group && group.moves.length)) classes.push('movable');
      if (st.check && checked(name)) {
        classes.push('check');
        g.appendChild(svgEl('circle', { class: 'hl-check', cx: S / 2, cy: S / 2, r: S * 0.55, fill: `url(#${gid})` }));
      }
      const letter = pieces[name];
      if (letter) {
        const side = sideOf(letter);
        classes.push('piece');
        if (this.programmed[side] && this.programmed[side].has(letter.toUpperCase())) classes.push('programmed');
        g.setAttribute('data-piece', letter);
        g.setAttribute('data-side', String(side));
        if (!anchors.has(name)) { // a piece over several squares is drawn once, in the overlay
          const art = pieceGroup(letter, this.colours[side], this.pieceSet);
          art.setAttribute('transform', 'translate(5 5) scale(0.9)');
          g.appendChild(art);
        }
      }
      if (classes.includes('programmed')) { // a reprogrammed piece: a dot in the corner
        g.appendChild(svgEl('circle', { class: 'hl-programmed', cx: S * 0.86, cy: S * 0.14, r: S * 0.1 }));
      }
      if (inBlock.has(name)) { // a square of a group's destination block: a click anywhere on it moves the group
        classes.push('group-dest');
        g.appendChild(svgEl('rect', { class: 'hl-group-dest', width: S, height: S }));
      }
      if (dests.has(name) || inBlock.has(name)) {
        classes.push('dest');
        if (pendingCells.has(name)) classes.push('pending');
        if (letter) {
          classes.push('capture');
          g.appendChild(svgEl('circle', { class: 'hl-capture', cx: S / 2, cy: S / 2, r: S * 0.44 }));
        } else if (dests.has(name)) {
          g.appendChild(svgEl('circle', { class: 'hl-dest', cx: S / 2, cy: S / 2, r: S * 0.16 }));
        }
      }
      if (vias.has(name) || this.via === name) { // an intermediate square to click (or clicked)
        classes.push(this.via === name ? 'via' : 'via-option');
        g.appendChild(svgEl('rect', { class: 'hl-via', x: S * 0.08, y: S * 0.08, width: S * 0.84, height: S * 0.84 }));
      }
      if (doomed.has(name)) {
        classes.push('would-capture');
        g.appendChild(svgEl('circle', { class: 'hl-would-capture', cx: S / 2, cy: S / 2, r: S * 0.46 }));
      }
      g.setAttribute('class', classes.join(' '));
      (isPoint ? points : squares).appendChild(g);
    }
    frag.appendChild(squares);
    frag.appendChild(points);
    frag.appendChild(this._overlay(layout, anchors, blockDests));

    const coords = svgEl('g', { class: 'coords', 'font-size': M * 0.62, 'aria-hidden': 'true' });
    const label = (text, x, y) => {
      const t = svgEl('text', { x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central' });
      t.textContent = text;
      coords.appendChild(t);
    };
    const labels = layout.labels || {};
    const sq = labels.square || rectLayout(files, ranks).labels.square;
    [...sq.files].forEach((f, i) => label(f, this._svgAt(i + 0.5, 0, layout)[0], H + P + M * 0.55));
    sq.ranks.forEach((r, i) => label(r, -P - M * 0.5, this._svgAt(0, i + 0.5, layout)[1]));
    if (labels.point) { // the intersections' coordinates: letters above, numbers on the right
      [...labels.point.files].forEach((f, i) => label(f, this._svgAt(i, 0, layout)[0], -P - M * 0.5));
      labels.point.ranks.forEach((r, i) => label(r, W + P + M * 0.5, this._svgAt(0, i, layout)[1]));
    }
    frag.appendChild(coords);
    svg.replaceChildren(frag);
    if (this.drag && this.drag.ghost) svg.appendChild(this.drag.ghost);
  }
}
