// Piece drawings: one SVG silhouette per piece type, drawn in a 100 x 100 box, filled with a
// colour parameter (each side's colour) and outlined in a dark line. Uppercase letters are Player
// 1's pieces, lowercase Player 2's.
//
// Letters mean different pieces in different variants (A is the Archbishop in super16 but the
// Amazon in Superchess), so a drawing is chosen by the piece's NAME in its variant: a PieceSet
// maps the variant's letters to names (from GET /api/variants/{v}/pieces) and names to drawings.
// A piece without a known drawing is a circle with its label (its letter, or a pasted diagram's
// piece ID). This file is the only place that
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

// A plinth shared by most pieces; a small one for the pawn-sized, a wide one for the Fortress and
// the compounds.
const BASE = 'M22 80 H78 Q82 80 82 84 V88 Q82 91 79 91 H21 Q18 91 18 88 V84 Q18 80 22 80 Z';
const SMALL_BASE = 'M28 80 H72 Q76 80 76 84 V88 Q76 91 73 91 H27 Q24 91 24 88 V84 Q24 80 28 80 Z';
const WIDE_BASE = 'M12 80 H88 Q90 80 90 83 V89 Q90 91 88 91 H12 Q10 91 10 89 V83 Q10 80 12 80 Z';
const PAWN_COLLAR = 'M40 40 H60 A3 3 0 0 1 60 46 H40 A3 3 0 0 1 40 40 Z';

const KNIGHT = 'M32 80 C34 70 40 62 44 57 C38 58 33 60 28 62 C21 65 15 58 18 52 L33 31 '
  + 'C37 25 43 22 49 22 L54 11 L60 22 C72 28 79 44 77 60 C76 68 73 74 73 80 Z';
const MITRE_FOOT = 'M40 70 C40 74 36 77 30 80 H70 C64 77 60 74 60 70 Z';

/** A compound of the Knight and `other` (a drawing id): `other` large behind on the right, its
 * crest above the Knight's head, the Knight smaller in front on the left, on one wide plinth. */
function compound(other) {
  const onPlinth = (scale) => 91 * (1 - scale); // a shrunk piece still stands on the plinth's bottom
  return [
    ['use', { glyph: other, x: 22, y: onPlinth(0.9), scale: 0.9 }],
    ['use', { glyph: 'knight', x: -4, y: onPlinth(0.66), scale: 0.66 }],
    ['path', WIDE_BASE],
  ];
}

