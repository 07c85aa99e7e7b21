// The home page: the lobby (lobby.js), identity (guest / account, log in, register, log out), piece
// colour, the new-game form (a seek in the lobby, or an invitation), the "play the computer" form
// and the lists of the current identity's games (yours to move first) and invitations. Variants with generated set-ups (Superchess) get a set-up chooser (setup.js) in
// both forms.

import * as api from './api.js';
import { Lobby } from './lobby.js';
import { DEFAULT_COLOURS } from './pieces.js';
import { openStore } from './rosterstore.js';
import { SetupChooser } from './setup.js';
import {
  $, h, showMessage, clearMessage, copyText, sideLabel, nameOf, outcomeFor, resultText, humanize,
  tcName, variantTitle, absoluteUrl, variantPieces, shownName, whoamiParts, formatSpan,
} from './ui.js';

let me = null;
let opts = null;
const lobby = new Lobby();
// The two match forms: element ids, the saved rosters offered for Symmetric mode, the set-up chooser.
const FORMS = {
  match: {
    variant: '#variant', mode: '#mode', modeLabel: '#mode-label', modeNote: '#mode-note',
    modeCaption: '#mode-caption', fenLabel: '#fen-label', root: '#new-match',
    rosterLabel: '#roster-label', roster: '#roster', rosters: [], seq: 0,
    setup: new SetupChooser($('#setup'), ''),
  },
  computer: {
    variant: '#computer-variant', mode: '#computer-mode', modeLabel: '#computer-mode-label', modeNote: null,
    modeCaption: '#computer-mode-caption', fenLabel: null, root: '#computer-match',
    rosterLabel: '#computer-roster-label', roster: '#computer-roster', rosters: [], seq: 0,
    setup: new SetupChooser($('#computer-setup'), 'computer-'),
  },
};
const REFRESH_MS = 15000;

// ---- identity ---------------------------------------------------------------------------

function renderMe() {
  if (!me) return;
  $('#me-name').textContent = shownName(me);
  $('#me-kind').textContent = me.account ? 'account' : 'guest';
  $('#auth-forms').hidden = Boolean(me.account);
  $('#guest-note').hidden = Boolean(me.account);
  $('#logout').hidden = !me.account;
  if (document.activeElement !== $('#colour')) $('#colour').value = me.colour || DEFAULT_COLOURS[0];
  $('#whoami').replaceChildren(...whoamiParts(me));
}

async function loadMe() {
  try {
    me = await api.me();
    renderMe();
    lobby.setMe(me);
  } catch (err) {
    showMessage(err.message);
  }
  await updateMode();
}

function formValues(form) {
  return Object.fromEntries(new FormData(form).entries());
}

async function onAuth(e, action, label) {
  e.preventDefault();
  const form = e.currentTarget;
  const { name, password } = formValues(form);
  const button = form.querySelector('button[type="submit"]');
  button.disabled = true;
  try {
    me = await action(String(name || '').trim(), String(password || ''));
    form.reset();
    renderMe();
    lobby.setMe(me);
    showMessage(`${label} as ${me.name}.`, 'ok');
    await updateMode(); // an account keeps other saved rosters than this browser
    await refreshGames();
  } catch (err) {
    showMessage(err.message);
  } finally {
    button.disabled = false;
  }
}

$('#login-form').addEventListener('submit', (e) => onAuth(e, api.login, 'Logged in'));
$('#register-form').addEventListener('submit', (e) => onAuth(e, api.register, 'Registered and logged in'));

$('#logout').addEventListener('click', async () => {
  try {
    await api.logout();
    showMessage('Logged out.', 'ok');
  } catch (err) {
    showMessage(err.message);
  }
  await loadMe();
  await refreshGames();
});

$('#colour').addEventListener('change', async (e) => {
  try {
    me = await api.saveColour(e.target.value);
    renderMe();
    showMessage('Colour saved.', 'ok', 2500);
  } catch (err) {
    showMessage(err.message);
  }
});

// ---- new match --------------------------------------------------------------------------

