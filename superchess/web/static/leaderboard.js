// The leaderboards: one per rating variant and speed, the 50 best established ratings.

import * as api from './api.js';
import { stayPresent } from './presence.js';
import { $, h, showMessage, loadHeader, profileUrl, ratingVariantTitle, SPEED_NAMES } from './ui.js';

async function show() {
  const variant = $('#lb-variant').value;
  const speed = $('#lb-speed').value;
  window.history.replaceState(null, '', `?variant=${encodeURIComponent(variant)}&speed=${encodeURIComponent(speed)}`);
  try {
    const { players } = await api.leaderboard(variant, speed);
    $('#leaderboard tbody').replaceChildren(...players.map((p) => h('tr', { 'data-rank': String(p.rank) },
      h('td', { text: String(p.rank) }), h('td', {}, h('a', { href: profileUrl(p.name), text: p.name })),
      h('td', { class: 'rating', text: String(p.rating) }), h('td', { text: String(p.games) }))));
    $('#leaderboard').hidden = !players.length;
    $('#lb-empty').hidden = players.length > 0;
  } catch (err) {
    showMessage(err.message);
  }
}

async function start() {
  loadHeader();
  stayPresent();
  let opts;
  try {
    opts = await api.options();
  } catch (err) {
    showMessage(err.message);
    return;
  }
  const query = new URLSearchParams(window.location.search);
  $('#lb-variant').replaceChildren(...opts.rating_variants.map((v) => h('option', { value: v }, ratingVariantTitle(v, opts))));
  $('#lb-speed').replaceChildren(...opts.speeds.map((s) => h('option', { value: s }, SPEED_NAMES[s] || s)));
  $('#lb-variant').value = opts.rating_variants.includes(query.get('variant')) ? query.get('variant') : 'super16';
  $('#lb-speed').value = opts.speeds.includes(query.get('speed')) ? query.get('speed') : 'blitz';
  $('#lb-variant').addEventListener('change', show);
  $('#lb-speed').addEventListener('change', show);
  await show();
}

start();
