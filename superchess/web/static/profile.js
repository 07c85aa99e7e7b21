// A player's page (/@/<name>): ratings per variant and speed with the number of games, a chart of
// one pool's rating history (inline SVG made with DOM calls: the CSP allows no inline markup), and
// the finished games, each opening its game page, filtered by variant.

import * as api from './api.js';
import { stayPresent } from './presence.js';
import {
  $, h, showMessage, loadHeader, modeName, profileUrl, ratingChangeText, ratingText, ratingVariantTitle, tcName,
  variantTitle, SPEED_NAMES,
} from './ui.js';

const SVG = 'http://www.w3.org/2000/svg';
const CHART = { width: 640, height: 220, left: 44, right: 12, top: 12, bottom: 26 };
const name = decodeURIComponent((/^\/@\/([^/?#]+)/.exec(window.location.pathname) || [])[1] || '');
let opts = null;
let profile = null;

const poolKey = (r) => `${r.variant}/${r.speed}`;

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

function renderHead(p) {
  document.title = `${p.name} — Superchess`;
  $('#profile-name').textContent = p.name;
  $('#profile-kind').textContent = p.bot ? 'computer' : p.account ? 'account' : 'guest';
  $('#profile-since').textContent = `since ${new Date(p.created_at).toLocaleDateString()}`;
}

function renderRatings(p) {
  const rows = (p.ratings || []).map((r) => h('tr', {
    'data-variant': r.variant, 'data-speed': r.speed, 'data-provisional': String(r.provisional),
    class: 'pool-row', onclick: () => { $('#chart-pool').value = poolKey(r); renderChart(); },
  },
  h('td', { text: ratingVariantTitle(r.variant, opts) }),
  h('td', { text: SPEED_NAMES[r.speed] || r.speed }),
  h('td', { class: 'rating', title: `deviation ${r.deviation}`, text: ratingText(r) }),
  h('td', { class: 'games', text: String(r.games) })));
  $('#ratings tbody').replaceChildren(...rows);
  $('#ratings').hidden = !rows.length;
  $('#no-ratings').hidden = rows.length > 0;
  const charted = (p.ratings || []).filter((r) => (r.history || []).length);
  $('#chart-box').hidden = !charted.length;
  if (!charted.length) return;
  const most = charted.reduce((a, b) => (b.games > a.games ? b : a));
  $('#chart-pool').replaceChildren(...charted.map((r) => h('option', { value: poolKey(r) },
    `${ratingVariantTitle(r.variant, opts)} · ${SPEED_NAMES[r.speed] || r.speed}`)));
  $('#chart-pool').value = poolKey(most);
  renderChart();
}

/** The chosen pool's rating after each rated game, as a line over the games in order. */
function renderChart() {
  const pool = (profile.ratings || []).find((r) => poolKey(r) === $('#chart-pool').value);
  const points = pool ? pool.history : [];
  const { width, height, left, right, top, bottom } = CHART;
  const values = points.map(([, rating]) => rating);
  let low = Math.min(...values);
  let high = Math.max(...values);
  const pad = Math.max(20, (high - low) * 0.1);
  low = Math.floor((low - pad) / 10) * 10;
  high = Math.ceil((high + pad) / 10) * 10;
  const x = (i) => left + (points.length > 1 ? (i * (width - left - right)) / (points.length - 1) : (width - left - right) / 2);
  const y = (v) => top + ((high - v) * (height - top - bottom)) / (high - low);
  const chart = svg('svg', {
    class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'data-points': points.length,
    'aria-label': `Rating history: ${points.length} rated games`,
  });
  const step = Math.max(10, Math.ceil((high - low) / 4 / 10) * 10);
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) {
    chart.append(svg('line', { class: 'grid', x1: left, x2: width - right, y1: y(v), y2: y(v) }),
      svg('text', { class: 'axis', x: left - 6, y: y(v) + 4, 'text-anchor': 'end' }, String(v)));
  }
  chart.append(svg('text', { class: 'axis', x: left, y: height - 6 }, new Date(points[0][0]).toLocaleDateString()),
    svg('text', { class: 'axis', x: width - right, y: height - 6, 'text-anchor': 'end' },
      `${points.length} game${points.length > 1 ? 's' : ''}`));
  chart.append(svg('polyline', { class: 'line', points: points.map(([, v], i) => `${x(i)},${y(v)}`).join(' ') }));
  points.forEach(([at, v], i) => chart.append(svg('circle', { class: 'point', cx: x(i), cy: y(v), r: 3.5 },
    svg('title', {}, `${new Date(at).toLocaleString()}: ${v}`))));
  $('#rating-chart').replaceChildren(chart);
}

function gameItem(g) {
  const outcome = { win: 'Won', loss: 'Lost', draw: 'Draw' }[g.outcome] || g.result;
  const facts = [variantTitle(g.variant, opts), tcName(g.time_control, opts), modeName(g.mode),
    g.rated ? 'rated' : 'casual', g.termination ? g.termination.replace(/_/g, ' ') : ''].filter(Boolean);
  return h('li', { 'data-game-id': g.id, 'data-outcome': g.outcome, 'data-variant': g.variant },
    h('div', { class: 'grow' },
      h('a', { href: `/game/${encodeURIComponent(g.id)}` }, 'vs ', h('strong', { text: g.opponent || '?' })),
      h('span', { class: 'sub', text: `${facts.join(' · ')} · ${new Date(g.ended_at).toLocaleDateString()}` })),
    g.rating_change ? h('span', {
      class: `rating-change ${g.rating_change.diff > 0 ? 'up' : g.rating_change.diff < 0 ? 'down' : ''}`,
      text: ratingChangeText(g.rating_change),
    }) : null,
    h('span', { class: `badge ${g.outcome === 'win' ? 'win' : g.outcome === 'loss' ? 'loss' : ''}`, text: outcome }));
}

function renderGames(games) {
  $('#profile-games').replaceChildren(...(games.length ? games.map(gameItem)
    : [h('li', { class: 'empty', text: 'No finished games.' })]));
}

async function filterGames() {
  try {
    renderGames((await api.player(name, $('#games-variant').value || null)).games || []);
  } catch (err) {
    showMessage(err.message);
  }
}

async function start() {
  loadHeader();
  stayPresent();
  try {
    opts = await api.options();
  } catch { opts = null; }
  $('#games-variant').append(...((opts && opts.variants) || []).map((v) => h('option', { value: v.name }, v.title)));
  $('#games-variant').addEventListener('change', filterGames);
  $('#chart-pool').addEventListener('change', renderChart);
  try {
    profile = await api.player(name);
  } catch (err) {
    $('#profile-name').textContent = err.status === 404 ? 'No such player' : name;
    showMessage(err.message, 'error', 0);
    return;
  }
  renderHead(profile);
  renderRatings(profile);
  renderGames(profile.games || []);
}

window.superchess = { get profile() { return profile; }, profileUrl };
start();
