// The game page's sounds, made with WebAudio (no files, no external service): a few short tones
// per event. Muting is remembered per browser (localStorage "superchess.muted").

const KEY = 'superchess.muted';

/** Each sound: its notes as [frequency Hz, start s, length s, wave]. */
const SOUNDS = {
  move: [[520, 0, 0.06, 'triangle']],
  capture: [[300, 0, 0.05, 'square'], [220, 0.05, 0.08, 'triangle']],
  check: [[880, 0, 0.08, 'sawtooth'], [660, 0.09, 0.1, 'sawtooth']],
  start: [[523, 0, 0.1, 'sine'], [659, 0.1, 0.1, 'sine'], [784, 0.2, 0.16, 'sine']],
  end: [[784, 0, 0.12, 'sine'], [659, 0.12, 0.12, 'sine'], [523, 0.24, 0.22, 'sine']],
  low: [[1200, 0, 0.05, 'square'], [1200, 0.12, 0.05, 'square']],
};

export class Sounds {
  constructor() {
    this.muted = readMuted();
    this.context = null;  // made on the first sound (browsers allow audio after a user gesture)
    this.played = [];     // the names of the sounds played (muted ones too: for tests)
  }

  setMuted(muted) {
    this.muted = Boolean(muted);
    try { localStorage.setItem(KEY, this.muted ? '1' : '0'); } catch { /* private mode: this page only */ }
  }

  play(name) {
    const notes = SOUNDS[name];
    if (!notes) return;
    this.played.push(name);
    if (this.muted) return;
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      this.context = this.context || new Ctx();
      const ctx = this.context;
      if (ctx.state === 'suspended') ctx.resume().catch(() => {});
      const t0 = ctx.currentTime + 0.01;
      for (const [freq, start, length, wave] of notes) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = wave;
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, t0 + start);
        gain.gain.exponentialRampToValueAtTime(0.18, t0 + start + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + length);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t0 + start);
        osc.stop(t0 + start + length + 0.02);
      }
    } catch { /* no audio here: silence */ }
  }
}

function readMuted() {
  try { return localStorage.getItem(KEY) === '1'; } catch { return false; }
}