function fillOptions() {
  const names = (opts.variants || []).map((v) => v.name);
  const ids = (opts.time_controls || []).map((t) => t.id);
  for (const [variantSel, tcSel] of [['#variant', '#time-control'], ['#computer-variant', '#computer-time-control']]) {
    const variant = $(variantSel);
    variant.replaceChildren(...(opts.variants || []).map((v) => h('option', { value: v.name },
      `${v.title || v.name}${v.files && v.ranks ? ` (${v.files}×${v.ranks})` : ''}`)));
    variant.value = names[0] || '';  // the registry lists the flagship first
    const tc = $(tcSel);
    tc.replaceChildren(...(opts.time_controls || []).map((t) => h('option', { value: t.id }, t.name || t.id)));
    tc.value = ids.includes('blitz-3+2') ? 'blitz-3+2' : (ids[0] || '');
  }
  const levels = Array.isArray(opts.levels) && opts.levels.length ? opts.levels : [1, 2, 3, 4, 5, 6, 7, 8];
  const level = $('#level');
  level.replaceChildren(...levels.map((n) => h('option', { value: String(n) },
    `Level ${n}${n === levels[0] ? ' (easiest)' : n === levels[levels.length - 1] ? ' (strongest)' : ''}`)));
  level.value = String(levels.includes(3) ? 3 : levels[0]);
}

function variantOption(name) {
  return ((opts && opts.variants) || []).find((v) => v.name === name) || null;
}

async function loadOptions() {
  try {
    opts = await api.options();
    fillOptions();
  } catch (err) {
    showMessage(`Could not load the match options: ${err.message}`);
  }
  await updateMode();
}

// Modes (R13-R17): only for variants whose pieces can be reprogrammed; Symmetric proposes one of
// the saved rosters. Whatever is chosen, switching back to Default is always possible. Variants
// with generated set-ups show the set-up chooser.
async function updateMode() {
  await Promise.all(Object.values(FORMS).map(updateForm));
}

async function updateForm(form) {
  const seq = ++form.seq;
  const variant = $(form.variant).value;
  const info = variantOption(variant);
  const setups = Boolean(info && info.setups);
  let reprogrammable = false;
  if (info && typeof info.reprogrammable === 'boolean') reprogrammable = info.reprogrammable;
  else if (variant) {
    try { reprogrammable = Boolean((await variantPieces(variant)).reprogrammable); } catch { reprogrammable = false; }
  }
  if (seq !== form.seq) return;
  // The modes a variant offers: roster modes (private, symmetric) for reprogrammable variants, the
  // prelude for variants with generated set-ups; default always.
  const modeSel = $(form.mode);
  for (const opt of modeSel.options) {
    const kind = opt.dataset.kind;
    const offered = !kind || (kind === 'roster' && reprogrammable) || (kind === 'setup' && setups);
    opt.hidden = !offered;
    opt.disabled = !offered;
  }
  const chosen = modeSel.selectedOptions[0];
  if (!chosen || chosen.disabled) modeSel.value = 'default';
  modeSel.options[0].textContent = setups && !reprogrammable
    ? 'Default — the set-up as chosen below' : 'Default — every piece moves as usual';
  $(form.modeCaption).textContent = setups && !reprogrammable ? 'Mode' : 'Pieces';
  $(form.modeLabel).hidden = !reprogrammable && !setups;
  if (form.modeNote) $(form.modeNote).hidden = !reprogrammable;
  const prelude = setups && modeSel.value === 'prelude';
  // In a prelude the players choose the set-up in turn on the game page: no set-up chooser, no FEN.
  form.setup.setVariant(variant, setups && !prelude, info ? info.files : 8, info ? info.ranks : 8);
  if (form.fenLabel) $(form.fenLabel).hidden = prelude;
  if (form.root) $(form.root).dataset.mode = modeSel.value;
  const symmetric = reprogrammable && modeSel.value === 'symmetric';
  $(form.rosterLabel).hidden = !symmetric;
  if (!symmetric) return;
  let list = [];
  try {
    list = await (await openStore(me)).list(variant);
  } catch (err) {
    showMessage(`Could not load your saved rosters: ${err.message}`);
  }
  if (seq !== form.seq) return;
  form.rosters = list;
  const sel = $(form.roster);
  const previous = sel.value;
  if (!list.length) {
    sel.replaceChildren(h('option', { value: '' }, 'No saved rosters — make one in the roster editor'));
  } else {
    sel.replaceChildren(h('option', { value: '' }, 'Choose a saved roster…'),
      ...list.map((r) => h('option', { value: r.name }, r.name)));
    sel.value = list.some((r) => r.name === previous) ? previous : '';
  }
}

/** The mode fields of a form ({mode, roster?}), or null after telling what is missing. */
function modeFields(form) {
  const mode = $(form.modeLabel).hidden ? 'default' : $(form.mode).value;
  if (mode !== 'symmetric') return { mode };
  const chosen = form.rosters.find((r) => r.name === $(form.roster).value);
  if (!chosen) {
    showMessage('Symmetric mode proposes a roster: choose one of your saved rosters (or make one in the roster editor).');
    $(form.roster).focus();
    return null;
  }
  return { mode, roster: chosen.roster };
}

