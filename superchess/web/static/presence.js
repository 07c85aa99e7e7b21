// Presence: while a page of the site is open its visitor is "on the site", so their real-time seeks
// stay in the lobby (the server drops them a few seconds after the last page closes). The home
// page's lobby socket and a game page's socket count; the other pages open `/ws/presence`. Either
// tells a page when a seek of its visitor became a game, and the page goes there.

import { Socket } from './socket.js';

/** Go to the game when the server says a seek of ours was accepted (`game_started`). */
export function followGame(msg) {
  if (msg && msg.type === 'game_started' && msg.game_id) {
    window.location.href = `/game/${encodeURIComponent(msg.game_id)}`;
  }
}

/** Keep this visitor present while the page is open. */
export function stayPresent() {
  const socket = new Socket('/ws/presence', { onMessage: followGame });
  socket.connect();
  return socket;
}
