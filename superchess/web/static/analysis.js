// The analysis board (/analysis): any position of any variant, from a game (?game=<id>[&ply=n]),
// a FEN (?variant=&fen=) or a pasted record; both sides move freely with the server's legal moves
// (POST /api/analysis/position); the moves form a tree (main line and side lines) held here; the
// engine's evaluation and best line on request (POST /api/analysis/engine); a line exported as a
// record (POST /api/analysis/record). docs/protocol.md, "Analysis".

import * as api from './api.js';
import { BoardView } from './board.js';
import { $, h, showMessage, clearMessage, loadHeader, pieceSetFor } from './ui.js';

const post = (path, body) => api.postJSON(`/api/analysis/${path}`, body);

// The tree: node = {id, parent, move (machine text), written (readable), ply, children, state}.
let nodes = [];
let current = null;
let setup = { variant: 'super16', fen: null, rosters: null };
let namedPieces = new Set();  // the variants whose pieces the server names (GET /api/variants/{v}/pieces)
let engineAsked = 0;  // the node id of the last engine request (an answer for another node is dropped)

const board = new BoardView($('#board'), { onMove: (move) => play(move) });

function newRoot(state = null) {
  nodes = [{ id: 0, parent: null, move: null, written: '', ply: 0, children: [], state }];
  current = nodes[0];
}

function addChild(parent, move, written, ply) {
  const existing = parent.children.find((n) => n.move === move);
  if (existing) return existing;
  const node = { id: nodes.length, parent, move, written, ply, children: [], state: null };
  nodes.push(node);
  parent.children.push(node);
  return node;
}

function pathOf(node) {
  const moves = [];
  for (let n = node; n.parent; n = n.parent) moves.unshift(n.move);
  return moves;
}

async function stateOf(node) {
  if (!node.state) {
    node.state = await post('position', { ...setup, moves: pathOf(node) });
  }
  return node.state;
}

async function go(node) {
  try {
    const st = await stateOf(node);
    current = node;
    clearMessage();
    board.setState(st);
    showPosition(st);
    renderTree();
  } catch (err) {
    showMessage(err.message);
  }
}

async function play(move) {
  const parent = current;
  try {
    const st = await post('position', { ...setup, moves: [...pathOf(parent), move] });
    const node = addChild(parent, st.moves[st.moves.length - 1], st.written, parent.state ? parent.state.ply : 0);
    node.state = node.state || st;
    await go(node);
  } catch (err) {
    showMessage(err.message);
    board.setState(parent.state);
  }
}

const PLAYER = ['Player 1', 'Player 2'];

function showPosition(st) {
  let text = `${PLAYER[st.turn]} to move`;
  if (st.outcome) {
    const o = st.outcome;
    text = `${o.result} — ${o.termination}${o.winner === null ? '' : `, ${PLAYER[o.winner]} wins`}`;
  } else if (st.check) text += ' — check';
  $('#status').textContent = text;
  $('#fen-now').textContent = st.fen;
  $('#end-turn').hidden = !st.can_end_turn;
  $('#nav-back').disabled = !current.parent;
  $('#nav-start').disabled = !current.parent;
  $('#nav-forward').disabled = !current.children.length;
  $('#nav-end').disabled = !current.children.length;
}

// ---- the move tree ----------------------------------------------------------------------
function moveLabel(node, first) {
  const number = Math.floor(node.ply / 2) + 1;
  const startsTurn = !node.parent || !node.parent.parent || node.parent.ply !== node.ply;
  if (node.ply % 2 === 0 && startsTurn) return `${number}. `;
  if (first && node.ply % 2 === 1) return `${number}… `;
  return '';
}

function moveEl(node, first) {
  return h('button', {
    type: 'button', class: `tree-move${node === current ? ' current' : ''}`, 'data-node': String(node.id),
    'data-move': node.move, title: node.move,
  }, moveLabel(node, first) + (node.written || (node.move === 'end' ? '⏎' : node.move)));
}

/** The line that continues from `parent`: its first child, that one's first child, ...; each
 * branch's other children as side lines in parentheses after the main move. */
function lineEls(parent, startFirst) {
  const out = [];
  let first = startFirst;
  for (let p = parent; p.children.length; p = p.children[0]) {
    const [main, ...others] = p.children;
    out.push(moveEl(main, first));
    first = false;
    for (const alt of others) {
      out.push(h('span', { class: 'variation' }, '(', moveEl(alt, true), ...lineEls(alt, false), ')'));
      first = true;
    }
  }
  return out;
}

function renderTree() {
  $('#tree').replaceChildren(h('li', {}, ...lineEls(nodes[0], true)));
  const el = $('#tree .current');
  if (el) el.scrollIntoView({ block: 'nearest' });
}

$('#tree').addEventListener('click', (e) => {
  const el = e.target.closest('[data-node]');
  if (el) go(nodes[Number(el.dataset.node)]);
});

// ---- navigation -------------------------------------------------------------------------
function lineEnd(node) {
  let n = node;
  while (n.children.length) n = n.children[0];
  return n;
}

