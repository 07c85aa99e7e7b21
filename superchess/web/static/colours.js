// The piece colours of the game page: each side's colour is stored with the game (state
// `colours.sides`, set with the `set_colour` action, refused when too close to the opponent's) and
// seen by everyone; a player's saved preference (`colours.own`) is proposed for a game once; each
// viewer may show the default pair instead (remembered per browser).

import * as api from './api.js';
import { DEFAULT_COLOURS } from './pieces.js';
import { $, showMessage } from './ui.js';

const DEFAULT_PAIR_KEY = 'superchess.defaultColours';

export class GameColours {
  /**
   * @param {function} send     sends an action over the game's socket; false when not connected
   * @param {function} rerender draws the page again (a colour previewed or a view option changed)
   */
  constructor(send, rerender) {
    this.send = send;
    this.rerender = rerender;
    this.preview = null;    // a colour being picked on this page, shown until the server answers
    this.proposed = false;  // the saved preference was proposed for this game already
    this.defaultPair = readFlag();
    const input = $('#colour');
    input.addEventListener('input', () => { this.preview = input.value; this.rerender(); });
    input.addEventListener('change', () => this.choose(input.value, true));
    const pair = $('#default-colours');
    pair.checked = this.defaultPair;
    pair.addEventListener('change', () => {
      this.defaultPair = pair.checked;
      try { localStorage.setItem(DEFAULT_PAIR_KEY, pair.checked ? '1' : '0'); } catch { /* this page only */ }
      this.rerender();
    });
  }

  /** The colours to draw each side in, for this viewer. */
  of(st) {
    if (this.defaultPair) return [...DEFAULT_COLOURS];
    const sides = st.colours && Array.isArray(st.colours.sides) ? st.colours.sides : DEFAULT_COLOURS;
    const c = [sides[0] || DEFAULT_COLOURS[0], sides[1] || DEFAULT_COLOURS[1]];
    if (this.preview && (st.you === 0 || st.you === 1)) c[st.you] = this.preview;
    return c;
  }

  /** A new state: a player whose saved colour is not this game's yet proposes it, once. */
  onState(st) {
    const player = st.you === 0 || st.you === 1;
    if (!player || this.proposed || !['active', 'setup'].includes(st.status)) return;
    this.proposed = true;
    const own = st.colours && st.colours.own;
    const current = st.colours && st.colours.sides ? st.colours.sides[st.you] : null;
    if (own && current && own.toLowerCase() !== current.toLowerCase()) this.send({ type: 'set_colour', colour: own });
  }

  /** Ask for this colour in this game (and, picked by hand, keep it as the preference too). */
  async choose(colour, remember) {
    this.preview = colour;
    this.rerender();
    if (!this.send({ type: 'set_colour', colour })) { this.preview = null; this.rerender(); return; }
    if (!remember) return;
    try {
      await api.saveColour(colour);
    } catch (err) {
      showMessage(err.message, 'error');
    }
  }

  /** The server answered: a state (the colour is the game's now) or a refusal (back to it). */
  settle() {
    if (this.preview === null) return;
    this.preview = null;
    this.rerender();
  }
}

function readFlag() {
  try { return localStorage.getItem(DEFAULT_PAIR_KEY) === '1'; } catch { return false; }
}
