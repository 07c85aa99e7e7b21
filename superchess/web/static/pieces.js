// Piece drawings: one SVG silhouette per piece type, drawn in a 100 x 100 box, filled with a
// colour parameter (each side's colour) and outlined in a dark line. Uppercase letters are Player
// 1's pieces, lowercase Player 2's.
//
// Letters mean different pieces in different variants (A is the Archbishop in super16 but the
// Amazon in Superchess), so a drawing is chosen by the piece's NAME in its variant: a PieceSet
// maps the variant's letters to names (from GET /api/variants/{v}/pieces) and names to drawings.
// A piece without a known drawing is a circle with its letter. This file is the only place that
// draws pieces.

const SVGNS = 'http://www.w3.org/2000/svg';

export const DEFAULT_COLOURS = Object.freeze(['#d03030', '#3060d0']);
export const OUTLINE = '#1b1b1b';

// The letters of the default set (super16's pieces; used when no variant is known).
export const PIECE_NAMES = Object.freeze({
  K: 'King', Q: 'Queen', R: 'Rook', B: 'Bishop', N: 'Knight', P: 'Pawn',
  I: 'Prince', S: 'Princess', A: 'Archbishop', U: 'Super Knight', F: 'Fortress',
});

// The letters every variant uses the orthodox way (the set of a variant whose names are not loaded).
const ORTHODOX_NAMES = Object.freeze({ K: 'King', Q: 'Queen', R: 'Rook', B: 'Bishop', N: 'Knight', P: 'Pawn' });

// A plinth shared by most pieces.
const BASE = 'M22 80 H78 Q82 80 82 84 V88 Q82 91 79 91 H21 Q18 91 18 88 V84 Q18 80 22 80 Z';
const SMALL_BASE = 'M28 80 H72 Q76 80 76 84 V88 Q76 91 73 91 H27 Q24 91 24 88 V84 Q24 80 28 80 Z';

const KNIGHT = 'M32 80 C34 70 40 62 44 57 C38 58 33 60 28 62 C21 65 15 58 18 52 L33 31 '
  + 'C37 25 43 22 49 22 L54 11 L60 22 C72 28 79 44 77 60 C76 68 73 74 73 80 Z';
const MITRE_FOOT = 'M40 70 C40 74 36 77 30 80 H70 C64 77 60 74 60 70 Z';

