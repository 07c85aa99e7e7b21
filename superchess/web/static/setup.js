// The set-up chooser of variants with generated set-ups (Superchess, rules 2.2): random (the
// server draws one when the match is created), from a seed, or square by square; "New shuffle"
// asks the server for a random set-up and puts it in the per-square choice. Every choice is
// previewed by the server (POST /api/setups/preview), shown on a small board, and the server's
// refusal (its `detail`) is shown as it is.
//
// new SetupChooser(fieldset, prefix) fills the fieldset; ids: #{prefix}setup-mode
// (random|seed|squares), #{prefix}setup-seed, #{prefix}setup-squares (select[data-square] per
// square, value "" = none or a substitute letter), #{prefix}shuffle, #{prefix}setup-preview (the
// board), #{prefix}setup-fen, #{prefix}setup-holdings, #{prefix}setup-message. The fieldset carries
// data-mode and data-preview (idle|pending|ok|error). value() -> the match fields to send.

import * as api from './api.js';
import { BoardView, piecesFromFen } from './board.js';
import { DEFAULT_COLOURS, PieceSet } from './pieces.js';
import { h, pieceSetFor } from './ui.js';

const SQUARES = ['a1', 'b1', 'c1', 'd1', 'f1', 'g1', 'h1'];
const SUBSTITUTES = ['A', 'E', 'S', 'V'];
const MODES = [
  ['random', 'Random — drawn when the game starts'],
  ['seed', 'From a seed'],
  ['squares', 'Pick per square'],
];

export class SetupChooser {
  constructor(fieldset, prefix = '') {
    this.root = fieldset;
    this.prefix = prefix;
    this.variant = null;
    this.size = [8, 8];
    this.seq = 0;
    this.timer = null;
    this.set = new PieceSet();
    this.fen = null; // the previewed set-up's FEN (null: nothing previewed)
    const id = (s) => `${prefix}${s}`;

    this.mode = h('select', { id: id('setup-mode') },
      ...MODES.map(([value, text]) => h('option', { value }, text)));
    this.seed = h('input', {
      type: 'text', id: id('setup-seed'), maxlength: '40', autocomplete: 'off', spellcheck: 'false',
      placeholder: 'any word or number',
    });
    this.seedLabel = h('label', { class: 'setup-seed-label' }, 'Seed', this.seed);
    this.squares = h('div', { id: id('setup-squares'), class: 'setup-squares' });
    this.selects = {};
    for (const sq of SQUARES) {
      const sel = h('select', { 'data-square': sq, 'aria-label': `Substitute on ${sq}` });
      this.selects[sq] = sel;
      this.squares.appendChild(h('label', { class: 'setup-square' }, h('span', { text: sq }), sel));
    }
    this._fillSubstitutes();
    this.shuffle = h('button', { type: 'button', id: id('shuffle'), class: 'small' }, 'New shuffle');
    this.note = h('p', { class: 'muted small-print setup-note' });
    this.message = h('div', { id: id('setup-message'), class: 'setup-message', role: 'status' });
    this.boardEl = h('div', { id: id('setup-preview'), class: 'setup-board' });
    this.fenEl = h('code', { id: id('setup-fen'), class: 'setup-fen' });
    this.holdingsEl = h('div', { id: id('setup-holdings'), class: 'muted small-print' });
    this.previewBox = h('div', { class: 'setup-preview-box' }, this.boardEl, this.holdingsEl, this.fenEl);

    fieldset.replaceChildren(
      h('legend', { text: 'Set-up: the substitutes on the back rank' }),
      h('div', { class: 'form-row' }, h('label', { class: 'setup-mode-label' }, 'Set-up', this.mode), this.shuffle),
      this.seedLabel,
      this.squares,
      this.note,
      this.message,
      this.previewBox,
    );
    this.board = new BoardView(this.boardEl, { interactive: false, promotionId: id('setup-promotion') });

    this.mode.addEventListener('change', () => this.refresh());
    this.seed.addEventListener('input', () => this.refresh(300));
    for (const sel of Object.values(this.selects)) sel.addEventListener('change', () => this.refresh());
    this.shuffle.addEventListener('click', () => this.newShuffle());
    this.refresh();
  }

  /** Shows the chooser for `variant` when `setups` (its options flag), else hides it. */
  async setVariant(variant, setups, files = 8, ranks = 8) {
    this.root.hidden = !setups;
    if (!setups || variant === this.variant) return;
    this.variant = variant;
    this.size = [files, ranks];
    this.set = await pieceSetFor(variant);
    this.board.setPieceSet(this.set);
    this._fillSubstitutes();
    this.refresh();
  }

