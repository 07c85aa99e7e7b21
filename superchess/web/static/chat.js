// The game page's chat (docs/protocol.md, "The game page's extras"): the players' room (the players
// write, everyone reads) and the watchers' room (written and read by those who are not playing).
// Lines are shown as text only (textContent).

import { $, h } from './ui.js';

const MAX_CHARS = 200;

export class Chat {
  /** @param {function} send  sends a message over the game's socket; returns false if not connected. */
  constructor(send) {
    this.send = send;
    this.player = null; // is this viewer a player (null: not known yet)
    $('#chat-input').maxLength = MAX_CHARS;
    $('#chat-form').addEventListener('submit', (e) => {
      e.preventDefault();
      const input = $('#chat-input');
      const text = input.value.trim();
      if (!text) return;
      if (this.send({ type: 'chat', text })) input.value = '';
    });
  }

  /** Who this viewer is: a player writes to the players' room, anyone else to the watchers'. */
  setViewer(player) {
    if (this.player === player) return;
    this.player = player;
    $('#chat-room-watchers').hidden = player;
    $('#chat-input').placeholder = player ? 'Message your opponent' : 'Message the other watchers';
  }

  /** A `chat` message: lines added to a room's log. */
  receive(msg) {
    const log = $(msg.room === 'watchers' ? '#chat-watchers' : '#chat-players');
    if (!log || !Array.isArray(msg.lines)) return;
    for (const line of msg.lines) {
      if (!line || typeof line.text !== 'string') continue;
      const side = line.side === 0 || line.side === 1 ? String(line.side) : '';
      log.appendChild(h('li', { 'data-side': side, title: new Date(line.at).toLocaleTimeString() },
        h('span', { class: 'chat-name', text: `${line.name || '?'}: ` }), h('span', { class: 'chat-text', text: line.text })));
    }
    log.scrollTop = log.scrollHeight;
  }
}

/** The spectator count ("2 watching"); hidden while nobody watches. */
export function showSpectators(count) {
  const el = $('#spectators');
  const n = Number.isInteger(count) && count > 0 ? count : 0;
  el.dataset.count = String(n);
  el.hidden = n === 0;
  el.textContent = `${n} watching`;
}