// Each shape: [kind, data, role]; role 'body' is filled with the side's colour and outlined,
// 'detail' is drawn in the outline colour (lines / small dots), 'cut' is a dark opening.
const DRAWINGS = {
  pawn: [
    ['path', SMALL_BASE],
    ['path', 'M36 80 C36 66 42 56 45 46 L55 46 C58 56 64 66 64 80 Z'],
    ['path', 'M40 40 H60 A3 3 0 0 1 60 46 H40 A3 3 0 0 1 40 40 Z'],
    ['circle', [50, 28, 13]],
  ],
  rook: [
    ['path', 'M34 40 H66 L68 75 H32 Z'],
    ['path', 'M26 15 H36 V23 H44 V15 H56 V23 H64 V15 H74 V34 L66 40 H34 L26 34 Z'],
    ['path', 'M28 74 H72 V81 H28 Z'],
    ['path', BASE],
    ['line', 'M34 52 H66 M34 63 H66', 'detail'],
  ],
  knight: [
    ['path', BASE],
    ['path', KNIGHT],
    ['circle', [45, 35, 3.4], 'detail'],
    ['circle', [23, 53, 1.8], 'detail'],
    ['line', 'M61 25 C69 33 73 46 71 62', 'detail'],
  ],
  bishop: [
    ['path', BASE],
    ['path', MITRE_FOOT],
    ['path', 'M50 22 C64 32 68 48 62 62 H38 C32 48 36 32 50 22 Z'],
    ['path', 'M36 61 H64 A4 4 0 0 1 64 69 H36 A4 4 0 0 1 36 61 Z'],
    ['circle', [50, 16, 6]],
    ['line', 'M58 33 L48 46', 'detail'],
  ],
  queen: [
    ['path', 'M26 74 L16 30 L32 54 L34 22 L44 52 L50 16 L56 52 L66 22 L68 54 L84 30 L74 74 Z'],
    ['path', 'M26 72 H74 V80 H26 Z'],
    ['path', BASE],
    ['circle', [16, 28, 5]], ['circle', [34, 20, 5]], ['circle', [50, 13, 5]],
    ['circle', [66, 20, 5]], ['circle', [84, 28, 5]],
  ],
  king: [
    ['path', 'M28 74 C16 60 20 38 36 38 C44 38 48 44 50 50 C52 44 56 38 64 38 C80 38 84 60 72 74 Z'],
    ['path', 'M50 30 C45 36 45 44 50 54 C55 44 55 36 50 30 Z'],
    ['path', 'M46 5 H54 V13 H62 V21 H54 V31 H46 V21 H38 V13 H46 Z'],
    ['path', 'M27 72 H73 V80 H27 Z'],
    ['path', BASE],
    ['line', 'M30 64 C42 60 58 60 70 64', 'detail'],
  ],
  // Prince: a crowned figure with broad shoulders.
  prince: [
    ['path', BASE],
    ['path', 'M22 80 C22 64 34 56 50 56 C66 56 78 64 78 80 Z'],
    ['circle', [50, 44, 13]],
    ['path', 'M36 34 L34 14 L43 24 L50 9 L57 24 L66 14 L64 34 Z'],
    ['line', 'M36 30 H64', 'detail'],
  ],
  // Princess: a figure in a bell gown with a diamond tiara.
  princess: [
    ['path', BASE],
    ['path', 'M24 80 C30 66 38 60 42 52 H58 C62 60 70 66 76 80 Z'],
    ['circle', [50, 40, 12]],
    ['path', 'M38 32 Q50 22 62 32 L62 35 Q50 27 38 35 Z'],
    ['path', 'M50 9 L57 19 L50 29 L43 19 Z'],
    ['line', 'M40 66 Q50 70 60 66', 'detail'],
  ],
  // Archbishop: a wide mitre with a cross on top and a cross-band on its face.
  archbishop: [
    ['path', BASE],
    ['path', MITRE_FOOT],
    ['path', 'M50 22 C70 30 74 50 65 63 H35 C26 50 30 30 50 22 Z'],
    ['path', 'M35 61 H65 A4 4 0 0 1 65 69 H35 A4 4 0 0 1 35 61 Z'],
    ['path', 'M47 3 H53 V9 H59 V15 H53 V23 H47 V15 H41 V9 H47 Z'],
    ['line', 'M50 26 V60 M33 44 H67', 'detail'],
  ],
  // Super Knight: a horned (unicorn) horse head with a star.
  'super-knight': [
    ['path', BASE],
    ['path', 'M36 29 L22 4 L47 22 Z'],
    ['path', KNIGHT],
    ['path', 'M64 14 L68 24 L61 22 Z'],
    ['circle', [45, 35, 3.4], 'detail'],
    ['circle', [23, 53, 1.8], 'detail'],
    ['path', 'M60 52 L62.6 58.4 L69.5 58.9 L64.2 63.3 L65.9 70 L60 66.3 L54.1 70 L55.8 63.3 L50.5 58.9 L57.4 58.4 Z', 'detail'],
  ],
  // Fortress: a wide wall between two towers, with a gate.
  fortress: [
    ['path', 'M12 80 H88 Q90 80 90 83 V89 Q90 91 88 91 H12 Q10 91 10 89 V83 Q10 80 12 80 Z'],
    ['path', 'M14 16 H21 V23 H27 V16 H35 V38 H41 V45 H47 V38 H53 V45 H59 V38 H65 V16 H73 V23 H79 V16 H86 V80 H14 Z'],
    ['path', 'M41 80 V64 A9 9 0 0 1 59 64 V80 Z', 'cut'],
    ['path', 'M22 34 H28 V46 H22 Z M72 34 H78 V46 H72 Z', 'cut'],
    ['line', 'M35 38 V80 M65 38 V80', 'detail'],
  ],
  // Tiling Rider's small pieces, each marked with the directions of its step (section 1, 3.1).
  // Wazir (orthogonal step): a vizier in a turbaned dome, a plus on his robe.
  wazir: [
    ['path', BASE],
    ['path', 'M30 80 C30 68 36 60 40 54 H60 C64 60 70 68 70 80 Z'],
    ['path', 'M36 48 H64 A4 4 0 0 1 64 56 H36 A4 4 0 0 1 36 48 Z'],
    ['path', 'M30 36 C30 22 40 15 50 15 C60 15 70 22 70 36 C70 44 62 48 50 48 C38 48 30 44 30 36 Z'],
    ['circle', [50, 10, 5]],
    ['line', 'M34 33 C44 28 56 28 66 33 M50 61 V75 M43 68 H57', 'detail'],
  ],
  // Ferz (diagonal step): a counsellor in a pointed hood, a cross on his robe.
  ferz: [
    ['path', BASE],
    ['path', 'M28 80 L40 52 H60 L72 80 Z'],
    ['circle', [50, 40, 12]],
    ['path', 'M36 36 L50 6 L64 36 C56 32 44 32 36 36 Z'],
    ['line', 'M44 62 L56 74 M56 62 L44 74', 'detail'],
  ],
  // Guard (one step any way, a non-royal King): a crested shield with a star of eight rays.
  guard: [
    ['path', BASE],
    ['path', 'M40 26 L43 12 H57 L60 26 Z'],
    ['path', 'M26 26 H74 V48 C74 64 64 74 50 80 C36 74 26 64 26 48 Z'],
    ['line', 'M50 34 V68 M33 51 H67 M38 39 L62 63 M62 39 L38 63', 'detail'],
  ],
  // Superchess compounds: a knight's head (the leap they all share) with the emblem of the other
  // half above it — Amazon (Queen + Knight) a coronet, Empress (Rook + Knight) battlements,
  // Princess (Bishop + Knight) a mitre, Veteran (King + Knight) a cross.
  amazon: [
    ['path', 'M9 33 L5 11 L14 22 L21 4 L28 22 L37 11 L35 33 Z'],
    ['circle', [5, 10, 3.5]], ['circle', [21, 4, 3.5]], ['circle', [37, 10, 3.5]],
    ['path', BASE],
    ['path', KNIGHT],
    ['circle', [45, 35, 3.4], 'detail'],
    ['circle', [23, 53, 1.8], 'detail'],
    ['line', 'M61 25 C69 33 73 46 71 62 M10 28 H34', 'detail'],
  ],
  empress: [
    ['path', 'M7 6 H14 V12 H19 V6 H26 V12 H31 V6 H38 V36 H7 Z'],
    ['path', BASE],
    ['path', KNIGHT],
    ['circle', [45, 35, 3.4], 'detail'],
    ['circle', [23, 53, 1.8], 'detail'],
    ['line', 'M61 25 C69 33 73 46 71 62 M10 20 H35', 'detail'],
  ],
  'princess-bn': [
    ['path', 'M22 6 C34 12 37 24 32 36 H12 C7 24 10 12 22 6 Z'],
    ['circle', [22, 4, 3.5]],
    ['path', BASE],
    ['path', KNIGHT],
    ['circle', [45, 35, 3.4], 'detail'],
    ['circle', [23, 53, 1.8], 'detail'],
    ['line', 'M61 25 C69 33 73 46 71 62 M27 14 L19 24', 'detail'],
  ],
  veteran: [
    ['path', 'M17 3 H27 V11 H35 V21 H27 V36 H17 V21 H9 V11 H17 Z'],
    ['path', BASE],
    ['path', KNIGHT],
    ['circle', [45, 35, 3.4], 'detail'],
    ['circle', [23, 53, 1.8], 'detail'],
    ['line', 'M61 25 C69 33 73 46 71 62', 'detail'],
  ],
};