  get active() {
    return !this.root.hidden;
  }

  /** The match fields of the current choice: {setup_seed} | {setup_squares} | {} (random). */
  value() {
    if (!this.active) return {};
    const mode = this.mode.value;
    if (mode === 'seed' && this.seed.value.trim()) return { setup_seed: this.seed.value.trim() };
    if (mode === 'squares') {
      const squares = this.chosenSquares();
      if (Object.keys(squares).length) return { setup_squares: squares };
    }
    return {};
  }

  chosenSquares() {
    const out = {};
    for (const [sq, sel] of Object.entries(this.selects)) if (sel.value) out[sq] = sel.value;
    return out;
  }

  _fillSubstitutes() {
    for (const sel of Object.values(this.selects)) {
      const previous = sel.value;
      sel.replaceChildren(h('option', { value: '' }, '—'),
        ...SUBSTITUTES.map((l) => h('option', { value: l }, `${this.set.name(l) === l ? l : `${this.set.name(l)} (${l})`}`)));
      sel.value = previous || '';
    }
  }

  _state(kind) {
    this.root.dataset.preview = kind;
  }

  _show(fen) {
    this.fen = fen;
    const [files, ranks] = this.size;
    this.previewBox.hidden = !fen;
    this.fenEl.textContent = fen || '';
    this.board.state = { files, ranks, pieces: fen ? piecesFromFen(fen, files, ranks) : {} };
    this.board.colours = [...DEFAULT_COLOURS];
    this.board.render();
    const held = /\[([A-Za-z]*)\]/.exec(fen || '');
    const mine = held ? [...held[1]].filter((c) => c === c.toUpperCase()) : [];
    this.holdingsEl.textContent = fen
      ? `Each side holds: ${mine.length ? mine.map((l) => this.set.name(l)).join(', ') : 'nothing'}`
      : '';
  }

  _error(text) {
    this.message.textContent = text || '';
    this.message.dataset.kind = text ? 'error' : '';
  }

  /** Re-reads the choice and previews it (after `delay` ms: typing a seed). */
  refresh(delay = 0) {
    clearTimeout(this.timer);
    const mode = this.mode.value;
    this.root.dataset.mode = mode;
    this.seedLabel.hidden = mode !== 'seed';
    this.squares.hidden = mode !== 'squares';
    const seq = ++this.seq;
    this._error('');
    if (mode === 'random') {
      this.note.textContent = 'A random set-up is drawn when the game starts. "New shuffle" shows one you can keep.';
      this._show(null);
      this._state('idle');
      return;
    }
    if (mode === 'seed' && !this.seed.value.trim()) {
      this.note.textContent = 'The same seed always gives the same set-up.';
      this._show(null);
      this._state('idle');
      return;
    }
    if (mode === 'squares' && !Object.keys(this.chosenSquares()).length) {
      this.note.textContent = 'Put the four substitutes on two of a1–d1 and two of f1–h1; Player 2 mirrors them.';
      this._show(null);
      this._state('idle');
      return;
    }
    this.note.textContent = mode === 'seed'
      ? 'The same seed always gives the same set-up.'
      : 'Put the four substitutes on two of a1–d1 and two of f1–h1; Player 2 mirrors them.';
    this._state('pending');
    const body = { variant: this.variant || 'superchess', ...(mode === 'seed'
      ? { seed: this.seed.value.trim(), squares: null } : { seed: null, squares: this.chosenSquares() }) };
    this.timer = setTimeout(() => this._preview(body, seq), delay);
  }

  async _preview(body, seq) {
    try {
      const res = await api.previewSetup(body);
      if (seq !== this.seq) return;
      this._show(res.fen);
      this._state('ok');
    } catch (err) {
      if (seq !== this.seq) return;
      this._show(null);
      this._error(err.message);
      this._state('error');
    }
  }

  /** Asks the server for a random set-up and makes it the per-square choice. */
  async newShuffle() {
    const seq = ++this.seq;
    clearTimeout(this.timer);
    this._state('pending');
    this.shuffle.disabled = true;
    try {
      const res = await api.previewSetup({ variant: this.variant || 'superchess', seed: null, squares: null });
      if (seq !== this.seq) return;
      for (const [sq, sel] of Object.entries(this.selects)) sel.value = (res.squares && res.squares[sq]) || '';
      this.mode.value = 'squares';
      this.refresh();
    } catch (err) {
      if (seq !== this.seq) return;
      this._error(err.message);
      this._state('error');
    } finally {
      this.shuffle.disabled = false;
    }
  }
}
