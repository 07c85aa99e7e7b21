// The game page: one websocket to /ws/games/{id}; every `state` message is rendered (older
// versions are ignored); intentions (moves, resign, draws, abort) are sent back. The server owns
// the truth: nothing here changes the position by itself.

import * as api from './api.js';
import { BoardView } from './board.js';
import { DEFAULT_SET, PIECE_NAMES, PieceSet, pieceIcon, sideOf } from './pieces.js';
import { Chat, showSpectators } from './chat.js';
import { GameColours } from './colours.js';
import { Guide } from './guide.js';
import { Loupe } from './loupe.js';
import { Premove } from './premove.js';
import { Replay } from './replay.js';
import { Sounds } from './sounds.js';
import { openStore } from './rosterstore.js';
import { Socket } from './socket.js';
import {
  $, h, showMessage, clearMessage, copyText, sideLabel, nameOf, resultText, humanize, absoluteUrl, loadHeader,
  MODE_LABELS, modeName, pieceNames, pieceSetFor, variantPieces, rosterList, profileUrl, ratingText, ratingChangeText, formatSpan,
} from './ui.js';

const gameId = (() => {
  const m = /\/game\/([^/?#]+)/.exec(window.location.pathname);
  if (m) return decodeURIComponent(m[1]);
  return new URLSearchParams(window.location.search).get('id');
})();

let state = null;        // the latest state rendered
let version = null;      // its version (null: not from the websocket yet)
let clockBase = null;    // state.clock plus the offset server - local at reception
let lastYou;             // `you` of the previous state: flip by default when it changes
let syncedAtZero = null; // the version for which a sync was sent after a clock ran out
let me = null;           // /api/me (for the saved rosters)
let names = { ...PIECE_NAMES }; // piece letter -> name (the variant's names once loaded)
let namesFor = null;     // the variant `names` were loaded for
let reprogrammable = false; // the variant has piece programs (its pieces' entry says so)
let pieceSet = DEFAULT_SET; // the variant's piece drawings (pieces.js), by name
let setupRosters = null; // saved rosters offered in the set-up panel (null: not loaded yet)
let setupLoading = null;
// The prelude (Superchess 2.3): what the player to move has chosen so far on this page.
const prelude = {
  key: null,      // the step being chosen ("<steps>|<expects>"); a new step clears the choice
  piece: null,    // the substitute chosen (letter)
  square: null,   // the square clicked on the board (the player's own back rank)
  swap: [],       // the board squares chosen for the exchange (at most two)
  pending: false, // a choice was sent: wait for the server's answer
  marked: false,  // the board shows the prelude's highlights
};
const TICK_MS = 100;

const board = new BoardView($('#board'), { onMove: (move) => send({ type: 'move', move }) });
new Loupe(board); // a phone's touch held on a 16x16 board magnifies it; lifting the finger chooses the square
// looking back through the moves (replay.js): the board shows a past position, the game goes on
const replay = new Replay(gameId, () => { if (state) render(state, false); }, (text) => showMessage(text, 'error'));
const premove = new Premove(board, (move) => send({ type: 'move', move }), (text) => showMessage(text, 'info', 5000));
const sounds = new Sounds();
const chat = new Chat((msg) => send(msg));
// the guide's hover shows a piece's reach only on a live board at rest (in play or after it,
// nothing selected, no premove under way); leaving it gives the board its own marks back
const guide = new Guide(gameId, board,
  () => Boolean(state) && state.status !== 'setup' && replay.live && !board.selected && premove.idle,
  () => premove.redraw());
const gameColours = new GameColours((msg) => send(msg), () => { if (state) render(state, false); });
let lowTimeWarned = null; // the version whose low-time warning was sounded

// ---- connection -------------------------------------------------------------------------

function setConnection(kind, text) {
  const el = $('#connection');
  if (!el) return;
  el.dataset.state = kind;
  el.textContent = text;
}

const conn = new Socket(`/ws/games/${encodeURIComponent(gameId || '')}`, {
  onMessage,
  onStatus: setConnection,
  onReopen: () => conn.send({ type: 'sync' }),
  onClose: (e) => { if (e.reason) showMessage(e.reason, 'error'); },
  finalCodes: [4404], // no such game: retrying will not help
});

function send(obj) {
  if (conn.send(obj)) return true;
  showMessage('Not connected to the server; reconnecting…', 'error');
  return false;
}

function onMessage(msg) {
  if (!msg || typeof msg !== 'object') return;
  if (msg.type === 'error') {
    showMessage(msg.message || 'The server refused that.', 'error');
    gameColours.settle(); // a refused colour: back to the game's
    $('#submit-roster').disabled = false; // a refused roster can be changed and sent again
    if (prelude.pending) { // a refused prelude choice: choose again
      prelude.pending = false;
      prelude.square = null;
      if (state) renderPrelude(state);
    }
    return;
  }
  if (msg.type === 'chat') { chat.receive(msg); return; }
  if (msg.type === 'spectators') { showSpectators(msg.count); return; }
  if (msg.type !== 'state' || !msg.state) return;
  if (typeof msg.version === 'number' && typeof version === 'number' && msg.version < version) return;
  if (typeof msg.version === 'number') version = msg.version;
  if (msg.event) announce(msg.event, msg.state);
  if (msg.event && msg.event.kind === 'colour') gameColours.settle();
  render(msg.state);
  gameColours.onState(msg.state);
}

/** The sound of an event: a move (capture, check), the start, the end. */
function soundOf(event, st) {
  if (event.kind === 'start') return 'start';
  if (event.kind === 'end') return 'end';
  if (event.kind !== 'move') return null;
  if (st.check) return 'check';
  const lost = (s) => (s && Array.isArray(s.captured) ? s.captured.flat().length : 0);
  return state && lost(st) > lost(state) ? 'capture' : 'move';
}

function announce(event, st) {
  const you = st.you;
  const player = you === 0 || you === 1;
  const sound = soundOf(event, st);
  if (sound) sounds.play(sound);
  switch (event.kind) {
    case 'draw_declined':
      if (player && event.side !== you) showMessage('Your draw offer was declined.', 'info', 6000);
      break;
    case 'start':
      if (st.prelude) showMessage('The prelude\'s time ran out: the missing choices were made at random. The game has started.', 'info', 8000);
      else showMessage('The game has started.', 'ok', 4000);
      break;
    case 'prelude': {
      const mine = player && event.side === you;
      if (!mine) {
        const who = player ? 'Your opponent' : `${playerName(st, event.side)} (${sideLabel(event.side)})`;
        showMessage(`${who} ${preludeStepText(event.swap !== undefined ? ['swap', ...(event.swap || [])]
          : [event.square, event.piece], event.side, st, false)}.`, 'info', 6000);
      }
      if (st.status === 'active') showMessage(`${mine ? 'Done' : 'The prelude is over'}: the game has started.`, 'ok', 5000);
      break;
    }
    case 'move':
      // a drafted turn reaches the others whole (Tiling Rider): say what it was
      if (event.turn && !(player && event.side === you)) {
        showMessage(`${player ? 'Your opponent' : playerName(st, event.side)} played: ${event.turn.filter((m) => m !== 'end').join(' ')}`, 'info', 8000);
      }
      break;
    case 'end':
      clearMessage(); // what was said during the game (a declined offer) is over with it
      break;
    case 'takeback_offer':
      if (player && event.side !== you) showMessage('Your opponent asks to take back their last move.', 'info', 8000);
      break;
    case 'takeback_declined':
      if (player && event.side !== you) showMessage('Your takeback request was declined.', 'info', 6000);
      break;
    case 'takeback':
      showMessage(`Taken back: ${(event.moves || []).join(' ')}.`, 'info', 5000);
      break;
    case 'rematch_offer':
      if (player && event.side !== you) showMessage('Your opponent offers a rematch.', 'info', 8000);
      break;
    case 'rematch_declined':
      if (player && event.side !== you) showMessage('Your rematch offer was declined.', 'info', 6000);
      break;
    case 'rematch':
      if (player) window.location.href = `/game/${encodeURIComponent(event.game_id)}`; // both players go
      break;
    case 'roster_submitted':
      if (player && event.side !== you) showMessage('Your opponent has submitted their roster.', 'info', 5000);
      if (st.status === 'active') showMessage('Both rosters are in: the game has started.', 'ok', 5000);
      break;
    default:
      break;
  }
}

// ---- rendering --------------------------------------------------------------------------

function isPlayer(st) {
  return st && (st.you === 0 || st.you === 1);
}

function playerName(st, side) {
  const p = (st.players || []).find((x) => x && x.side === side);
  return nameOf(p, st.status === 'waiting' ? 'Invited player' : sideLabel(side));
}

function show(sel, visible) {
  const el = typeof sel === 'string' ? $(sel) : sel;
  if (el) el.hidden = !visible;
}

/** Renders a state; `fresh` (a new message) also resets the clocks' base. */
function render(st, fresh = true) {
  state = st;
  ensureNames(st);
  const colours = gameColours.of(st);

  if (st.you !== lastYou) {
    lastYou = st.you;
    board.flipped = st.you === 1;
    placeCards();
  }
  replay.update(st);
  const shown = replay.shown(st); // the live state, or the position looked back at
  board.colours = colours;
  // the reprogrammed types of each side whose program this viewer sees, marked on the board
  board.programmed = [0, 1].map((s) => new Set(Object.keys((Array.isArray(st.rosters) && st.rosters[s]) || {})));
  board.interactive = isPlayer(st) && replay.live;
  board.setState(shown);

  const names = [playerName(st, 0), playerName(st, 1)];
  document.title = `${st.title || st.variant || 'Game'} — ${names[0]} vs ${names[1]} — Superchess`;
  $('#title').textContent = st.title || st.variant || 'Game';
  $('#time-control').textContent = st.time_control ? (st.time_control.name || st.time_control.id || '') : '';

  for (const side of [0, 1]) {
    const card = $(`#player-${side}`);
    const named = (st.players || []).find((x) => x && x.side === side && x.name);
    $(`#name-${side}`).replaceChildren(named ? h('a', { href: profileUrl(named.name), text: names[side] }) : names[side]);
    renderRating(side, st);
    card.querySelector('.swatch').style.background = colours[side];
    card.querySelector('.pc-you').hidden = st.you !== side;
    card.classList.toggle('to-move', (st.status === 'active' && st.turn === side)
      || (st.status === 'setup' && Boolean(st.prelude) && st.prelude.to_move === side));
    card.classList.toggle('is-you', st.you === side);
    renderCaptured(side, shown, colours);
    renderHoldings(side, shown, colours);
  }

  renderStatus(st);
  renderActions(st);
  renderRematch(st);
  renderInvite(st);
  renderMode(st);
  renderSetup(st);
  renderPrelude(st);
  renderRosters(st);
  renderMoves(st);
  renderReplay(st);
  premove.sync(st, replay.live);
  guide.update(st, colours, pieceSet);
  chat.setViewer(isPlayer(st));
  $('#fen').value = shown.fen || '';
  $('#download').href = api.recordUrl(st.id || gameId);
  $('#analyse').href = `/analysis?game=${encodeURIComponent(st.id || gameId)}`;
  $('#analyse').hidden = !['finished', 'aborted'].includes(st.status);

  const colourLabel = $('#colour-label');
  colourLabel.hidden = !isPlayer(st);
  // the game's colour, unless one is being picked (a refused one goes back to the game's)
  if (isPlayer(st) && !gameColours.preview) $('#colour').value = colours[st.you];

  if (fresh) onClock(st.clock);
}

/** Has this player a finished turn to take back (the server takes back its last finished turn and
 * everything after it)? Each move's turn is its ply number ("move_plies"; one move a turn without it). */
function hasFinishedTurn(st) {
  const finished = (st.moves || []).length - (st.turn_moves || 0);
  if (!Array.isArray(st.move_plies)) return finished > (st.turn === st.you ? 1 : 0);
  return st.move_plies.slice(0, finished).some((ply) => ply % 2 === st.you);
}

function renderStatus(st) {
  const el = $('#status');
  el.dataset.status = st.status || '';
  el.dataset.check = st.status === 'active' && st.check ? String(st.turn) : '';
  const player = isPlayer(st);
  let text;
  switch (st.status) {
    case 'waiting':
      text = st.invite_url ? 'Waiting for your opponent to accept the invitation.' : 'Waiting for the invited player to accept.';
      break;
    case 'active': {
      const turnName = playerName(st, st.turn);
      if (player) text = st.turn === st.you ? 'Your move.' : `Waiting for ${turnName} to move.`;
      else text = `${turnName} (${sideLabel(st.turn)}) to move.`;
      // a multi-move turn under way (InterGrid): the square move is made, a point move may follow
      if (player && st.turn === st.you && st.turn_moves > 0) text = 'Your turn continues: a point move, or End turn.';
      // a turn with an allowance (Tiling Rider): up to `moves_left` more moves
      if (player && st.turn === st.you && st.turn_moves > 0 && st.moves_left !== undefined) {
        text = `Your turn continues: up to ${st.moves_left} more move${st.moves_left > 1 ? 's' : ''}`
          + `${st.can_end_turn ? ', or End turn' : ''}; Undo takes a move back.`;
      }
      if (st.check) { // the side to move is the one in check
        if (player) text += st.turn === st.you ? ' You are in check!' : ` ${playerName(st, st.turn)} is in check.`;
        else text += ` ${playerName(st, st.turn)} (${sideLabel(st.turn)}) is in check.`;
      }
      if (st.draw_offer === 0 || st.draw_offer === 1) {
        if (player) text += st.draw_offer === st.you ? ' You offered a draw.' : ' Your opponent offers a draw.';
        else text += ` ${playerName(st, st.draw_offer)} offers a draw.`;
      }
      break;
    }
    case 'setup': {
      if (st.prelude) {
        const mover = st.prelude.to_move;
        if (mover !== 0 && mover !== 1) text = 'Prelude: the set-up is complete.';
        else if (player && mover === st.you) text = 'Prelude: your turn to choose.';
        else if (player) text = `Prelude: waiting for ${playerName(st, mover)} to choose.`;
        else text = `Prelude: ${playerName(st, mover)} (${sideLabel(mover)}) is choosing.`;
        break;
      }
      const submitted = st.roster_submitted || [];
      if (!player) text = 'The players are choosing their rosters.';
      else if (submitted[st.you]) text = `Roster submitted. Waiting for ${playerName(st, 1 - st.you)} to choose theirs.`;
      else text = 'Choose your roster for this game.';
      break;
    }
    case 'finished': {
      const parts = [st.reason || `${resultText(st.result)}${st.termination ? ` — ${humanize(st.termination)}` : ''}`];
      if (st.result && st.result !== '*') parts.push(`(${st.result})`);
      text = `Game over: ${parts.join(' ')}`;
      break;
    }
    case 'aborted':
      text = st.reason || 'The game was aborted.';
      break;
    case 'declined':
      text = st.reason || 'The invitation was declined.';
      break;
    default:
      text = st.reason || String(st.status || '');
  }
  if (st.damage && ['active', 'setup'].includes(st.status)) text = `This game cannot go on: ${st.damage}. Either player may abort it.`;
  el.textContent = text;
  el.classList.toggle('your-turn', st.status === 'active' && player && st.turn === st.you);
  el.classList.toggle('over', ['finished', 'aborted', 'declined'].includes(st.status));
}

function renderActions(st) {
  const player = isPlayer(st);
  const active = st.status === 'active';
  const opp = player ? 1 - st.you : null;
  const offeredByMe = player && st.draw_offer === st.you;
  const offeredToMe = player && st.draw_offer === opp;
  show('#resign', player && active);
  show('#offer-draw', player && active && !offeredToMe);
  const offer = $('#offer-draw');
  offer.disabled = offeredByMe;
  offer.textContent = offeredByMe ? 'Draw offered' : 'Offer draw';
  show('#accept-draw', player && active && offeredToMe);
  show('#decline-draw', player && active && offeredToMe);
  show('#claim-draw', player && active && Boolean(st.can_claim_draw));
  // a takeback (casual games; whole turns in multi-move variants): ask for one, or answer the opponent's
  const takebacks = player && active && !st.rated;
  const askedByMe = takebacks && st.takeback_offer === st.you;
  const askedOfMe = takebacks && st.takeback_offer === opp;
  show('#takeback', takebacks && !askedOfMe && hasFinishedTurn(st));
  $('#takeback').disabled = askedByMe;
  $('#takeback').textContent = askedByMe ? 'Takeback asked' : 'Takeback';
  show('#accept-takeback', askedOfMe);
  show('#decline-takeback', askedOfMe);
  show('#abort', player && Boolean(st.can_abort));
  // a multi-move turn (InterGrid): after the square move, a point move or "End turn"
  show('#end-turn', player && active && st.turn === st.you && Boolean(st.can_end_turn));
  // a drafted turn (Tiling Rider, R12): the moves of the unfinished turn can be taken back
  show('#undo', player && active && st.turn === st.you && Boolean(st.drafted_turns) && st.turn_moves > 0);
  renderTurnInfo(st);
  const any = ['#end-turn', '#undo', '#resign', '#offer-draw', '#accept-draw', '#decline-draw', '#claim-draw', '#abort',
    '#takeback', '#accept-takeback', '#decline-takeback']
    .some((s) => !$(s).hidden);
  show('#actions', player && any);
}

/** Variants with a per-turn allowance (Tiling Rider): how many moves the turn may still hold. */
function renderTurnInfo(st) {
  const el = $('#turn-info');
  const visible = st.status === 'active' && typeof st.allowance === 'number';
  show(el, visible);
  if (!visible) return;
  el.dataset.movesLeft = String(st.moves_left);
  el.dataset.allowance = String(st.allowance);
  const whose = isPlayer(st) && st.turn === st.you ? 'Your turn' : `${playerName(st, st.turn)}'s turn`;
  el.textContent = `${whose}: ${st.moves_left} of ${st.allowance} moves left`
    + (st.aggregates && st.aggregates.length ? ` · ${st.aggregates.length} aggregate${st.aggregates.length > 1 ? 's' : ''} formed` : '');
}

/** A rated game: the player's rating beside the name ("1500?" while provisional) and, once the game
 * is rated, what it did: "1500 → 1517 (+17)". */
function renderRating(side, st) {
  const r = Array.isArray(st.ratings) ? st.ratings[side] : null;
  const badge = $(`#rating-${side}`);
  const line = $(`#rating-change-${side}`);
  badge.hidden = !r;
  line.hidden = !(r && r.change);
  if (!r) return;
  badge.textContent = ratingText(r);
  if (!r.change) return;
  const { diff } = r.change;
  line.textContent = ratingChangeText(r.change);
  line.dataset.diff = String(diff);
  line.classList.toggle('up', diff > 0);
  line.classList.toggle('down', diff < 0);
}

/** The end of a game: offer a rematch, answer the opponent's, or follow the one that started. */
function renderRematch(st) {
  const over = ['finished', 'aborted'].includes(st.status);
  const player = isPlayer(st);
  const started = Boolean(st.rematch);
  show('#rematch-box', over && (player || started));
  if (!over) return;
  const offer = st.rematch_offer;
  const mine = player && offer === st.you;
  const theirs = player && (offer === 0 || offer === 1) && offer !== st.you;
  show('#rematch', Boolean(st.can_rematch) && !theirs);
  $('#rematch').disabled = mine;
  $('#rematch').textContent = mine ? 'Rematch offered' : 'Rematch';
  show('#accept-rematch', Boolean(st.can_rematch) && theirs);
  show('#decline-rematch', Boolean(st.can_rematch) && theirs);
  const link = $('#rematch-link');
  link.hidden = !started;
  if (started) link.href = `/game/${encodeURIComponent(st.rematch)}`;
  let text = '';
  if (started) text = 'The rematch has started.';
  else if (mine) text = 'You offered a rematch: waiting for your opponent.';
  else if (theirs) text = 'Your opponent offers a rematch (same settings, sides swapped).';
  $('#rematch-status').textContent = text;
}

function renderInvite(st) {
  const visible = st.status === 'waiting' && Boolean(st.invite_url);
  show('#invite-box', visible);
  const link = $('#invite-link');
  if (visible) {
    const url = absoluteUrl(st.invite_url);
    link.href = url;
    link.textContent = url;
  } else {
    link.removeAttribute('href');
    link.textContent = '';
  }
}

/** The pieces `side` has taken. The lists are read by letter case (a lowercase letter is a
 * Player 2 piece), so it does not matter whether state.captured is grouped by loser or taker. */
function renderCaptured(side, st, colours) {
  const el = $(`#captured-${side}`);
  const all = (st.captured || []).flat().filter((x) => typeof x === 'string' && x);
  const taken = all.filter((letter) => sideOf(letter) !== side);
  el.replaceChildren(...taken.map((letter) => pieceIcon(letter, colours[sideOf(letter)], 20, pieceSet)));
}

/** Superchess: the pieces `side` holds (what its pawns may promote to), one item per type with its
 * count: `.held[data-piece="Q"][data-count="1"]` (the server's upper-case letter). Hidden for
 * variants without holdings (state.holdings null). */
function renderHoldings(side, st, colours) {
  const el = $(`#holdings-${side}`);
  const all = Array.isArray(st.holdings) ? st.holdings : null;
  el.hidden = !all;
  if (!all) { el.replaceChildren(); return; }
  const held = (all[side] && typeof all[side] === 'object') ? all[side] : {};
  const order = (st.promotion_choices || []).map((c) => String(c).toUpperCase());
  const rank = (l) => { const i = order.indexOf(l); return i < 0 ? order.length : i; };
  const letters = Object.keys(held).map((l) => String(l).toUpperCase())
    .filter((l) => Number(held[l] || held[l.toLowerCase()]) > 0)
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const items = letters.map((l) => {
    const n = Number(held[l] || held[l.toLowerCase()]);
    const shown = side === 0 ? l : l.toLowerCase();
    return h('span', { class: 'held', 'data-piece': l, 'data-count': String(n), title: `${pieceSet.name(l)} × ${n}` },
      pieceIcon(shown, colours[side], 22, pieceSet), h('span', { class: 'count', text: `×${n}` }));
  });
  el.replaceChildren(h('span', { class: 'holdings-label', text: 'In hand:' }),
    ...(items.length ? items : [h('span', { class: 'none muted', text: 'none' })]));
  el.dataset.count = String(letters.reduce((sum, l) => sum + Number(held[l] || 0), 0));
}

/** Ply number (0 = Player 1's first move of move 1) of the first move in st.moves. */
function firstPly(st) {
  const fields = String(st.fen || '').trim().split(/\s+/);
  const full = Number(fields[5]);
  const turn = st.turn === 0 || st.turn === 1 ? st.turn : (fields[1] === 'b' ? 1 : 0);
  if (!Number.isInteger(full) || full < 1) return 0;
  const ply = (full - 1) * 2 + turn - (st.moves || []).length;
  return ply >= 0 ? ply : 0;
}

function renderMoves(st) {
  const el = $('#moves');
  const moves = st.moves || [];
  const start = firstPly(st);
  const rows = [];
  let row = null;
  // several moves in one turn (InterGrid): the server numbers each move's turn (`move_plies`)
  const plies = st.move_plies || null;
  // the readable notation when the server sends it, else the move's coordinates
  const notation = Array.isArray(st.notation) ? st.notation : [];
  const current = replay.live ? null : replay.viewing - 1; // the move whose position is shown
  const plyItem = (mv, i, more) => h('span', {
    class: ['ply', more ? 'more' : '', i === moves.length - 1 ? 'last' : '', i === current ? 'current' : ''].filter(Boolean).join(' '),
    'data-ply': String(i), 'data-move': mv, title: mv, text: notation[i] || mv,
  });
  moves.forEach((mv, i) => {
    const ply = plies ? plies[i] : start + i;
    if (plies && i > 0 && plies[i - 1] === ply) {
      row.appendChild(plyItem(mv, i, true));
      return;
    }
    if (!row || ply % 2 === 0) {
      row = h('div', { class: 'move-row', role: 'listitem' }, h('span', { class: 'num', text: `${Math.floor(ply / 2) + 1}.` }));
      if (ply % 2 === 1) row.appendChild(h('span', { class: 'ply empty', text: '…' }));
      rows.push(row);
    }
    row.appendChild(plyItem(mv, i, false));
  });
  if (!rows.length) rows.push(h('div', { class: 'move-row none muted', text: 'No moves yet.' }));
  el.setAttribute('role', 'list');
  el.classList.toggle('replaying', !replay.live);
  el.replaceChildren(...rows);
  const seen = current === null ? null : el.querySelector(`.ply[data-ply="${current}"]`);
  if (seen) seen.scrollIntoView({ block: 'nearest' });
  else if (replay.live) el.scrollTop = el.scrollHeight;
}

/** The replay bar: where the view is, and a way back to the live position (signalled when moves
 * were played meanwhile). */
function renderReplay(st) {
  const total = (st.moves || []).length;
  const at = replay.live ? total : replay.viewing;
  $('#replay-first').disabled = at === 0;
  $('#replay-prev').disabled = at === 0;
  $('#replay-next').disabled = replay.live;
  $('#replay-last').disabled = replay.live;
  const info = $('#replay-info');
  info.dataset.at = String(at);
  info.textContent = replay.live ? '' : `Move ${at} of ${total}${at === 0 ? ' (start)' : ''}`;
  const back = $('#replay-live');
  back.hidden = replay.live;
  back.classList.toggle('new-move', replay.missed > 0);
  back.dataset.missed = String(replay.missed);
  back.textContent = replay.missed > 0
    ? `New move${replay.missed > 1 ? 's' : ''} (${replay.missed}) — back to live` : 'Back to live';
  document.body.classList.toggle('replaying', !replay.live);
}

// ---- rosters (R13-R17) ------------------------------------------------------------------

function ensureNames(st) {
  if (!st.variant || namesFor === st.variant) return;
  namesFor = st.variant;
  // the board is drawn from the server's description of its cells (both lattices for InterGrid)
  api.variantLayout(st.variant).then((layout) => board.setLayout(layout)).catch(() => {});
  // Until the variant's names arrive only the orthodox letters are drawn (letters mean different
  // pieces in different variants).
  pieceSet = st.variant === DEFAULT_SET.variant ? DEFAULT_SET : new PieceSet(st.variant);
  board.setPieceSet(pieceSet);
  pieceSetFor(st.variant).then((set) => {
    pieceSet = set;
    board.setPieceSet(set);
    if (state) render(state, false);
  });
  variantPieces(st.variant).then((v) => {
    reprogrammable = Boolean(v && v.reprogrammable);
    if (state) renderMode(state);
  }).catch(() => {});
  pieceNames(st.variant).then((n) => {
    if (Object.keys(n).length) names = { ...PIECE_NAMES, ...n };
    if (state) renderRosters(state);
    renderSetupPreview();
  });
}

function renderMode(st) {
  const el = $('#mode');
  const mode = st.mode;
  el.hidden = !mode || (mode === 'default' && !reprogrammable); // "Default pieces" means nothing elsewhere
  el.dataset.mode = mode || '';
  el.textContent = mode ? `${modeName(mode)} ${mode === 'prelude' ? 'set-up' : 'pieces'}` : '';
  el.title = MODE_LABELS[mode] || '';
  const rated = $('#rated');
  rated.hidden = typeof st.rated !== 'boolean';
  rated.dataset.rated = String(Boolean(st.rated));
  rated.textContent = st.rated ? 'Rated' : 'Casual';
}

/** The set-up phase of a Private game: each player submits a roster (the server keeps it secret). */
function renderSetup(st) {
  const setup = st.status === 'setup' && st.mode !== 'prelude' && !st.prelude; // (rosters)
  const player = isPlayer(st);
  const submitted = st.roster_submitted || [false, false];
  show('#setup-info', setup && player);
  for (const side of [0, 1]) {
    const el = $(`#submitted-${side}`);
    const done = Boolean(submitted[side]);
    el.dataset.submitted = String(done);
    const who = st.you === side ? 'You' : `${playerName(st, side)} (${sideLabel(side)})`;
    el.textContent = `${done ? '✓' : '○'} ${who}: ${done ? 'roster submitted' : 'still choosing'}`;
  }
  const choosing = setup && player && !submitted[st.you];
  show('#roster-setup', choosing);
  if (choosing && setupRosters === null) loadSetupRosters(st.variant);
  if (!choosing) $('#submit-roster').disabled = false;
}

async function loadSetupRosters(variant) {
  if (setupLoading) return setupLoading;
  setupLoading = (async () => {
    let list = [];
    try {
      list = await (await openStore(me)).list(variant);
    } catch (err) {
      showMessage(`Could not load your saved rosters: ${err.message}`, 'error');
    }
    setupRosters = list;
    const sel = $('#setup-roster');
    const previous = sel.value;
    sel.replaceChildren(h('option', { value: '' }, 'Default (every piece moves as usual)'),
      ...list.map((r) => h('option', { value: r.name }, r.name)));
    sel.value = list.some((r) => r.name === previous) ? previous : '';
    renderSetupPreview();
  })();
  try { await setupLoading; } finally { setupLoading = null; }
  return null;
}

function chosenSetupRoster() {
  const name = $('#setup-roster').value;
  return (name && (setupRosters || []).find((r) => r.name === name)) || null;
}

function renderSetupPreview() {
  const chosen = chosenSetupRoster();
  $('#setup-preview').replaceChildren(rosterList(chosen ? chosen.roster : {}, names));
}

/** The rosters this viewer may see (`null` entries are secret: never assumed present). */
function renderRosters(st) {
  const panel = $('#rosters');
  const rosters = Array.isArray(st.rosters) ? st.rosters : [null, null];
  const mode = st.mode || 'default';
  const submitted = st.roster_submitted || [];
  // During the set-up a side's roster means nothing until it is submitted.
  const shown = (s) => Boolean(rosters[s] && typeof rosters[s] === 'object'
    && !(st.status === 'setup' && !submitted[s]));
  const visible = [0, 1].filter(shown);
  if (!['private', 'symmetric'].includes(mode) || !visible.length) {
    panel.hidden = true;
    panel.replaceChildren();
    return;
  }
  const items = [];
  for (const side of [0, 1]) {
    const r = rosters[side];
    const who = `${sideLabel(side)} — ${playerName(st, side)}${st.you === side ? ' (you)' : ''}`;
    if (shown(side)) {
      items.push(h('div', { class: 'roster-side', 'data-side': String(side), id: `roster-${side}` },
        h('h3', { text: `${who}: roster` }), rosterList(r, names)));
    } else if (mode === 'private') {
      const pending = st.status === 'setup' && !submitted[side];
      let text;
      if (pending) text = st.you === side ? 'not submitted yet.' : 'not chosen yet; secret until the game ends.';
      else text = 'secret until the game ends.';
      items.push(h('div', { class: 'roster-secret muted', 'data-secret-side': String(side) }, `${who}: ${text}`));
    }
  }
  panel.hidden = false;
  panel.replaceChildren(...items);
}

$('#setup-roster').addEventListener('change', renderSetupPreview);
$('#reload-rosters').addEventListener('click', () => {
  if (state) { setupRosters = null; loadSetupRosters(state.variant); }
});
$('#submit-roster').addEventListener('click', () => {
  const chosen = chosenSetupRoster();
  const roster = chosen ? chosen.roster : {};
  if (send({ type: 'submit_roster', roster })) $('#submit-roster').disabled = true;
});

// ---- the prelude (Superchess 2.3) -------------------------------------------------------
// The server names every prelude square as Player 1's (g1); Player 2 chooses on its own back rank
// (g8), which is mapped to Player 1's name in the message. Player 2's rank always mirrors Player 1's.

function backRank(st, side) {
  return side === 1 ? (st.ranks || 8) : 1;
}

/** A prelude square (Player 1's name, e.g. "g1") on `side`'s back rank ("g8" for Player 2). */
function preludeSquareOf(st, sq, side) {
  return `${String(sq).replace(/[0-9]+$/, '')}${backRank(st, side)}`;
}

/** A board square of a back rank as the server names it (Player 1's rank): "g8" -> "g1". */
function preludeName(sq) {
  return `${String(sq).replace(/[0-9]+$/, '')}1`;
}

function preludeInfo(st) {
  const p = st && st.status === 'setup' && st.prelude && typeof st.prelude === 'object' ? st.prelude : null;
  if (!p) return null;
  const mover = p.to_move === 0 || p.to_move === 1 ? p.to_move : null;
  const wing = p.expects === 'king wing' || p.expects === 'queen wing';
  const mine = isPlayer(st) && mover !== null && mover === st.you && (wing || p.expects === 'swap');
  return { p, mover, wing, mine, steps: Array.isArray(p.steps) ? p.steps : [] };
}

/** A step as words (without the subject): "put the Amazon on g1 (mirrored on g8)". */
function preludeStepText(step, side, st, short = false) {
  if (!Array.isArray(step) || !step.length) return '';
  if (step[0] === 'swap') {
    if (step.length < 3) return 'declined the exchange';
    const [a, b] = [step[1], step[2]];
    const own = [preludeSquareOf(st, a, side), preludeSquareOf(st, b, side)];
    const other = [preludeSquareOf(st, a, 1 - side), preludeSquareOf(st, b, 1 - side)];
    return `exchanged the substitutes on ${own[0]} and ${own[1]}${short ? '' : ` (mirrored on ${other[0]} and ${other[1]})`}`;
  }
  const [sq, letter] = step;
  const own = preludeSquareOf(st, sq, side);
  const other = preludeSquareOf(st, sq, 1 - side);
  return `put the ${pieceSet.name(letter)} on ${own} (mirrored on ${other})`;
}

function preludeWho(st, side) {
  return st.you === side ? 'You' : `${playerName(st, side)} (${sideLabel(side)})`;
}

/** The prelude panel (#prelude) and the board's highlights for the player to choose. */
function renderPrelude(st) {
  const panel = $('#prelude');
  const info = preludeInfo(st);
  panel.hidden = !info;
  if (!info) {
    if (board.onSquare) board.onSquare = null;
    if (prelude.marked) { prelude.marked = false; board.setMarks(null); }
    prelude.key = null;
    return;
  }
  const { p, mover, wing, mine, steps } = info;
  const key = `${steps.length}|${p.expects}|${mover}`;
  if (key !== prelude.key) {
    prelude.key = key;
    prelude.piece = null;
    prelude.square = null;
    prelude.swap = [];
    prelude.pending = false;
  }
  const remaining = Array.isArray(p.remaining) ? p.remaining : [];
  if (mine && wing && !prelude.piece && remaining.length === 1) prelude.piece = remaining[0];
  if (prelude.piece && !remaining.includes(prelude.piece)) prelude.piece = null;
  const colours = gameColours.of(st);
  const free = (Array.isArray(p.free) ? p.free : []).map((sq) => preludeSquareOf(st, sq, mover ?? 0));
  const placed = (Array.isArray(p.placed) ? p.placed : []).map((sq) => preludeSquareOf(st, sq, 1));
  panel.dataset.expects = p.expects || '';
  panel.dataset.toMove = mover === null ? '' : String(mover);
  panel.dataset.mine = String(mine);

  // whose turn, what is expected
  const turn = $('#prelude-turn');
  let text;
  if (p.expects === 'done' || mover === null) text = 'The set-up is complete.';
  else if (wing) {
    const where = `the ${p.expects} (${free.join(', ')})`;
    const mirror = mover === 0 ? 'Player 2 mirrors it' : 'Player 1 mirrors it';
    text = mine ? `Your turn: place a substitute on ${where}; ${mirror}.`
      : `${preludeWho(st, mover)} places a substitute on ${where}; ${mirror}.`;
  } else {
    text = mine ? 'Your turn: exchange two substitutes on your back rank, or decline; Player 1 mirrors it.'
      : `${preludeWho(st, mover)} may exchange two substitutes (Player 1 mirrors it), or decline.`;
  }
  turn.textContent = text;

  // the substitutes to choose from (read-only for the others)
  show('#prelude-choose', wing);
  const shownSide = mover ?? 0;
  $('#prelude-pieces').replaceChildren(...remaining.map((l) => {
    const letter = shownSide === 0 ? String(l).toUpperCase() : String(l).toLowerCase();
    const chosen = mine && prelude.piece === l;
    return h('button', {
      type: 'button', class: `prelude-piece piece-choice${chosen ? ' chosen' : ''}`, 'data-piece': l,
      'aria-pressed': String(chosen), title: pieceSet.name(l), disabled: mine && !prelude.pending ? null : '',
      onclick: () => choosePreludePiece(l),
    }, pieceIcon(letter, colours[shownSide], 40, pieceSet), h('span', { text: pieceSet.name(l) }));
  }));
  let hint = '';
  if (wing && mine) {
    if (prelude.pending) hint = 'Sent…';
    else if (!prelude.piece) hint = `Choose a substitute, then click a highlighted square (${free.join(', ')}).`;
    else hint = `${pieceSet.name(prelude.piece)}: now click a highlighted square (${free.join(', ')}).`;
  } else if (wing) hint = `Still to place: ${remaining.map((l) => pieceSet.name(l)).join(', ') || 'nothing'}.`;
  $('#prelude-hint').textContent = hint;

  // the exchange (Player 2)
  show('#prelude-swap-box', p.expects === 'swap' && mine);
  if (p.expects === 'swap' && mine) {
    const [a, b] = prelude.swap;
    $('#prelude-swap-hint').textContent = prelude.swap.length === 2
      ? `Exchange the ${pieceSet.name(String(st.pieces[a] || '').toUpperCase())} on ${a} and the ${pieceSet.name(String(st.pieces[b] || '').toUpperCase())} on ${b}?`
      : `Click two of your substitutes (${placed.join(', ')}) to exchange them${prelude.swap.length ? ` (chosen: ${prelude.swap[0]})` : ''}, or choose no exchange.`;
    $('#prelude-swap').disabled = prelude.pending || prelude.swap.length !== 2;
    $('#prelude-decline').disabled = prelude.pending;
  }

  // the choices so far
  $('#prelude-steps').replaceChildren(...steps.map((step, i) => {
    const swap = Array.isArray(step) && step[0] === 'swap';
    const side = swap ? 1 : i % 2;
    const attrs = { 'data-step': String(i), 'data-side': String(side) };
    if (swap) attrs['data-swap'] = step.slice(1).join(',');
    else { attrs['data-square'] = String(step[0]); attrs['data-piece'] = String(step[1]); }
    return h('li', attrs, h('strong', { text: `${preludeWho(st, side)}: ` }), preludeStepText(step, side, st));
  }));
  if (!steps.length) $('#prelude-steps').replaceChildren(h('li', { class: 'none muted', text: 'No choices yet.' }));

  // the board: clicks go to the prelude while it is this player's turn
  board.onSquare = mine ? onPreludeSquare : null;
  if (mine && wing) {
    board.setMarks(prelude.pending ? [] : free, prelude.square ? [prelude.square] : []);
    prelude.marked = true;
  } else if (mine) {
    board.setMarks(prelude.pending ? [] : placed, prelude.swap);
    prelude.marked = true;
  } else if (prelude.marked) {
    prelude.marked = false;
    board.setMarks(null);
  }
}

function choosePreludePiece(letter) {
  const info = preludeInfo(state);
  if (!info || !info.mine || !info.wing || prelude.pending) return;
  prelude.piece = letter;
  if (prelude.square) sendPreludePick();
  else renderPrelude(state);
}

function onPreludeSquare(sq) {
  const info = preludeInfo(state);
  if (!info || !info.mine || prelude.pending) return;
  const { p, wing, mover } = info;
  if (wing) {
    const free = (p.free || []).map((x) => preludeSquareOf(state, x, mover));
    if (!free.includes(sq)) {
      showMessage(`Choose one of the highlighted squares of your back rank: ${free.join(', ')}.`, 'info', 5000);
      return;
    }
    prelude.square = sq;
    if (prelude.piece) sendPreludePick();
    else renderPrelude(state);
    return;
  }
  const placed = (p.placed || []).map((x) => preludeSquareOf(state, x, 1));
  if (!placed.includes(sq)) {
    showMessage(`Click two of your substitutes to exchange them: ${placed.join(', ')}.`, 'info', 5000);
    return;
  }
  if (prelude.swap.includes(sq)) prelude.swap = prelude.swap.filter((x) => x !== sq);
  else prelude.swap = [...prelude.swap, sq].slice(-2);
  renderPrelude(state);
}

function sendPreludePick() {
  const msg = { type: 'prelude_pick', square: preludeName(prelude.square), piece: prelude.piece };
  if (send(msg)) prelude.pending = true;
  else prelude.square = null;
  renderPrelude(state);
}

$('#prelude-swap').addEventListener('click', () => {
  const info = preludeInfo(state);
  if (!info || !info.mine || info.p.expects !== 'swap' || prelude.swap.length !== 2 || prelude.pending) return;
  if (send({ type: 'prelude_swap', squares: prelude.swap.map(preludeName) })) prelude.pending = true;
  renderPrelude(state);
});
$('#prelude-decline').addEventListener('click', () => {
  const info = preludeInfo(state);
  if (!info || !info.mine || info.p.expects !== 'swap' || prelude.pending) return;
  if (send({ type: 'prelude_swap', squares: null })) prelude.pending = true;
  renderPrelude(state);
});

// ---- clocks -----------------------------------------------------------------------------

function onClock(clock) {
  if (!clock) {
    clockBase = null;
    updateClocks();
    return;
  }
  const now = Date.now();
  const serverTime = typeof clock.server_time === 'number' ? clock.server_time : now;
  clockBase = { ...clock, serverTime, offset: serverTime - now };
  updateClocks();
}

function serverNow() {
  return Date.now() + (clockBase ? clockBase.offset : 0);
}

function remainingMs(side) {
  const c = clockBase;
  if (!c || !Array.isArray(c.remaining)) return null;
  let ms = c.remaining[side];
  if (typeof ms !== 'number') return null;
  // Each side's first move is untimed (clock.timed false): that clock does not run.
  if (state && state.status === 'active' && c.running === side && c.timed !== false) ms -= serverNow() - c.serverTime;
  return Math.max(0, ms);
}

export function formatClock(ms) {
  if (ms === null || ms === undefined) return '--:--';
  if (ms < 10000) {
    const tenths = Math.floor(ms / 100);
    return `00:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.floor(ms / 1000);
  const hours = Math.floor(total / 3600);
  const mm = String(Math.floor((total % 3600) / 60)).padStart(2, '0');
  const ss = String(total % 60).padStart(2, '0');
  return hours ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

function formatWhen(localMs) {
  const d = new Date(localMs);
  const sameDay = d.toDateString() === new Date().toDateString();
  const time = d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return sameDay ? time : `${d.toLocaleDateString([], { weekday: 'short', day: 'numeric', month: 'short' })} ${time}`;
}

function updateClocks() {
  const c = clockBase;
  const active = state && state.status === 'active';
  for (const side of [0, 1]) {
    const el = $(`#clock-${side}`);
    if (!el) continue;
    const running = Boolean(active && c && c.running === side);
    el.classList.toggle('running', running && c.timed !== false);
    el.classList.toggle('to-move', running);
    if (c && c.daily) {
      el.classList.add('daily');
      el.classList.remove('low');
      if (running && typeof c.deadline === 'number') {
        const left = c.deadline - serverNow();
        el.textContent = `Move by ${formatWhen(c.deadline - c.offset)} (${formatSpan(left)} left)`;
        el.title = new Date(c.deadline - c.offset).toLocaleString();
      } else {
        el.textContent = 'Daily';
        el.title = 'Daily: each move within the allowance';
      }
      continue;
    }
    el.classList.remove('daily');
    const ms = remainingMs(side);
    el.textContent = formatClock(ms);
    el.classList.toggle('low', ms !== null && ms < 10000);
    if (running && side === state.you && c.timed !== false && ms !== null && ms < 10000 && ms > 0 && lowTimeWarned !== version) {
      lowTimeWarned = version; // once a turn: your own time is running low
      sounds.play('low');
    }
    el.title = '';
    if (running && c.timed !== false && ms === 0 && state && syncedAtZero !== version) {
      // Our clock ran out: ask for the authoritative state once (the server decides).
      syncedAtZero = version;
      setTimeout(() => { if (conn.open) conn.send({ type: 'sync' }); }, 600);
    }
  }
  // Each side's first move is untimed but must come within a window (else the game is aborted).
  const dl = $('#deadline');
  if (active && c && !c.daily && c.timed === false && typeof c.deadline === 'number') {
    const left = Math.max(0, c.deadline - serverNow());
    const who = state.turn === state.you ? 'You have' : `${playerName(state, state.turn)} has`;
    dl.hidden = false;
    dl.textContent = `${who} ${formatSpan(left)} to make the first move, or the game is aborted.`;
    if (left === 0 && syncedAtZero !== version) {
      syncedAtZero = version;
      setTimeout(() => { if (conn.open) conn.send({ type: 'sync' }); }, 600);
    }
  } else {
    dl.hidden = true;
  }
  // The set-up of a Private game: rosters must come before the deadline (else the default stays).
  const sd = $('#setup-deadline');
  const pd = $('#prelude-deadline');
  if (state && state.status === 'setup' && typeof state.setup_deadline === 'number') {
    const left = Math.max(0, state.setup_deadline - serverNow());
    if (state.prelude) {
      pd.hidden = false;
      pd.textContent = `${formatSpan(left)} left for the prelude; after that, the missing choices are made at random.`;
      sd.hidden = true;
    } else {
      sd.hidden = false;
      sd.textContent = `${formatSpan(left)} left to submit; after that, the default roster is kept.`;
      pd.hidden = true;
    }
    if (left === 0 && syncedAtZero !== version) {
      syncedAtZero = version;
      setTimeout(() => { if (conn.open) conn.send({ type: 'sync' }); }, 1000);
    }
  } else {
    sd.hidden = true;
    sd.textContent = '';
    pd.hidden = true;
    pd.textContent = '';
  }
}

setInterval(updateClocks, TICK_MS);

// ---- controls ---------------------------------------------------------------------------

function placeCards() {
  // The side at the bottom of the board has its card at the bottom of the panel.
  const bottom = board.flipped ? 1 : 0;
  $('#slot-bottom').appendChild($(`#player-${bottom}`));
  $('#slot-top').appendChild($(`#player-${1 - bottom}`));
  document.body.classList.toggle('flipped', board.flipped);
}

$('#flip').addEventListener('click', () => {
  board.flip();
  placeCards();
});

$('#resign').addEventListener('click', () => {
  if (window.confirm('Resign this game?')) send({ type: 'resign' });
});
$('#end-turn').addEventListener('click', () => send({ type: 'move', move: 'end' }));
$('#undo').addEventListener('click', () => send({ type: 'retract' }));
$('#offer-draw').addEventListener('click', () => send({ type: 'offer_draw' }));
$('#accept-draw').addEventListener('click', () => send({ type: 'accept_draw' }));
$('#decline-draw').addEventListener('click', () => send({ type: 'decline_draw' }));
$('#claim-draw').addEventListener('click', () => send({ type: 'claim_draw' }));
$('#abort').addEventListener('click', () => send({ type: 'abort' }));
$('#takeback').addEventListener('click', () => send({ type: 'offer_takeback' }));
$('#accept-takeback').addEventListener('click', () => send({ type: 'accept_takeback' }));
$('#decline-takeback').addEventListener('click', () => send({ type: 'decline_takeback' }));

function renderMute() {
  const btn = $('#mute');
  btn.setAttribute('aria-pressed', String(sounds.muted));
  btn.textContent = sounds.muted ? 'Sound off' : 'Sound on';
}
$('#mute').addEventListener('click', () => { sounds.setMuted(!sounds.muted); renderMute(); });
// phones: a magnified board (twice as large, scrolled inside its frame) so a tap hits its square
$('#zoom').addEventListener('click', () => {
  const zoomed = document.body.classList.toggle('zoomed');
  $('#zoom').setAttribute('aria-pressed', String(zoomed));
});
renderMute();
$('#rematch').addEventListener('click', () => send({ type: 'offer_rematch' }));
$('#accept-rematch').addEventListener('click', () => send({ type: 'accept_rematch' }));
$('#decline-rematch').addEventListener('click', () => send({ type: 'decline_rematch' }));

$('#copy-fen').addEventListener('click', async () => {
  if (!state || !state.fen) return;
  const ok = await copyText(state.fen);
  showMessage(ok ? 'FEN copied to the clipboard.' : 'Copy failed; the FEN is in the box below.', ok ? 'ok' : 'error', 4000);
  if (!ok) $('#fen').select();
});

$('#copy-invite').addEventListener('click', async () => {
  const url = $('#invite-link').href;
  if (!url) return;
  const ok = await copyText(url);
  showMessage(ok ? 'Invitation link copied.' : 'Copy failed; select the link and copy it.', ok ? 'ok' : 'error', 4000);
});

$('#cancel-invite').addEventListener('click', async () => {
  const m = state && /\/invite\/([^/?#]+)/.exec(state.invite_url || '');
  if (!m) return;
  if (!window.confirm('Cancel this invitation?')) return;
  try {
    await api.declineInvitation(decodeURIComponent(m[1]));
    showMessage('Invitation cancelled.', 'ok');
    if (conn.open) conn.send({ type: 'sync' });
  } catch (err) {
    showMessage(err.message, 'error');
  }
});

$('#fen').addEventListener('focus', (e) => e.target.select());

// ---- replay -----------------------------------------------------------------------------

$('#moves').addEventListener('click', (e) => {
  const ply = e.target.closest('.ply[data-ply]');
  if (ply) replay.go(Number(ply.dataset.ply) + 1);
});
$('#replay-first').addEventListener('click', () => replay.go(0));
$('#replay-prev').addEventListener('click', () => replay.step(-1));
$('#replay-next').addEventListener('click', () => replay.step(1));
$('#replay-last').addEventListener('click', () => replay.toLive());
$('#replay-live').addEventListener('click', () => replay.toLive());
document.addEventListener('keydown', (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || e.target.closest('input, select, textarea, [contenteditable]')) return;
  const keys = { ArrowLeft: () => replay.step(-1), ArrowRight: () => replay.step(1), Home: () => replay.go(0), End: () => replay.toLive() };
  if (!keys[e.key] || !state) return;
  e.preventDefault();
  keys[e.key]();
});


// ---- start ------------------------------------------------------------------------------

async function start() {
  loadHeader().then((m) => { me = m; });
  if (!gameId) {
    showMessage('No game id in the address.', 'error', 0);
    $('#status').textContent = 'No game.';
    setConnection('closed', 'Not connected');
    return;
  }
  $('#download').href = api.recordUrl(gameId);
  conn.connect();
  // The websocket sends the state on connect; the HTTP state shows it sooner and reports a
  // missing game clearly. It is used only if no websocket state arrived first.
  try {
    const res = await api.game(gameId);
    if (res && res.type === 'state' && res.state) {
      onMessage({ type: 'state', version: res.version, state: res.state }); // (no event: not a change)
    } else if (res && version === null && !state) {
      render(res);
    }
  } catch (err) {
    if (err.status === 404) {
      conn.stop();
      setConnection('closed', 'Not connected');
      $('#status').textContent = 'Game not found.';
    }
    showMessage(err.message, 'error', 0);
  }
}

// For debugging and tests: the board component, the connection and the latest state.
window.superchess = { board, conn, sounds, get state() { return state; }, get version() { return version; } };

start();
