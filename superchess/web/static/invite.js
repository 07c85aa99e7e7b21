// The invitation page: what the match is, and Accept / Decline.

import * as api from './api.js';
import { stayPresent } from './presence.js';
import {
  $, showMessage, sideLabel, nameOf, tcName, variantTitle, humanize, loadHeader, MODE_LABELS, pieceNames, rosterList,
} from './ui.js';

const token = (() => {
  const m = /\/invite\/([^/?#]+)/.exec(window.location.pathname);
  if (m) return decodeURIComponent(m[1]);
  return new URLSearchParams(window.location.search).get('token');
})();

let inv = null;
let opts = null;
let names = {};

function firstMover(fen) {
  const side = String(fen || '').trim().split(/\s+/)[1];
  return side === 'b' ? 1 : 0;
}

function render() {
  $('#inv-facts').hidden = false;
  $('#inv-creator').textContent = nameOf(inv.creator, 'Someone');
  $('#inv-variant').textContent = inv.title || variantTitle(inv.variant, opts);
  $('#inv-time-control').textContent = tcName(inv.time_control, opts);
  const side = inv.your_side;
  if (side === 0 || side === 1) {
    const first = firstMover(inv.fen) === side;
    $('#inv-side').textContent = `${sideLabel(side)} — ${first ? 'you move first' : 'your opponent moves first'}`;
  } else {
    $('#inv-side').textContent = '—';
  }
  const hasFen = Boolean(inv.fen);
  $('#inv-fen-label').hidden = !hasFen;
  $('#inv-fen').hidden = !hasFen;
  $('#inv-fen').textContent = inv.fen || '';
  const mode = inv.mode || 'default';
  $('#inv-mode').textContent = MODE_LABELS[mode] || humanize(mode);
  $('#inv-mode').dataset.mode = mode;
  const symmetric = mode === 'symmetric';
  $('#inv-roster-label').hidden = !symmetric;
  $('#inv-roster-box').hidden = !symmetric;
  $('#inv-roster').replaceChildren(...(symmetric ? [rosterList(inv.roster || {}, names)] : []));
  $('#inv-status').textContent = humanize(inv.status || '');
  $('#invitation').dataset.status = inv.status || '';

  const open = inv.status === 'waiting';
  const yours = Boolean(inv.yours); // the creator looking at their own invitation
  $('#accept').hidden = !open || yours;
  $('#accept').textContent = symmetric ? 'Accept and agree to the roster' : 'Accept';
  $('#decline').hidden = !open;
  $('#decline').textContent = yours ? 'Cancel invitation' : 'Decline';
  const link = $('#game-link');
  link.href = `/game/${encodeURIComponent(inv.game_id)}`;
  link.hidden = (open && !yours) || inv.status === 'declined';
  if (!open) $('#inv-lead').textContent = 'This invitation is no longer open.';
  else if (yours) $('#inv-lead').textContent = 'This is your own invitation: send this page\'s address to your opponent.';
  else $('#inv-lead').textContent = `${nameOf(inv.creator, 'Someone')} invites you to play.`;
}

async function start() {
  loadHeader();
  if (!token) {
    $('#inv-lead').textContent = 'No invitation in the address.';
    return;
  }
  try {
    [inv, opts] = await Promise.all([api.invitation(token), api.options().catch(() => null)]);
    if (inv.mode === 'symmetric') names = await pieceNames(inv.variant);
    render();
  } catch (err) {
    $('#inv-lead').textContent = 'This invitation could not be loaded.';
    showMessage(err.message, 'error', 0);
  }
}

$('#accept').addEventListener('click', async () => {
  const btn = $('#accept');
  btn.disabled = true;
  try {
    const res = await api.acceptInvitation(token);
    window.location.href = `/game/${encodeURIComponent((res && res.game_id) || inv.game_id)}`;
  } catch (err) {
    showMessage(err.message, 'error', 0);
    btn.disabled = false;
  }
});

$('#decline').addEventListener('click', async () => {
  try {
    await api.declineInvitation(token);
    inv = { ...inv, status: 'declined' };
    render();
    showMessage(inv.yours ? 'Invitation cancelled.' : 'You declined the invitation.', 'ok', 0);
  } catch (err) {
    showMessage(err.message, 'error', 0);
  }
});

stayPresent(); // a seek of ours stays in the lobby while this page is open
start();