for (const form of Object.values(FORMS)) {
  $(form.variant).addEventListener('change', () => updateForm(form));
  $(form.mode).addEventListener('change', () => updateForm(form));
}

/** The new-game form's settings (a match's, for a seek and an invitation alike), or null after
 * telling what is missing. */
function gameSettings() {
  const fen = $('#fen-label').hidden ? '' : $('#fen').value.trim(); // (no FEN in a prelude)
  const body = {
    variant: $('#variant').value,
    time_control: $('#time-control').value,
    creator_side: Number($('#creator-side').value) === 1 ? 1 : 0,
    fen: fen || null,
  };
  const modes = modeFields(FORMS.match);
  if (!modes) return null;
  return Object.assign(body, modes, fen ? {} : FORMS.match.setup.value());
}

$('#create-seek').addEventListener('click', async () => {
  const body = gameSettings();
  if (!body) return;
  body.rated = $('#rated').checked;
  const [low, high] = ['#rating-min', '#rating-max'].map((sel) => $(sel).value.trim());
  if (low || high) body.rating_range = [Number(low || 0), Number(high || 4000)];
  const button = $('#create-seek');
  button.disabled = true;
  try {
    await api.createSeek(body);
    showMessage('Your seek is in the lobby. A real-time seek stays while you are on the site; a Daily one for 14 days.', 'ok', 6000);
    $('#fen').value = '';
    if (!me || me.id === null) await loadMe(); // posting the seek gave this visitor a guest identity
  } catch (err) {
    showMessage(err.message);
  } finally {
    button.disabled = false;
  }
});

$('#new-match').addEventListener('submit', async (e) => {
  e.preventDefault();
  const form = e.currentTarget;
  const body = gameSettings();
  if (!body) return;
  body.invite = $('#invite').value.trim() || null;
  const button = $('#create');
  button.disabled = true;
  try {
    const res = await api.createMatch(body);
    const url = absoluteUrl(res.invite_url);
    const link = $('#invite-link');
    link.href = url;
    link.textContent = url;
    $('#game-link').href = `/game/${encodeURIComponent(res.game_id)}`;
    $('#created').hidden = false;
    clearMessage();
    form.querySelector('#fen').value = '';
    if (!me || me.id === null) await loadMe(); // creating the match gave this visitor a guest identity
    await refreshGames();
  } catch (err) {
    showMessage(err.message);
  } finally {
    button.disabled = false;
  }
});

$('#computer-match').addEventListener('submit', async (e) => {
  e.preventDefault();
  const form = FORMS.computer;
  const body = {
    variant: $('#computer-variant').value,
    time_control: $('#computer-time-control').value,
    creator_side: Number($('#computer-side').value) === 1 ? 1 : 0,
    level: Number($('#level').value) || 1,
    fen: null,
  };
  const modes = modeFields(form);
  if (!modes) return;
  Object.assign(body, modes, form.setup.value());
  const button = $('#play-computer');
  button.disabled = true;
  try {
    const res = await api.createComputerMatch(body);
    window.location.href = `/game/${encodeURIComponent(res.game_id)}`;
  } catch (err) {
    showMessage(err.message);
    button.disabled = false;
  }
});

$('#copy-invite').addEventListener('click', async () => {
  const url = $('#invite-link').href;
  if (!url) return;
  const ok = await copyText(url);
  showMessage(ok ? 'Invitation link copied.' : 'Copy failed; select the link and copy it.', ok ? 'ok' : 'error', 3000);
});

// ---- game lists -------------------------------------------------------------------------

function gameLink(s, text) {
  return h('a', { href: `/game/${encodeURIComponent(s.id)}` }, text);
}

function describe(s) {
  const parts = [variantTitle(s.variant, opts), tcName(s.time_control, opts)];
  if (s.your_side === 0 || s.your_side === 1) parts.push(`you are ${sideLabel(s.your_side)}`);
  return parts.filter(Boolean).join(' · ');
}

function emptyItem(text) {
  return h('li', { class: 'empty' }, text);
}

