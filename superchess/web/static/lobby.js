// The lobby on the home page: the open seeks, live over `/ws/lobby` (the whole list on connect,
// then each seek added or removed), accepting and cancelling them, and the quick pairing grid. A
// seek of ours that someone accepts takes this page to the game (`game_started`).

import * as api from './api.js';
import { followGame } from './presence.js';
import { Socket } from './socket.js';
import {
  $, h, showMessage, modeName, profileUrl, ratingText, tcName, variantTitle, SPEED_NAMES,
} from './ui.js';

export class Lobby {
  constructor() {
    this.seeks = new Map(); // id -> seek, oldest first
    this.pools = [];
    this.me = null; // /api/me
    this.ratings = new Map(); // "<variant>/<speed>" -> our rating (accounts), to grey out ranges we are outside
    this.opts = null;
    this.socket = new Socket('/ws/lobby', {
      onMessage: (msg) => this.onMessage(msg),
      onStatus: (kind, text) => { const el = $('#lobby-connection'); el.dataset.state = kind; el.textContent = text; },
      onReopen: () => this.socket.send({ type: 'sync' }),
    });
  }

  async start(me, opts) {
    this.opts = opts;
    await this.setMe(me);
    try {
      this.pools = (await api.pools()).pools || [];
    } catch (err) {
      showMessage(`Could not load the quick pairing pools: ${err.message}`);
    }
    this.render();
    this.socket.connect();
  }

  /** Who we are (after logging in or out, or a guest identity made by a first action): the socket
   * reconnects as the new identity, which keeps that player present (their seeks stay) and hears
   * when one of their seeks becomes a game. */
  async setMe(me) {
    const changed = this.me && me && this.me.id !== me.id;
    this.me = me;
    if (changed) this.socket.reconnect();
    this.ratings = new Map();
    if (me && me.account && me.name) {
      try {
        for (const r of (await api.player(me.name)).ratings || []) this.ratings.set(`${r.variant}/${r.speed}`, r.rating);
      } catch { /* the seeks stay acceptable: the server decides */ }
    }
    this.render();
  }

  onMessage(msg) {
    switch (msg.type) {
      case 'seeks':
        this.seeks = new Map((msg.seeks || []).map((s) => [s.id, s]));
        break;
      case 'seek_added':
        this.seeks.set(msg.seek.id, msg.seek);
        break;
      case 'seek_removed':
        for (const id of msg.ids || []) this.seeks.delete(id);
        break;
      case 'game_started':
        followGame(msg);
        return;
      case 'error':
        showMessage(msg.message);
        return;
      default:
        return;
    }
    this.render();
  }

  mine(seek) {
    return Boolean(this.me && this.me.name && seek.creator.name === this.me.name);
  }

  /** Why we cannot accept this seek, or '' (the server checks again). */
  refusal(seek) {
    const account = Boolean(this.me && this.me.account);
    if (seek.rated && !account) return 'Rated games are between accounts: log in to accept';
    if (seek.rating_range) {
      if (!account) return 'For rated players in a rating range';
      const rating = this.ratings.get(`${seek.variant}${seek.mode === 'private' ? '-private' : ''}/${seek.speed}`) ?? 1500;
      if (rating < seek.rating_range[0] || rating > seek.rating_range[1]) {
        return `For ratings ${seek.rating_range[0]}–${seek.rating_range[1]} (yours: ${rating})`;
      }
    }
    return '';
  }

  render() {
    this.renderSeeks();
    this.renderPools();
  }

  renderSeeks() {
    const rows = [...this.seeks.values()].map((seek) => this.seekRow(seek));
    $('#seeks tbody').replaceChildren(...rows);
    $('#seeks').hidden = !rows.length;
    $('#no-seeks').hidden = rows.length > 0;
    $('#seek-count').textContent = rows.length ? String(rows.length) : '';
  }

  seekRow(seek) {
    const mine = this.mine(seek);
    const refusal = mine ? '' : this.refusal(seek);
    const creator = seek.creator || {};
    const range = seek.rating_range ? ` · ${seek.rating_range[0]}–${seek.rating_range[1]}` : '';
    const side = seek.creator_side === 0 ? `${creator.name} moves first` : 'the acceptor moves first';
    const action = mine
      ? h('button', { type: 'button', class: 'small cancel', onclick: () => this.cancel(seek) }, 'Cancel')
      : h('button', {
        type: 'button', class: 'small primary accept', disabled: refusal ? '' : null, title: refusal || null,
        onclick: () => this.accept(seek),
      }, 'Accept');
    return h('tr', {
      'data-seek-id': seek.id, 'data-mine': String(mine), 'data-rated': String(Boolean(seek.rated)),
      class: mine ? 'mine' : refusal ? 'unavailable' : null,
    },
    h('td', { class: 'who' }, h('a', { href: profileUrl(creator.name), text: creator.name })),
    h('td', { class: 'rating', text: ratingText(creator.rating) || '—' }),
    h('td', { text: variantTitle(seek.variant, this.opts) }),
    h('td', { text: tcName(seek.time_control, this.opts) }),
    h('td', { class: 'mode', text: modeName(seek.mode) }),
    h('td', {}, h('span', { class: seek.rated ? 'badge rated' : 'badge', text: seek.rated ? 'Rated' : 'Casual' }),
      h('span', { class: 'sub', text: `${side}${range}` })),
    h('td', { class: 'action' }, action));
  }

  renderPools() {
    const waiting = new Map();
    for (const seek of this.seeks.values()) {
      if (!seek.pool) continue;
      const entry = waiting.get(seek.pool) || { count: 0, mine: null };
      entry.count += 1;
      if (this.mine(seek)) entry.mine = seek;
      waiting.set(seek.pool, entry);
    }
    $('#pools').replaceChildren(...this.pools.map((pool) => {
      const { count = 0, mine = null } = waiting.get(pool.id) || {};
      const others = count - (mine ? 1 : 0);
      return h('button', {
        type: 'button', class: mine ? 'pool waiting' : 'pool', 'data-pool': pool.id, 'data-mine': String(Boolean(mine)),
        title: mine ? 'Waiting for an opponent: click to stop waiting' : `Play ${variantTitle(pool.variant, this.opts)} at ${pool.time_control.name}`,
        onclick: () => (mine ? this.cancel(mine) : this.join(pool)),
      },
      h('span', { class: 'pool-time', text: pool.time_control.name.replace(/^(Bullet|Blitz|Rapid|Classical) /, '') }),
      h('span', { class: 'pool-variant', text: variantTitle(pool.variant, this.opts) }),
      h('span', { class: 'pool-note', text: mine ? 'Waiting…' : others ? `${others} waiting` : SPEED_NAMES[pool.speed] || '' }));
    }));
  }

  async accept(seek) {
    try {
      const res = await api.acceptSeek(seek.id);
      window.location.href = `/game/${encodeURIComponent(res.game_id)}`;
    } catch (err) {
      showMessage(err.message);
    }
  }

  async cancel(seek) {
    try {
      await api.cancelSeek(seek.id);
    } catch (err) {
      showMessage(err.message);
    }
  }

  async join(pool) {
    try {
      const res = await api.joinPool(pool.id);
      if (res.game_id) {
        window.location.href = `/game/${encodeURIComponent(res.game_id)}`;
        return;
      }
      if (!this.me || !this.me.name) await this.setMe(await api.me()); // joining made us a guest
      this.render();
      showMessage(`Waiting for an opponent in ${variantTitle(pool.variant, this.opts)} ${pool.time_control.name}…`, 'info', 6000);
    } catch (err) {
      showMessage(err.message);
    }
  }
}
