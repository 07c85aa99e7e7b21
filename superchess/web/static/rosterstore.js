// Saved rosters behind one interface, whoever is playing:
//   accounts keep them on the server (GET / PUT / DELETE /api/rosters),
//   guests keep them in this browser (localStorage key "superchess.rosters", the same shape as
//   the server's list: {"rosters": [{"name", "variant", "roster"}]}).
// openStore(me) -> { kind: 'account' | 'browser', list(variant?), save(name, variant, roster),
//                    remove(name), get(name, variant?) }. Every method returns a promise; errors
// are ApiError / Error with a message to show.

import * as api from './api.js';

export const STORAGE_KEY = 'superchess.rosters';
export const MAX_NAME = 40;

/** The name as it will be saved, or an Error's message. */
export function checkName(name) {
  const n = String(name || '').trim();
  if (!n) throw new Error('Give the roster a name.');
  if (n.length > MAX_NAME) throw new Error(`A roster name has 1 to ${MAX_NAME} characters.`);
  return n;
}

function byName(a, b) {
  return a.name.localeCompare(b.name);
}

function clean(entry) {
  if (!entry || typeof entry !== 'object' || typeof entry.name !== 'string') return null;
  const roster = entry.roster && typeof entry.roster === 'object' && !Array.isArray(entry.roster) ? entry.roster : {};
  return { name: entry.name, variant: typeof entry.variant === 'string' ? entry.variant : 'super16', roster };
}

function readLocal() {
  let data = null;
  try { data = JSON.parse(window.localStorage.getItem(STORAGE_KEY) || 'null'); } catch { data = null; }
  const list = Array.isArray(data) ? data : (data && Array.isArray(data.rosters) ? data.rosters : []);
  return list.map(clean).filter(Boolean);
}

function writeLocal(list) {
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify({ rosters: list }));
  } catch (err) {
    throw new Error('This browser refused to store the roster (storage full or disabled).');
  }
}

const browserStore = {
  kind: 'browser',
  async list(variant) {
    return readLocal().filter((r) => !variant || r.variant === variant).sort(byName);
  },
  async save(name, variant, roster) {
    const n = checkName(name);
    const entry = { name: n, variant, roster };
    const list = readLocal().filter((r) => r.name !== n);
    list.push(entry);
    writeLocal(list);
    return entry;
  },
  async remove(name) {
    const list = readLocal();
    const rest = list.filter((r) => r.name !== name);
    if (rest.length === list.length) throw new Error(`No saved roster named "${name}".`);
    writeLocal(rest);
    return { ok: true };
  },
};

const accountStore = {
  kind: 'account',
  async list(variant) {
    const res = await api.getJSON('/api/rosters');
    return ((res && res.rosters) || []).map(clean).filter(Boolean)
      .filter((r) => !variant || r.variant === variant).sort(byName);
  },
  async save(name, variant, roster) {
    const n = checkName(name);
    // The name travels URL-encoded in the address (PUT /api/rosters/{name}); any character may
    // be in it ("/" too: the server takes the rest of the path as the name).
    return clean(await api.putJSON(`/api/rosters/${encodeURIComponent(n)}`, { variant, roster }));
  },
  async remove(name) {
    return api.api('DELETE', `/api/rosters/${encodeURIComponent(name)}`);
  },
};

for (const store of [browserStore, accountStore]) {
  store.get = async (name, variant) => (await store.list(variant)).find((r) => r.name === name) || null;
}

/** The store for this identity (`me` from /api/me; fetched when not given). */
export async function openStore(me) {
  let who = me;
  if (!who) {
    try { who = await api.me(); } catch { who = null; }
  }
  return who && who.account ? accountStore : browserStore;
}
