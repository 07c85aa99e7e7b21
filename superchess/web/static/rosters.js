// The roster editor (/rosters): program piece types by clicking squares around a piece on an
// empty board; the server's preview shows where the piece can go (on the empty board and in the
// start position) and why a roster could not be used. Rosters are saved by name through
// rosterstore.js (the account on the server, a guest in this browser).
//
// The roster being edited: letter -> {mode, vectors}; a letter with no vectors is the default
// (it is never sent: toRoster() leaves it out).

import * as api from './api.js';
import { stayPresent } from './presence.js';
import { BoardView, parseSquare, piecesFromFen, squareName } from './board.js';
import { DEFAULT_COLOURS, DEFAULT_SET, pieceIcon } from './pieces.js';
import { openStore } from './rosterstore.js';
import {
  $, h, showMessage, clearMessage, loadHeader, pieceSetFor, rosterList, variantPieces, vectorText,
} from './ui.js';

const params = new URLSearchParams(window.location.search);
const variant = params.get('variant') || 'super16';
const DEBOUNCE_MS = 150;
const MODES = ['jump', 'step', 'slide'];

let info = null;            // GET /api/variants/{v}/pieces
let names = {};             // letter -> name
let pieceSet = DEFAULT_SET; // the variant's drawings (by name)
let work = {};              // letter -> {mode, vectors: [[dx, dy], ...]}
let letter = 'N';           // the piece type being edited
let origin = 'h8';          // where it stands on the empty board
let placing = false;        // the next click moves the piece
let store = null;
let saved = [];             // the store's list for this variant
let previewSeq = 0;         // the latest preview request; older replies are ignored
let previewTimer = null;

const rosterMsg = $('#roster-message');
const board = new BoardView($('#board'), {
  promotionId: 'editor-promotion',
  onSquare: (sq) => onSquare(sq),
  onSquareRemove: (sq) => onSquareRemove(sq),
});
const startBoard = new BoardView($('#start-board'), { promotionId: 'start-promotion', interactive: false });

// ---- the roster -------------------------------------------------------------------------

function program(l = letter) {
  if (!work[l]) work[l] = { mode: 'jump', vectors: [] };
  return work[l];
}

/** The roster to send: only letters with vectors (a piece with none moves by default). */
function toRoster() {
  const out = {};
  for (const [l, p] of Object.entries(work)) {
    if (p && p.vectors.length) out[l] = { mode: p.mode, vectors: p.vectors.map((v) => [v[0], v[1]]) };
  }
  return out;
}

function fromRoster(roster) {
  work = {};
  for (const [l, p] of Object.entries(roster || {})) {
    if (!p || !Array.isArray(p.vectors)) continue;
    work[l] = {
      mode: MODES.includes(p.mode) ? p.mode : 'jump',
      vectors: p.vectors.filter((v) => Array.isArray(v) && v.length === 2).map((v) => [Number(v[0]), Number(v[1])]),
    };
  }
}

const sameVector = (a, b) => a[0] === b[0] && a[1] === b[1];

function vectorTo(sq) {
  const a = parseSquare(origin);
  const b = parseSquare(sq);
  return a && b ? [b[0] - a[0], b[1] - a[1]] : null;
}

function squareAt(v) {
  const a = parseSquare(origin);
  const f = a[0] + v[0];
  const r = a[1] + v[1];
  if (!info || f < 0 || r < 0 || f >= info.files || r >= info.ranks) return null;
  return squareName(f, r);
}

function addVector(v) {
  if (!v) return;
  if (v[0] === 0 && v[1] === 0) {
    showMessage('That is the square the piece stands on: a move must go somewhere.', 'info', 4000, rosterMsg);
    return;
  }
  const p = program();
  if (p.vectors.some((x) => sameVector(x, v))) return;
  p.vectors.push(v);
  changed();
}

function removeVector(v) {
  const p = work[letter];
  if (!p || !v) return;
  const before = p.vectors.length;
  p.vectors = p.vectors.filter((x) => !sameVector(x, v));
  if (p.vectors.length !== before) changed();
}

function onSquare(sq) {
  if (placing) {
    origin = sq;
    setPlacing(false);
    changed();
    return;
  }
  addVector(vectorTo(sq));
}