// Piece name -> drawing, for every variant, except where the variant's data gives a piece another
// one (the `drawing` of its /api/variants/{v}/pieces entry: Superchess's Princess is the Bishop +
// Knight compound, super16's a royal piece).
const GLYPHS_BY_NAME = Object.freeze({
  King: 'king', Queen: 'queen', Rook: 'rook', Bishop: 'bishop', Knight: 'knight',
  Pawn: 'pawn', 'Super Pawn': 'pawn',
  Prince: 'prince', Princess: 'princess', Archbishop: 'archbishop', 'Super Knight': 'super-knight',
  Fortress: 'fortress', Wazir: 'wazir', Ferz: 'ferz', Guard: 'guard',
  Amazon: 'amazon', Empress: 'empress', Veteran: 'veteran',
});
/** The pieces of one variant: letter -> name -> drawing. `names` maps upper-case letters to names
 * (from /api/variants/{v}/pieces); without it only the orthodox letters K Q R B N P are known.
 * `labels` maps upper-case letters to the text a piece without a drawing shows (a diagram piece's
 * ID, e.g. "Br"; default: the letter), `drawings` upper-case letters to the drawing a piece has
 * instead of the one its name chooses. */
export class PieceSet {
  constructor(variant = null, names = null, labels = null, drawings = null) {
    this.variant = variant;
    this.loaded = Boolean(names);
    this.names = Object.freeze({ ...(names || ORTHODOX_NAMES) });
    this.labels = Object.freeze({ ...(labels || {}) });
    this.drawings = Object.freeze({ ...(drawings || {}) });
  }