function invitationItem(s) {
  const li = h('li', { 'data-game-id': s.id });
  if (s.invite_url) {
    // One of ours, waiting for the opponent.
    const url = absoluteUrl(s.invite_url);
    const who = s.opponent ? nameOf(s.opponent) : 'anyone with the link';
    li.append(
      h('div', { class: 'grow' },
        h('span', {}, 'Waiting for ', h('strong', { text: who }), ' — ', gameLink(s, 'open')),
        h('span', { class: 'sub', text: describe(s) }),
        h('span', { class: 'sub' }, h('a', { href: url, class: 'invite-url', text: url }))),
      h('button', {
        type: 'button', class: 'small copy', onclick: async () => {
          const ok = await copyText(url);
          showMessage(ok ? 'Invitation link copied.' : 'Copy failed.', ok ? 'ok' : 'error', 3000);
        },
      }, 'Copy link'),
      h('button', { type: 'button', class: 'small cancel', onclick: () => cancelInvitation(s) }, 'Cancel'),
    );
    return li;
  }
  li.append(
    h('div', { class: 'grow' },
      h('span', {}, h('strong', { text: nameOf(s.opponent, 'Someone') }), ' invites you'),
      h('span', { class: 'sub', text: describe(s) })),
    h('button', { type: 'button', class: 'small primary accept', 'data-game': s.id, onclick: () => respond(s, true) }, 'Accept'),
    h('button', { type: 'button', class: 'small decline', 'data-game': s.id, onclick: () => respond(s, false) }, 'Decline'),
  );
  return li;
}

async function respond(s, accept) {
  try {
    if (accept) {
      const res = await api.acceptGame(s.id);
      window.location.href = `/game/${encodeURIComponent((res && res.game_id) || s.id)}`;
    } else {
      await api.declineGame(s.id);
      showMessage('Invitation declined.', 'ok');
      await refreshGames();
    }
  } catch (err) {
    showMessage(err.message);
  }
}

async function cancelInvitation(s) {
  const m = /\/invite\/([^/?#]+)/.exec(s.invite_url || '');
  if (!m || !window.confirm('Cancel this invitation?')) return;
  try {
    await api.declineInvitation(decodeURIComponent(m[1]));
    showMessage('Invitation cancelled.', 'ok');
  } catch (err) {
    showMessage(err.message);
  }
  await refreshGames();
}

function ongoingItem(s) {
  const turn = s.your_turn
    ? h('span', { class: 'badge turn' }, 'Your turn')
    : h('span', { class: 'badge' }, s.status === 'waiting' ? 'Waiting' : s.status === 'setup' ? 'Setting up' : 'Their turn');
  const left = typeof s.time_left === 'number'
    ? h('span', { class: 'time-left', 'data-ms': String(s.time_left), text: `${formatSpan(s.time_left)} left` }) : null;
  return h('li', { 'data-game-id': s.id, class: s.your_turn ? 'your-turn' : null },
    h('div', { class: 'grow' },
      h('span', {}, gameLink(s, ['vs ', h('strong', { text: nameOf(s.opponent, '?') })])),
      h('span', { class: 'sub', text: [describe(s), s.rated ? 'rated' : ''].filter(Boolean).join(' · ') })),
    left, turn);
}

function finishedItem(s) {
  let label;
  let cls = 'badge';
  if (s.status === 'aborted') label = 'Aborted';
  else if (s.status === 'declined') label = 'Declined';
  else {
    const outcome = outcomeFor(s.result, s.your_side);
    label = outcome || resultText(s.result);
    if (outcome === 'You won') cls = 'badge win';
    if (outcome === 'You lost') cls = 'badge loss';
  }
  const detail = [s.result && s.result !== '*' ? s.result : '', s.termination ? humanize(s.termination) : '']
    .filter(Boolean).join(' · ');
  return h('li', { 'data-game-id': s.id },
    h('div', { class: 'grow' },
      h('span', {}, gameLink(s, ['vs ', h('strong', { text: nameOf(s.opponent, '?') })])),
      h('span', { class: 'sub', text: [describe(s), detail].filter(Boolean).join(' · ') })),
    h('span', { class: cls }, label));
}

function fillList(sel, items, render, empty) {
  const ul = $(sel);
  ul.replaceChildren(...(items && items.length ? items.map(render) : [emptyItem(empty)]));
}

async function refreshGames() {
  try {
    const g = await api.games();
    fillList('#invitations', g.invitations, invitationItem, 'No open invitations.');
    fillList('#ongoing', g.ongoing, ongoingItem, 'No games in progress.');
    fillList('#finished', g.finished, finishedItem, 'No finished games yet.');
  } catch (err) {
    showMessage(err.message);
  }
}

// ---- start ------------------------------------------------------------------------------

async function start() {
  await Promise.all([loadMe(), loadOptions()]);
  lobby.start(me, opts);
  await refreshGames();
  setInterval(() => { if (document.visibilityState === 'visible') refreshGames(); }, REFRESH_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') { refreshGames(); updateMode(); } // rosters saved meanwhile
  });
}

start();
