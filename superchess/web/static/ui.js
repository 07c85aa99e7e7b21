// Shared DOM helpers. User-provided text always goes in through textContent / text nodes.

import * as api from './api.js';
import { PieceSet } from './pieces.js';
import { setUpTheme } from './theme.js';

setUpTheme(); // every page follows the chosen (or the system's) colour theme

/** h('a', {class: 'x', href: '/'}, 'text', child) -> element; strings become text nodes. */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'hidden') el.hidden = Boolean(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export const $ = (sel, root = document) => root.querySelector(sel);

const messageTimers = new WeakMap();

/** Shows `text` in the message area (kind: error | info | ok); clears after `ms` if given. */
export function showMessage(text, kind = 'error', ms = kind === 'error' ? 12000 : 4000, el = $('#message')) {
  if (!el) return;
  clearTimeout(messageTimers.get(el));
  el.textContent = text || '';
  el.dataset.kind = kind;
  el.classList.toggle('visible', Boolean(text));
  if (text && ms) {
    messageTimers.set(el, setTimeout(() => {
      if (el.textContent === text) { el.textContent = ''; el.classList.remove('visible'); }
    }, ms));
  }
}

export function clearMessage(el = $('#message')) {
  showMessage('', 'info', 0, el);
}

/** Copies text to the clipboard (with a fallback outside secure contexts). */
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch { /* fall through */ }
  const ta = h('textarea', { readonly: true, class: 'offscreen' });
  ta.value = text;
  document.body.appendChild(ta);
  ta.select();
  let ok = false;
  try { ok = document.execCommand('copy'); } catch { ok = false; }
  ta.remove();
  return ok;
}

export const sideLabel = (side) => (side === 0 ? 'Player 1' : side === 1 ? 'Player 2' : 'Watcher');

/** A name from a string or an object with a name. */
export function nameOf(x, fallback = '—') {
  if (x === null || x === undefined || x === '') return fallback;
  if (typeof x === 'string') return x;
  return x.name || fallback;
}

export function resultText(result) {
  switch (result) {
    case '1-0': return 'Player 1 wins';
    case '0-1': return 'Player 2 wins';
    case '1/2-1/2': return 'Draw';
    default: return 'No result';
  }
}

/** "You won" / "You lost" / "Draw" from a result and your side, or null. */
export function outcomeFor(result, side) {
  if (result === '1/2-1/2') return 'Draw';
  if (side !== 0 && side !== 1) return null;
  if (result === '1-0') return side === 0 ? 'You won' : 'You lost';
  if (result === '0-1') return side === 1 ? 'You won' : 'You lost';
  return null;
}