  /** The text drawn on a piece without a drawing: its label, or its upper-case letter. */
  label(letter) {
    const up = String(letter).toUpperCase();
    return this.labels[up] || up;
  }

  /** The piece's name ("Amazon"), or its upper-case letter when unknown. */
  name(letter) {
    const up = String(letter).toUpperCase();
    return this.names[up] || up;
  }

  /** The drawing's id ("amazon"), or null (drawn as a circle with the letter). */
  glyph(letter) {
    const name = this.names[String(letter).toUpperCase()];
    if (!name) return null;
    return this.drawings[String(letter).toUpperCase()] || GLYPHS_BY_NAME[name] || null;
  }
}

/** The default set: super16's letters (pages that know no variant). */
export const DEFAULT_SET = new PieceSet('super16', PIECE_NAMES);

/** Player 1 (side 0) owns uppercase letters, Player 2 (side 1) lowercase. */
export function sideOf(letter) {
  return letter === letter.toUpperCase() ? 0 : 1;
}

export function pieceName(letter, set = DEFAULT_SET) {
  return set.name(letter);
}

export function hasDrawing(letter, set = DEFAULT_SET) {
  return Boolean(set.glyph(letter));
}

function luminance(hex) {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex || '');
  if (!m) return 0.5;
  const n = parseInt(m[1], 16);
  const ch = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
}

/** A colour that reads well on top of `fill` (for inner details and fallback letters). */
export function contrastOn(fill) {
  return luminance(fill) < 0.08 ? '#f2f2f2' : OUTLINE;
}

function svgEl(tag, attrs) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/**
 * An SVG <g> drawing the piece `letter` of the PieceSet `set` in a 100 x 100 box, filled with
 * `fill`. The group carries class "piece-art", data-piece="<letter>" and data-glyph="<drawing id>"
 * ("letter" for the fallback circle).
 */
export function pieceGroup(letter, fill, set = DEFAULT_SET) {
  const glyph = set.glyph(letter);
  const g = svgEl('g', { class: 'piece-art', 'data-piece': letter, 'data-glyph': glyph || 'letter' });
  const detail = contrastOn(fill);
  const shapes = glyph ? DRAWINGS[glyph] : null;
  const common = { stroke: OUTLINE, 'stroke-width': 3, 'stroke-linejoin': 'round', 'stroke-linecap': 'round' };
  if (!shapes) {
    g.appendChild(svgEl('circle', { cx: 50, cy: 50, r: 36, fill, ...common }));
    const label = set.label(letter);
    const t = svgEl('text', { // two-letter labels smaller, to stay inside the disc
      x: 50, y: 52, 'text-anchor': 'middle', 'dominant-baseline': 'central',
      'font-size': label.length > 1 ? 34 : 44, 'font-weight': 700, 'font-family': 'system-ui, sans-serif', fill: detail,
    });
    t.textContent = label;
    g.appendChild(t);
    return g;
  }
  for (const [kind, data, role = 'body'] of shapes) {
    let el;
    if (kind === 'circle') {
      const [cx, cy, r] = data;
      el = svgEl('circle', { cx, cy, r });
    } else {
      el = svgEl('path', { d: data });
    }
    if (role === 'body') {
      for (const [k, v] of Object.entries({ fill, ...common })) el.setAttribute(k, v);
    } else if (role === 'cut') {
      for (const [k, v] of Object.entries({ fill: OUTLINE, ...common, 'stroke-width': 2 })) el.setAttribute(k, v);
    } else if (kind === 'line') {
      for (const [k, v] of Object.entries({ fill: 'none', ...common, stroke: detail, 'stroke-width': 3 })) el.setAttribute(k, v);
    } else {
      el.setAttribute('fill', detail);
    }
    g.appendChild(el);
  }
  return g;
}

/** A standalone small <svg> icon of a piece (captured pieces, holdings, promotion picker). */
export function pieceIcon(letter, fill, size = 24, set = DEFAULT_SET) {
  const svg = svgEl('svg', {
    viewBox: '0 0 100 100', width: size, height: size, class: 'piece-icon', 'data-piece': letter,
    role: 'img', 'aria-label': set.name(letter),
  });
  const title = svgEl('title', {});
  title.textContent = set.name(letter);
  svg.appendChild(title);
  svg.appendChild(pieceGroup(letter, fill, set));
  return svg;
}