// Each shape: [kind, data, role]. Kinds: 'path' (data: the path), 'circle' ([cx, cy, r]), 'line'
// (a path stroked, not filled) and 'use' (another drawing placed inside this one: {glyph, x, y,
// scale, mirror}). Roles: 'body' (the default) is filled with the side's colour and outlined,
// 'detail' is drawn in a colour that reads on the body (lines, small dots), 'cut' is a dark
// opening, 'cord' a dark line off the body (a bow's string).
const DRAWINGS = {
  pawn: [
    ['path', SMALL_BASE],
    ['path', 'M36 80 C36 66 42 56 45 46 L55 46 C58 56 64 66 64 80 Z'],
    ['path', PAWN_COLLAR],
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
    ['path', WIDE_BASE],
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
  // Compounds of the Knight with another piece (Superchess's Amazon, Empress, Princess and
  // Veteran; Vanguard's Chancellor and Princess): the two pieces side by side on one wide plinth,
  // the other piece behind, the Knight's head in front.
  'queen-knight': compound('queen'),
  'rook-knight': compound('rook'),
  'bishop-knight': compound('bishop'),
  'king-knight': compound('king'),
  // Vanguard's own pieces (vanguard 3.2).
  // Soldier (a Pawn that also steps sideways): a pawn-sized footman in a pointed helmet behind a
  // round shield.
  soldier: [
    ['path', SMALL_BASE],
    ['path', 'M34 80 C34 64 40 54 44 46 H56 C60 54 66 64 66 80 Z'],
    ['path', PAWN_COLLAR],
    ['circle', [50, 30, 10]],
    ['path', 'M37 28 C37 19 43 11 50 3 C57 11 63 19 63 28 Z'],
    ['path', 'M33 25 H67 V30 H33 Z'],
    ['circle', [50, 61, 19]],
    ['circle', [50, 61, 5], 'detail'],
    ['line', 'M50 31 V38', 'detail'],
  ],
  // Sergeant: a pawn-sized figure with a halberd and chevrons.
  sergeant: [
    ['path', SMALL_BASE],
    ['path', 'M28 80 C28 66 34 56 37 46 H53 C56 56 62 66 62 80 Z'],
    ['path', 'M35 40 H55 A3 3 0 0 1 55 46 H35 A3 3 0 0 1 35 40 Z'],
    ['circle', [45, 28, 12]],
    ['path', 'M66 14 H72 V80 H66 Z'],
    ['path', 'M66 14 L69 2 L72 14 Z'],
    ['path', 'M72 18 C84 18 90 26 88 38 C84 34 78 32 72 33 Z'],
    ['path', 'M66 20 L58 18 L66 28 Z'],
    ['line', 'M37 64 L45 57 L53 64 M37 72 L45 65 L53 72', 'detail'],
  ],
  // Lancer: a jousting lance with its hand guard and a swallow-tailed pennant.
  lancer: [
    ['path', BASE],
    ['path', 'M44 80 V62 H56 V80 Z'],
    ['path', 'M50 2 L58 46 H42 Z'],
    ['path', 'M46 44 H54 L73 66 H27 Z'],
    ['path', 'M53 12 L88 18 L76 25 L88 32 L54 38 Z'],
  ],
  // Helepolis: a siege tower of several storeys on wheels.
  helepolis: [
    ['path', 'M22 82 L30 16 H70 L78 82 Z'],
    ['path', 'M26 16 L50 4 L74 16 Z'],
    ['path', 'M41 22 H59 V34 H41 Z', 'cut'],
    ['line', 'M28 40 H72 M26 56 H74 M24 72 H76', 'detail'],
    ['circle', [32, 85, 9]], ['circle', [68, 85, 9]],
    ['circle', [32, 85, 2.5], 'detail'], ['circle', [68, 85, 2.5], 'detail'],
  ],
  // Berserker: a bearded head in a horned helmet, over a fur-clad chest.
  berserker: [
    ['path', 'M12 92 C12 74 24 64 36 62 H64 C76 64 88 74 88 92 Z'],
    ['path', 'M31 36 C19 34 10 24 12 6 C19 17 26 21 36 23 Z'],
    ['path', 'M69 36 C81 34 90 24 88 6 C81 17 74 21 64 23 Z'],
    ['path', 'M30 54 C30 70 40 80 50 88 C60 80 70 70 70 54 Z'],
    ['path', 'M32 44 C32 54 38 60 50 60 C62 60 68 54 68 44 Z'],
    ['path', 'M28 44 C28 24 38 15 50 15 C62 15 72 24 72 44 Z'],
    ['path', 'M26 40 H74 V46 H26 Z'],
    ['path', 'M40 49 H46 V52 H40 Z M54 49 H60 V52 H54 Z', 'cut'],
    ['line', 'M50 16 V58 M42 68 L46 78 M58 68 L54 78', 'detail'],
  ],
  // General: a bust with a bicorne hat and epaulettes.
  general: [
    ['path', BASE],
    ['path', 'M20 80 C20 66 32 58 50 58 C68 58 80 66 80 80 Z'],
    ['path', 'M16 66 C16 58 28 55 36 59 C34 66 26 70 16 66 Z'],
    ['path', 'M84 66 C84 58 72 55 64 59 C66 66 74 70 84 66 Z'],
    ['circle', [50, 45, 11]],
    ['path', 'M10 36 C24 30 34 12 50 12 C66 12 76 30 90 36 C72 38 60 33 50 33 C40 33 28 38 10 36 Z'],
    ['circle', [50, 23, 4], 'detail'],
    ['line', 'M50 60 V78 M18 68 L16 74 M24 69 L23 75 M82 68 L84 74 M76 69 L77 75', 'detail'],
  ],
  // Wizard: a bearded figure in a robe and a tall pointed hat with a star.
  wizard: [
    ['path', BASE],
    ['path', 'M28 80 C32 66 36 56 40 46 H60 C64 56 68 66 72 80 Z'],
    ['circle', [50, 41, 8]],
    ['path', 'M40 44 C40 58 46 66 50 72 C54 66 60 58 60 44 C56 48 44 48 40 44 Z'],
    ['path', 'M18 37 C30 31 70 31 82 37 C70 41 30 41 18 37 Z'],
    ['path', 'M34 34 C40 24 46 12 60 3 C57 10 60 20 66 34 Z'],
    ['path', 'M52 16 L53.5 20.5 L58 20.5 L54.5 23.5 L56 28 L52 25 L48 28 L49.5 23.5 L46 20.5 L50.5 20.5 Z', 'detail'],
  ],
  // Spy: a figure in a brimmed hat, a dark eye mask and a coat with a raised collar.
  spy: [
    ['path', BASE],
    ['path', 'M30 80 L37 48 H63 L70 80 Z'],
    ['circle', [50, 37, 10]],
    ['path', 'M34 52 L37 36 L47 54 Z'],
    ['path', 'M66 52 L63 36 L53 54 Z'],
    ['path', 'M38 33 H62 V40 H38 Z', 'cut'],
    ['path', 'M20 28 C32 23 68 23 80 28 C68 32 32 32 20 28 Z'],
    ['path', 'M34 27 C34 16 38 10 42 10 C46 13 54 13 58 10 C62 10 66 16 66 27 Z'],
    ['line', 'M35 22 H65 M33 68 H67', 'detail'],
  ],
  // Falconer: a falcon perched on its stand, its long wing folded to a point.
  falconer: [
    ['path', BASE],
    ['path', 'M46 80 V66 H54 V80 Z'],
    ['path', 'M54 58 L70 82 L60 83 L46 62 Z'],
    ['path', 'M30 24 C22 40 28 58 44 64 C58 66 70 56 68 40 C66 26 56 14 40 12 Z'],
    ['path', 'M24 62 H76 V69 H24 Z'],
    ['path', 'M42 30 C62 28 76 46 80 80 C68 68 52 60 42 52 Z'],
    ['circle', [38, 20, 13]],
    ['path', 'M27 15 C20 15 15 21 17 29 C20 25 24 24 28 25 Z'],
    ['circle', [36, 17, 2.8], 'detail'],
    ['line', 'M35 24 C35 29 37 33 41 35 M50 38 C60 44 66 54 70 66', 'detail'],
  ],
  // Archer: a drawn bow with its arrow.
  archer: [
    ['path', BASE],
    ['line', 'M36 6 L20 42 L36 78', 'cord'],
    ['path', 'M18 39 H82 V45 H18 Z'],
    ['path', 'M80 30 L97 42 L80 54 Z'],
    ['path', 'M8 31 L26 39 H16 Z M8 53 L26 45 H16 Z'],
    ['path', 'M32 3 C62 9 82 24 82 42 C82 60 62 75 32 81 C52 69 66 57 66 42 C66 27 52 15 32 3 Z'],
  ],
  // Bowman: a crossbow pointing forward, its bolt loaded.
  bowman: [
    ['path', BASE],
    ['line', 'M6 46 L50 60 L94 46', 'cord'],
    ['path', 'M42 30 H58 V70 L65 80 H35 L42 70 Z'],
    ['path', 'M46 14 H54 V40 H46 Z'],
    ['path', 'M39 19 L50 2 L61 19 Z'],
    ['path', 'M6 46 C24 16 76 16 94 46 C76 34 24 34 6 46 Z'],
    ['line', 'M42 62 H58', 'detail'],
  ],
  // Nightrider: a Knight's head turned the other way under a crescent moon.
  nightrider: [
    ['path', 'M24 3 A21 21 0 1 0 45 30 A16 16 0 1 1 24 3 Z'],
    ['use', { glyph: 'knight', x: 106, y: 9, scale: 0.9, mirror: true }],
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
  Amazon: 'queen-knight', Empress: 'rook-knight', Chancellor: 'rook-knight', Veteran: 'king-knight',
  Soldier: 'soldier', Sergeant: 'sergeant', Lancer: 'lancer', Helepolis: 'helepolis',
  Berserker: 'berserker', General: 'general', Wizard: 'wizard', Spy: 'spy', Falconer: 'falconer',
  Archer: 'archer', Bowman: 'bowman', Nightrider: 'nightrider',
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

  /** The drawing's id ("queen-knight"), or null (drawn as a circle with the letter). */
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

export function svgEl(tag, attrs) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

const STROKE = 3; // outline width, in the 100 x 100 box
const ROUND = { 'stroke-linejoin': 'round', 'stroke-linecap': 'round' };

/** The paint of one shape (see DRAWINGS); `width` is the outline width in the shape's own units. */
function paint(kind, role, fill, detail, width) {
  if (role === 'body') return { fill, stroke: OUTLINE, 'stroke-width': width, ...ROUND };
  if (role === 'cut') return { fill: OUTLINE, stroke: OUTLINE, 'stroke-width': (2 * width) / 3, ...ROUND };
  const colour = role === 'cord' ? OUTLINE : detail;
  return kind === 'line' ? { fill: 'none', stroke: colour, 'stroke-width': width, ...ROUND } : { fill: colour };
}

/** Appends the shapes of a drawing to `parent`; `scale` is how much the drawing is shrunk inside
 * the piece's box (a 'use'), so that every outline keeps the same width. */
function drawShapes(parent, shapes, fill, detail, scale = 1) {
  for (const [kind, data, role = 'body'] of shapes) {
    if (kind === 'use') {
      const { glyph, x = 0, y = 0, scale: s = 1, mirror = false } = data;
      const g = svgEl('g', { transform: `translate(${x} ${y}) scale(${mirror ? -s : s} ${s})` });
      drawShapes(g, DRAWINGS[glyph], fill, detail, scale * s);
      parent.appendChild(g);
      continue;
    }
    const el = kind === 'circle' ? svgEl('circle', { cx: data[0], cy: data[1], r: data[2] }) : svgEl('path', { d: data });
    for (const [k, v] of Object.entries(paint(kind, role, fill, detail, STROKE / scale))) el.setAttribute(k, v);
    parent.appendChild(el);
  }
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
  if (glyph) {
    drawShapes(g, DRAWINGS[glyph], fill, detail);
    return g;
  }
  g.appendChild(svgEl('circle', { cx: 50, cy: 50, r: 36, ...paint('circle', 'body', fill, detail, STROKE) }));
  const label = set.label(letter);
  const t = svgEl('text', { // two-letter labels smaller, to stay inside the disc
    x: 50, y: 52, 'text-anchor': 'middle', 'dominant-baseline': 'central',
    'font-size': label.length > 1 ? 34 : 44, 'font-weight': 700, 'font-family': 'system-ui, sans-serif', fill: detail,
  });
  t.textContent = label;
  g.appendChild(t);
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
