// Small fetch helpers for the JSON API. Errors are thrown as ApiError whose message is the
// server's `detail` (one clear sentence) when it sent one.

export class ApiError extends Error {
  constructor(message, status, data = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.data = data;
  }
}

function detailText(detail) {
  if (typeof detail === 'string') return detail;
  // FastAPI validation errors: a list of {loc, msg, ...}.
  if (Array.isArray(detail)) {
    return detail.map((d) => {
      if (typeof d === 'string') return d;
      const where = Array.isArray(d.loc) ? d.loc.filter((x) => x !== 'body').join('.') : '';
      return where ? `${where}: ${d.msg}` : String(d.msg ?? JSON.stringify(d));
    }).join('; ');
  }
  if (detail && typeof detail === 'object') return detail.message || JSON.stringify(detail);
  return '';
}

export async function api(method, path, body) {
  const opts = { method, headers: { Accept: 'application/json' }, credentials: 'same-origin' };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  let resp;
  try {
    resp = await fetch(path, opts);
  } catch (err) {
    throw new ApiError('Cannot reach the server; check your connection.', 0);
  }
  const text = await resp.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!resp.ok) {
    const msg = (data && detailText(data.detail)) || `${resp.status} ${resp.statusText || 'error'}`.trim();
    throw new ApiError(msg, resp.status, data);
  }
  return data;
}

export const getJSON = (path) => api('GET', path);
export const postJSON = (path, body = {}) => api('POST', path, body);
export const putJSON = (path, body = {}) => api('PUT', path, body);
export const deleteJSON = (path) => api('DELETE', path);

// The endpoints of docs/protocol.md.
export const me = () => getJSON('/api/me');
export const register = (name, password) => postJSON('/api/register', { name, password });
export const login = (name, password) => postJSON('/api/login', { name, password });
export const logout = () => postJSON('/api/logout');
export const saveColour = (colour) => putJSON('/api/me/colour', { colour });
export const options = () => getJSON('/api/options');
export const createMatch = (match) => postJSON('/api/matches', match);
export const createComputerMatch = (match) => postJSON('/api/matches/computer', match);
export const previewSetup = (body) => postJSON('/api/setups/preview', body);
export const games = () => getJSON('/api/games');
export const game = (id) => getJSON(`/api/games/${encodeURIComponent(id)}`);
export const invitation = (token) => getJSON(`/api/invitations/${encodeURIComponent(token)}`);
export const acceptInvitation = (token) => postJSON(`/api/invitations/${encodeURIComponent(token)}/accept`);
export const declineInvitation = (token) => postJSON(`/api/invitations/${encodeURIComponent(token)}/decline`);
export const acceptGame = (id) => postJSON(`/api/games/${encodeURIComponent(id)}/accept`);
export const declineGame = (id) => postJSON(`/api/games/${encodeURIComponent(id)}/decline`);
export const variantLayout = (variant) => getJSON(`/api/variants/${encodeURIComponent(variant)}/layout`);
export const recordUrl = (id) => `/api/games/${encodeURIComponent(id)}/record`;
export const seeks = () => getJSON('/api/seeks');
export const createSeek = (seek) => postJSON('/api/seeks', seek);
export const cancelSeek = (id) => deleteJSON(`/api/seeks/${encodeURIComponent(id)}`);
export const acceptSeek = (id) => postJSON(`/api/seeks/${encodeURIComponent(id)}/accept`);
export const pools = () => getJSON('/api/pools');
export const joinPool = (id) => postJSON(`/api/pools/${encodeURIComponent(id)}/join`);
export const player = (name, variant = null) => getJSON(`/api/players/${encodeURIComponent(name)}${variant ? `?variant=${encodeURIComponent(variant)}` : ''}`);
export const leaderboard = (variant, speed) => getJSON(`/api/leaderboard/${encodeURIComponent(variant)}/${encodeURIComponent(speed)}`);