function onSquareRemove(sq) {
  if (placing) return;
  removeVector(vectorTo(sq));
}

function setPlacing(on) {
  placing = Boolean(on);
  const btn = $('#place-piece');
  btn.setAttribute('aria-pressed', String(placing));
  btn.classList.toggle('active', placing);
  btn.textContent = placing ? 'Click a square…' : 'Move piece';
}

/** Something in the roster, the piece or its square changed: redraw and ask for a preview. */
function changed() {
  renderEditor();
  schedulePreview();
}

// ---- rendering --------------------------------------------------------------------------

function renderPicker() {
  const picker = $('#piece-picker');
  picker.replaceChildren(...((info && info.pieces) || []).map((p) => {
    const programmed = Boolean(work[p.letter] && work[p.letter].vectors.length);
    return h('button', {
      type: 'button',
      class: `piece-choice${programmed ? ' programmed' : ''}`,
      'data-letter': p.letter,
      'aria-pressed': String(p.letter === letter),
      title: programmed ? `${p.name} (reprogrammed)` : p.name,
      onclick: () => { letter = p.letter; changed(); },
    }, pieceIcon(p.letter, DEFAULT_COLOURS[0], 28, pieceSet), h('span', { text: p.name }));
  }));
}

function renderEditor() {
  renderPicker();
  const p = work[letter];
  const vectors = p ? p.vectors : [];
  $('#piece-mode').value = p ? p.mode : 'jump';
  $('#origin').textContent = origin;
  $('#piece-state').textContent = vectors.length
    ? `${names[letter] || letter}: reprogrammed, ${vectors.length} move${vectors.length === 1 ? '' : 's'} (${p.mode}).`
    : `${names[letter] || letter}: default movement (no program).`;
  $('#editor').dataset.letter = letter;

  const list = $('#vectors');
  if (!vectors.length) {
    list.replaceChildren(h('li', { class: 'empty muted', text: 'No moves: this piece moves by default.' }));
  } else {
    list.replaceChildren(...vectors.map((v) => {
      const to = squareAt(v);
      return h('li', { 'data-vector': `${v[0]},${v[1]}`, class: to ? null : 'off-board' },
        h('span', { class: 'vec', text: vectorText(v) }),
        h('span', { class: 'muted', text: to ? ` → ${to}` : ` (off the board from ${origin})` }),
        h('button', {
          type: 'button', class: 'small remove', title: 'Remove this move',
          'aria-label': `Remove ${vectorText(v)}`, onclick: () => removeVector(v),
        }, 'Remove'));
    }));
  }

  board.state = { files: info ? info.files : 16, ranks: info ? info.ranks : 16, pieces: { [origin]: letter } };
  board.render();
  $('#roster-summary').replaceChildren(rosterList(toRoster(), names));
}

// ---- preview ----------------------------------------------------------------------------

function setPreviewState(s) {
  $('#editor').dataset.preview = s;
}

function schedulePreview() {
  clearTimeout(previewTimer);
  previewSeq += 1; // replies to earlier requests are stale from now on
  setPreviewState('pending');
  previewTimer = setTimeout(runPreview, DEBOUNCE_MS);
}

async function runPreview() {
  const seq = previewSeq;
  const body = { variant, roster: toRoster(), letter, square: origin };
  try {
    const res = await api.postJSON('/api/rosters/preview', body);
    if (seq !== previewSeq) return;
    board.setMarks(res.empty || [], [origin]);
    const start = res.start || {};
    startBoard.setMarks(Object.values(start).flat(), Object.keys(start));
    if (res.problem) showMessage(res.problem, 'error', 0, rosterMsg);
    else clearMessage(rosterMsg);
    setPreviewState(res.problem ? 'problem' : 'ok');
  } catch (err) {
    if (seq !== previewSeq) return;
    board.setMarks([], [origin]);
    startBoard.setMarks([], []);
    showMessage(err.message, 'error', 0, rosterMsg);
    setPreviewState('error');
  }
}

// ---- saved rosters ----------------------------------------------------------------------