export function humanize(text) {
  if (!text) return '';
  const s = String(text).replace(/[_-]+/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The display name of a time control given as an id string or {id, name}. */
export function tcName(tc, opts) {
  if (!tc) return '';
  if (typeof tc === 'object') return tc.name || tc.id || '';
  const found = opts && (opts.time_controls || []).find((t) => t.id === tc);
  return found ? found.name : tc;
}

/** The display title of a variant given as a name string or {name, title}. */
export function variantTitle(v, opts) {
  if (!v) return '';
  if (typeof v === 'object') return v.title || v.name || '';
  const found = opts && (opts.variants || []).find((x) => x.name === v);
  return found ? found.title : v;
}

export function absoluteUrl(path) {
  try { return new URL(path, window.location.origin).href; } catch { return path; }
}

/** A span of time as people say it: "2d 3h", "5h 12m", "7 min", "42 s". */
export function formatSpan(ms) {
  const mins = Math.max(0, Math.floor(ms / 60000));
  const d = Math.floor(mins / 1440);
  const hrs = Math.floor((mins % 1440) / 60);
  const m = mins % 60;
  if (d) return `${d}d ${hrs}h`;
  if (hrs) return `${hrs}h ${m}m`;
  if (ms < 60000) return `${Math.max(0, Math.ceil(ms / 1000))} s`;
  return `${m} min`;
}

/** A player's public page. */
export const profileUrl = (name) => `/@/${encodeURIComponent(name)}`;

/** A rating as shown beside a name: "1517", or "1500?" while provisional. */
export const ratingText = (r) => (r ? `${r.rating}${r.provisional ? '?' : ''}` : '');

/** What a rated game did to a rating: "1500 → 1517 (+17)". */
export function ratingChangeText(change) {
  if (!change) return '';
  const { before, after, diff } = change;
  return `${before} → ${after} (${diff > 0 ? '+' : diff < 0 ? '−' : '±'}${Math.abs(diff)})`;
}

export const SPEED_NAMES = Object.freeze({
  bullet: 'Bullet', blitz: 'Blitz', rapid: 'Rapid', classical: 'Classical', daily: 'Daily',
});

/** A rating variant's title: a variant's, or "… (Private)" for a `<variant>-private` pool. */
export function ratingVariantTitle(name, opts) {
  const m = /^(.*)-private$/.exec(name || '');
  return m ? `${variantTitle(m[1], opts)} (Private)` : variantTitle(name, opts);
}

/** The name to show for /api/me: a visitor who has done nothing yet has no identity (no name). */
export const shownName = (me) => me.name || 'Guest';

/** The page header's #whoami content for /api/me. */
export function whoamiParts(me) {
  return [
    me.name ? h('a', { class: 'who-name', href: profileUrl(me.name), text: me.name })
      : h('span', { class: 'who-name', text: shownName(me) }),
    h('span', { class: 'who-kind', text: me.account ? ' (account)' : ' (guest)' }),
  ];
}

/** Fills the page header's #whoami with the current identity; returns /api/me (or null). */
export async function loadHeader() {
  const el = $('#whoami');
  try {
    const me = await api.me();
    if (el) el.replaceChildren(...whoamiParts(me));
    return me;
  } catch (err) {
    if (el) el.textContent = '';
    return null;
  }
}

// ---- rosters (reprogrammed pieces) ------------------------------------------------------

export const MODE_LABELS = Object.freeze({
  default: 'Default — every piece moves as usual',
  private: 'Private — each player programs their own pieces in secret',
  symmetric: 'Symmetric — both sides use one proposed roster',
  prelude: 'Prelude — the players choose the set-up in turn',
});

export const modeName = (mode) => ({ default: 'Default', private: 'Private', symmetric: 'Symmetric', prelude: 'Prelude' }[mode] || humanize(mode));

export function vectorText(v) {
  return Array.isArray(v) ? `(${v[0]}, ${v[1]})` : String(v);
}

/** A roster as a readable list: `ul.roster-list > li[data-letter]` "Knight — jump: (0, 3), …".
 * `names` maps letters to piece names. An empty roster is one item saying it is the default. */
export function rosterList(roster, names = {}) {
  const ul = h('ul', { class: 'roster-list' });
  const letters = Object.keys(roster || {}).sort();
  if (!letters.length) {
    ul.appendChild(h('li', { class: 'default', text: 'Default: every piece moves as usual.' }));
    return ul;
  }
  for (const letter of letters) {
    const p = roster[letter] || {};
    const vectors = Array.isArray(p.vectors) ? p.vectors : [];
    ul.appendChild(h('li', { dataset: { letter } },
      h('strong', { text: names[letter] || letter }),
      ` (${letter}) — `,
      h('span', { class: 'roster-mode', text: String(p.mode || '?') }),
      ': ',
      h('span', { class: 'roster-vectors', text: vectors.map(vectorText).join(', ') })));
  }
  return ul;
}

const variantCache = new Map();

/** GET /api/variants/{v}/pieces, cached per page ({variant, reprogrammable, start_fen, pieces, …}). */
export function variantPieces(variant) {
  if (!variantCache.has(variant)) {
    const p = api.getJSON(`/api/variants/${encodeURIComponent(variant)}/pieces`);
    p.catch(() => variantCache.delete(variant));
    variantCache.set(variant, p);
  }
  return variantCache.get(variant);
}

/** {letter: name} for a variant; {} when unavailable. */
export async function pieceNames(variant) {
  if (!variant) return {};
  try {
    const res = await variantPieces(variant);
    return Object.fromEntries(((res && res.pieces) || []).map((p) => [p.letter, p.name]));
  } catch {
    return {};
  }
}

/** The drawings of a variant's pieces (pieces.js PieceSet, chosen by name or by the variant's data);
 * an unloaded set (only the orthodox letters) when the names cannot be had. */
export async function pieceSetFor(variant) {
  const names = await pieceNames(variant);
  let labels = {};
  let drawings = {};
  try {
    const pieces = ((await variantPieces(variant)) || {}).pieces || [];
    labels = Object.fromEntries(pieces.map((p) => [p.letter, p.label || p.letter]));
    drawings = Object.fromEntries(pieces.filter((p) => p.drawing).map((p) => [p.letter, p.drawing]));
  } catch { /* the letters then */ }
  return new PieceSet(variant, Object.keys(names).length ? names : null, labels, drawings);
}