const nav = {
  start: () => go(nodes[0]),
  back: () => current.parent && go(current.parent),
  forward: () => current.children.length && go(current.children[0]),
  end: () => go(lineEnd(current)),
};
$('#nav-start').addEventListener('click', nav.start);
$('#nav-back').addEventListener('click', nav.back);
$('#nav-forward').addEventListener('click', nav.forward);
$('#nav-end').addEventListener('click', nav.end);
$('#flip').addEventListener('click', () => board.flip());
$('#end-turn').addEventListener('click', () => play('end'));
document.addEventListener('keydown', (e) => {
  if (e.target.closest('input, textarea, select')) return;
  const action = { ArrowLeft: nav.back, ArrowRight: nav.forward, Home: nav.start, End: nav.end }[e.key];
  if (action) {
    e.preventDefault();
    action();
  }
});

// ---- the engine -------------------------------------------------------------------------
function scoreText(res, turn) {
  if (!res.score) return 'no move to think about';
  if ('mate' in res.score) {
    const forFirst = turn === 0 ? res.score.mate : -res.score.mate;
    return `${forFirst > 0 ? '+' : '-'}M${Math.abs(res.score.mate)}`;
  }
  const pawns = res.white_cp / 100;
  return `${pawns >= 0 ? '+' : ''}${pawns.toFixed(2)}`;
}

function showBar(whiteCp) {
  const share = whiteCp === null ? 50 : 100 / (1 + Math.exp(-whiteCp / 250));
  $('#eval-bar').style.setProperty('--white', `${share.toFixed(1)}%`);
  $('#eval-bar').setAttribute('aria-valuenow', share.toFixed(0));
}

/** A line of turns from the turn `ply` (a ply number), numbered as the move list is. */
function numbered(turns, ply) {
  return turns.map((turn, i) => {
    const p = ply + i;
    const number = Math.floor(p / 2) + 1;
    return (p % 2 === 0 ? `${number}. ` : i === 0 ? `${number}… ` : '') + turn;
  }).join(' ');
}

async function engineLine() {
  const node = current;
  engineAsked = node.id;
  $('#engine-go').disabled = true;
  $('#engine-score').textContent = 'thinking…';
  $('#engine-line').textContent = '';
  try {
    const res = await post('engine', { ...setup, moves: pathOf(node) });
    if (engineAsked !== node.id) return;
    const st = await stateOf(node);
    $('#engine-score').textContent = `${scoreText(res, st.turn)}  (depth ${res.depth}, ${(res.time_ms / 1000).toFixed(1)} s)`;
    $('#engine-line').textContent = numbered(res.line, st.ply);
    $('#engine-line').dataset.pv = res.pv.join(' ');
    showBar(res.white_cp);
  } catch (err) {
    $('#engine-score').textContent = '';
    showMessage(err.message);
  } finally {
    $('#engine-go').disabled = false;
  }
}
$('#engine-go').addEventListener('click', engineLine);

// ---- sources: a game, a FEN, a record ---------------------------------------------------
async function startFrom(variant, fen, rosters = null) {
  setup = { variant, fen: fen || null, rosters };
  newRoot();
  $('#variant').value = variant;
  $('#fen').value = fen || '';
  board.setFlipped(false);
  api.variantLayout(variant).then((layout) => board.setLayout(layout)).catch(() => board.setLayout(null));
  board.setPieceSet(null);
  if (namedPieces.has(variant)) pieceSetFor(variant).then((set) => board.setPieceSet(set)).catch(() => {});
  $('#engine-score').textContent = '';
  $('#engine-line').textContent = '';
  showBar(null);
  await go(nodes[0]);
}

/** Start from an imported record: its moves become the main line; show the position after `ply` moves. */
async function startFromRecord(got, ply = null) {
  await startFrom(got.variant, got.fen, got.rosters);
  let node = nodes[0];
  got.moves.forEach((move, i) => { node = addChild(node, move, got.notation[i], got.plies[i]); });
  const target = ply === null ? node : nodes[Math.max(0, Math.min(ply, got.moves.length))];
  await go(target);
}

async function importRecord(text, ply = null) {
  try {
    await startFromRecord(await post('import', { record: text }), ply);
    return true;
  } catch (err) {
    showMessage(err.message);
    return false;
  }
}

$('#load-fen').addEventListener('click', () => startFrom($('#variant').value, $('#fen').value.trim()));
$('#import').addEventListener('click', () => importRecord($('#record-in').value));
$('#export').addEventListener('click', async () => {
  try {
    const resp = await fetch('/api/analysis/record', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, credentials: 'same-origin',
      body: JSON.stringify({ ...setup, moves: pathOf(current) }),
    });
    const text = await resp.text();
    if (!resp.ok) throw new Error(text);
    $('#record-out').value = text;
  } catch (err) {
    showMessage(err.message);
  }
});

async function start() {
  loadHeader();
  try {
    const opts = await api.options();
    $('#variant').replaceChildren(...opts.variants.map((v) => h('option', { value: v.name }, v.title)));
    namedPieces = new Set(opts.variants.filter((v) => v.named_pieces).map((v) => v.name));
  } catch (err) {
    showMessage(err.message);
  }
  const q = new URLSearchParams(window.location.search);
  const game = q.get('game');
  if (game) {
    $('#source').textContent = `game ${game}`;
    const resp = await fetch(`${api.recordUrl(game)}?notation=coordinates`, { credentials: 'same-origin' });
    const text = await resp.text();
    if (!resp.ok) {
      let detail = text;
      try { detail = JSON.parse(text).detail || text; } catch { /* plain text */ }
      showMessage(detail);
    } else if (await importRecord(text, q.has('ply') ? Number(q.get('ply')) : null)) return;
  }
  await startFrom(q.get('variant') || 'super16', q.get('fen') || null);
}

start();