function renderSaved() {
  const ul = $('#saved-rosters');
  if (!saved.length) {
    ul.replaceChildren(h('li', { class: 'empty', text: 'No saved rosters yet.' }));
    return;
  }
  ul.replaceChildren(...saved.map((r) => {
    const count = Object.keys(r.roster || {}).length;
    return h('li', { 'data-name': r.name },
      h('div', { class: 'grow' },
        h('strong', { text: r.name }),
        h('span', { class: 'sub', text: count ? `${count} piece type${count === 1 ? '' : 's'} reprogrammed` : 'default' })),
      h('button', { type: 'button', class: 'small load', onclick: () => loadSaved(r) }, 'Load'),
      h('button', { type: 'button', class: 'small danger delete', onclick: () => deleteSaved(r) }, 'Delete'));
  }));
}

async function refreshSaved() {
  try {
    saved = await store.list(variant);
  } catch (err) {
    saved = [];
    showMessage(`Could not load your saved rosters: ${err.message}`);
  }
  renderSaved();
}

function loadSaved(r) {
  fromRoster(r.roster);
  $('#roster-name').value = r.name;
  const first = Object.keys(work).find((l) => work[l].vectors.length);
  if (first) letter = first;
  showMessage(`Loaded "${r.name}".`, 'ok', 3000);
  changed();
}

async function deleteSaved(r) {
  if (!window.confirm(`Delete the saved roster "${r.name}"?`)) return;
  try {
    await store.remove(r.name);
    showMessage(`Deleted "${r.name}".`, 'ok', 3000);
  } catch (err) {
    showMessage(err.message);
  }
  await refreshSaved();
}

$('#save-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const name = $('#roster-name').value.trim();
  if (!name) { showMessage('Give the roster a name.'); $('#roster-name').focus(); return; }
  if (saved.some((r) => r.name === name) && !window.confirm(`Replace the saved roster "${name}"?`)) return;
  const btn = $('#save-roster');
  btn.disabled = true;
  try {
    await store.save(name, variant, toRoster());
    showMessage(`Saved "${name}".`, 'ok', 3000);
    await refreshSaved();
  } catch (err) {
    showMessage(err.message);
  } finally {
    btn.disabled = false;
  }
});

// ---- controls ---------------------------------------------------------------------------

$('#piece-mode').addEventListener('change', (e) => {
  program().mode = e.target.value;
  changed();
});

$('#place-piece').addEventListener('click', () => setPlacing(!placing));

$('#add-vector-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const dx = Number($('#add-dx').value);
  const dy = Number($('#add-dy').value);
  if (!Number.isInteger(dx) || !Number.isInteger(dy)) {
    showMessage('A move is two whole numbers.', 'error', 6000, rosterMsg);
    return;
  }
  addVector([dx, dy]); // the server names a vector out of range
});

$('#reset-piece').addEventListener('click', () => {
  delete work[letter];
  changed();
});

$('#reset-all').addEventListener('click', () => {
  if (Object.keys(toRoster()).length && !window.confirm('Reset every piece to its default movement?')) return;
  work = {};
  changed();
});

document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && placing) setPlacing(false);
});

// ---- start ------------------------------------------------------------------------------

async function start() {
  const me = await loadHeader();
  store = await openStore(me);
  $('#store-kind').textContent = store.kind === 'account'
    ? 'Kept on your account.'
    : 'You are a guest: rosters are kept in this browser only (log in to keep them on your account).';
  try {
    info = await variantPieces(variant);
  } catch (err) {
    showMessage(err.message, 'error', 0);
    return;
  }
  names = Object.fromEntries((info.pieces || []).map((p) => [p.letter, p.name]));
  pieceSet = await pieceSetFor(variant);
  board.pieceSet = pieceSet;
  startBoard.pieceSet = pieceSet;
  if (!info.reprogrammable) showMessage(`${variant} pieces cannot be reprogrammed.`, 'error', 0, rosterMsg);
  if (!names[letter]) letter = (info.pieces[0] || {}).letter || 'K';
  startBoard.state = { files: info.files, ranks: info.ranks, pieces: piecesFromFen(info.start_fen, info.files, info.ranks) };
  changed();
  await refreshSaved();
}

// For tests and debugging.
window.superchess = {
  board, startBoard, get roster() { return toRoster(); }, get letter() { return letter; }, get origin() { return origin; },
};

stayPresent(); // a seek of ours stays in the lobby while this page is open
start();
