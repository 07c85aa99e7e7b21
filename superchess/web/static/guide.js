// The piece guide of the game page: a legend naming every piece type of the game with a diagram of
// where it moves from the centre of an empty board (the server's `/api/games/{id}/guide`, computed
// by the rules themselves), each side's program as this viewer may see it, and the rules a diagram
// cannot show; hovering a piece (or a long press on a phone) names it and lights where it could
// move if it were its side's turn (`/api/games/{id}/reach/{square}`).

import * as api from './api.js';
import { pieceIcon, svgEl } from './pieces.js';
import { $, h, sideLabel } from './ui.js';

const LONG_PRESS_MS = 450;

/** "c5" -> [2, 4] (file and rank indexes); null for anything else. */
function coords(square) {
  const m = /^([a-z])(\d+)$/.exec(square || '');
  return m ? [m[1].charCodeAt(0) - 97, Number(m[2]) - 1] : null;
}

function vectorsText(program) {
  const vectors = (program && program.vectors) || [];
  return `${program.mode}: ${vectors.map(([dx, dy]) => `(${dx}, ${dy})`).join(', ')}`;
}

/** A small SVG of the destinations around the origin: `td[data-square]` cells, the origin marked. */
function diagram(origin, destinations) {
  const o = coords(origin);
  const cells = destinations.map(coords).filter(Boolean);
  const r = Math.max(2, ...cells.map(([x, y]) => Math.max(Math.abs(x - o[0]), Math.abs(y - o[1]))));
  const n = 2 * r + 1;
  const svg = svgEl('svg', { viewBox: `0 0 ${n} ${n}`, class: 'guide-diagram', role: 'img', 'data-origin': origin,
    'data-destinations': destinations.join(','), 'aria-label': `moves from ${origin}: ${destinations.join(' ')}` });
  const lit = new Set(destinations);
  for (let dy = r; dy >= -r; dy -= 1) {
    for (let dx = -r; dx <= r; dx += 1) {
      const x = o[0] + dx;
      const y = o[1] + dy;
      const name = `${String.fromCharCode(97 + x)}${y + 1}`;
      const cls = dx === 0 && dy === 0 ? 'dg-origin' : lit.has(name) ? 'dg-dest' : (x + y) % 2 ? 'dg-light' : 'dg-dark';
      svg.appendChild(svgEl('rect', { x: dx + r, y: r - dy, width: 1, height: 1, class: cls }));
    }
  }
  return svg;
}

export class Guide {
  /**
   * @param {string} gameId
   * @param {BoardView} board  the game's board (its marks light a hovered piece's reach)
   * @param {function} atRest  may the board show a hovered piece's reach now (nothing selected or
   *                           being chosen on it)?
   * @param {function} restore puts the board's own marks back once the pointer leaves the piece
   */
  constructor(gameId, board, atRest, restore) {
    this.gameId = gameId;
    this.board = board;
    this.atRest = atRest;
    this.restore = restore;
    this.data = null;
    this.key = null;       // what the loaded guide depends on (a new set-up step or the end reloads it)
    this.reaches = new Map(); // "<version>|<square>" -> the server's answer
    this.hovered = null;
    this.version = null;
    const svg = board.svg;
    svg.addEventListener('mouseover', (e) => this._hover(e));
    svg.addEventListener('mouseleave', () => this._unhover());
    svg.addEventListener('pointerdown', (e) => {
      if (e.pointerType === 'mouse') return;
      const sq = this._squareOf(e);
      this.press = setTimeout(() => this._show(sq), LONG_PRESS_MS); // a long press on a phone
    });
    for (const end of ['pointerup', 'pointercancel']) svg.addEventListener(end, () => clearTimeout(this.press));
  }

  /** A new state: (re)load the guide when what it shows may have changed. */
  update(st, colours, pieceSet) {
    if (st.version !== this.version) this._unhover(); // a new position: the reach shown is stale
    this.version = st.version;
    const key = `${st.variant}|${st.status}|${JSON.stringify(st.rosters || null)}`;
    if (key !== this.key) {
      this.key = key;
      api.getJSON(`/api/games/${encodeURIComponent(this.gameId)}/guide`)
        .then((data) => { this.data = data; this.render(st, colours, pieceSet); })
        .catch(() => {});
    }
    this.render(st, colours, pieceSet);
  }

  render(st, colours, pieceSet) {
    const box = $('#guide');
    const data = this.data;
    box.hidden = !data;
    if (!data) return;
    $('#guide-list').replaceChildren(...data.pieces.map((p) => {
      const sides = (p.sides || []).map((s, side) => {
        if (s === 'secret') return h('li', { class: 'secret', 'data-side': String(side), text: `${sideLabel(side)}: secret program` });
        if (!s) return null;
        return h('li', { class: 'programmed', 'data-side': String(side) },
          `${sideLabel(side)}: programmed — ${vectorsText(s.program)}`, diagram(data.origin, s.destinations));
      }).filter(Boolean);
      return h('li', { class: 'guide-piece', 'data-letter': p.letter },
        h('div', { class: 'guide-head' }, pieceIcon(p.letter, colours[0], 28, pieceSet),
          h('strong', { text: p.name }), h('span', { class: 'muted', text: ` (${p.label || p.letter})` })),
        p.destinations ? diagram(data.origin, p.destinations) : null,
        sides.length ? h('ul', { class: 'guide-programs' }, sides) : null);
    }));
    $('#guide-notes').replaceChildren(...(data.notes || []).map((n) => h('li', { text: n })));
  }

  /** The piece's square under the pointer; not one the viewer can move (its own highlights show
   * that, and redrawing the board under a press would lose the click). */
  _squareOf(e) {
    const g = e.target && e.target.closest ? e.target.closest('[data-square]') : null;
    return g && g.classList.contains('piece') && !g.classList.contains('movable') ? g.getAttribute('data-square') : null;
  }

  _hover(e) {
    const sq = this._squareOf(e);
    if (sq === this.hovered) return;
    if (!sq) { this._unhover(); return; }
    this._show(sq);
  }

  async _show(sq) {
    if (!sq || !this.atRest()) return;
    this.hovered = sq;
    const key = `${this.version}|${sq}`;
    let reach = this.reaches.get(key);
    if (!reach) {
      try {
        reach = await api.getJSON(`/api/games/${encodeURIComponent(this.gameId)}/reach/${encodeURIComponent(sq)}`);
      } catch { return; }
      this.reaches.set(key, reach);
    }
    if (this.hovered !== sq) return;
    const letter = reach.piece;
    const side = letter === letter.toUpperCase() ? 0 : 1;
    const piece = this.data && this.data.pieces.find((p) => p.letter === letter.toUpperCase());
    const tip = $('#piece-tip');
    tip.hidden = false;
    tip.dataset.square = sq;
    tip.textContent = `${piece ? piece.name : letter} (${sideLabel(side)}) on ${sq}: `
      + (reach.secret ? 'secret program' : `${reach.destinations.length} square${reach.destinations.length === 1 ? '' : 's'} to go to`);
    this.board.setMarks(reach.destinations, [sq]);
  }

  _unhover() {
    clearTimeout(this.press);
    if (!this.hovered) return;
    this.hovered = null;
    $('#piece-tip').hidden = true;
    this.restore();
  }
}
