"""Piece drawings (issue 23 item 5): every Vanguard piece type (vanguard 3.2) and Superchess's four
substitutes (superchess 2) are drawn, not letter discs, and no two drawings of a variant look
alike on a 42 px or a 23 px square (the desktop and the phone board), in either side's colour.
The drawings are rasterised in the browser exactly as the board draws them (a square, the piece
at 90 %) and compared pixel by pixel. Legends of all pieces at both sizes and a Vanguard start
position are written under test-artifacts/ for a person to look at."""
from __future__ import annotations

import itertools

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS, screenshot
from .helpers import start_match

SIZES = (42, 23)                          # desktop and phone (16 x 16 at 390 px) squares
COLOURS = ("#d03030", "#3060d0")          # the default pair
VANGUARD = "PNBRQSCFZIOWEAYLHGTXK"        # all 21 types, vanguard 3.2 (FEN letters)
SUPERCHESS = "AESV"                        # Amazon, Empress, Princess, Veteran (superchess 2)
LIGHT_SQUARE = "#efe4d0"                   # style.css --light-sq
DARK_SQUARE = "#b89a76"                    # style.css --dark-sq

# Two drawings count as different when at least this share of a square's pixels differ clearly
# (the sum of the channel differences over 100 of 765). Measured: the closest pairs of these
# drawings differ on 0.113-0.137 of the square (pawn / soldier, wizard / spy, the compounds),
# about as much as the orthodox Pawn and Bishop (0.132-0.141); Superchess's former knight-with-an-
# emblem drawings differed from each other and from the Knight on only 0.046-0.068.
MIN_DIFFERENT_SHARE = 0.10
# The side's colour covers at least this share of the square (measured: 0.043 for the thinnest
# drawing, the Sergeant at 23 px, 0.055 for the orthodox Bishop).
MIN_FILL_SHARE = 0.035

# In the page: a piece drawn as the board draws it (board.js: a square, the piece at 90 %),
# rasterised to `size` pixels.
RASTER_JS = """
async function pieceSquare(pieces, set, letter, fill, size, square) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('xmlns', NS);
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('width', size);
  svg.setAttribute('height', size);
  const bg = document.createElementNS(NS, 'rect');
  bg.setAttribute('width', 100);
  bg.setAttribute('height', 100);
  bg.setAttribute('fill', square);
  svg.appendChild(bg);
  const g = pieces.pieceGroup(letter, fill, set);
  g.setAttribute('transform', 'translate(5 5) scale(0.9)');
  svg.appendChild(g);
  return svg;
}
async function rasterise(svg, size) {
  const img = new Image();
  img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(new XMLSerializer().serializeToString(svg));
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0, size, size);
  return ctx.getImageData(0, 0, size, size).data;
}
"""


def drawings(page, variant, letters, size, fill):
    """{letter: {glyph, pixels (flat RGBA list), fill_share}} for the pieces of `variant`."""
    return page.evaluate("""async ([variant, letters, size, fill, square]) => {
        """ + RASTER_JS + """
        const pieces = await import('/static/pieces.js');
        const ui = await import('/static/ui.js');
        const set = await ui.pieceSetFor(variant);
        const [r, g, b] = [1, 3, 5].map((i) => parseInt(fill.slice(i, i + 2), 16));
        const out = {};
        for (const letter of letters) {
          const svg = await pieceSquare(pieces, set, letter, fill, size, square);
          const px = await rasterise(svg, size);
          let filled = 0;
          for (let i = 0; i < px.length; i += 4) {
            if (Math.abs(px[i] - r) + Math.abs(px[i + 1] - g) + Math.abs(px[i + 2] - b) < 60) filled += 1;
          }
          out[letter] = { glyph: set.glyph(letter), pixels: Array.from(px), fill_share: filled / (size * size) };
        }
        return out;
    }""", [variant, letters, size, fill, LIGHT_SQUARE])


def different_share(a: list[int], b: list[int]) -> float:
    """The share of pixels whose colours differ clearly (RGBA lists of one size)."""
    n = len(a) // 4
    differ = sum(1 for i in range(0, len(a), 4)
                 if abs(a[i] - b[i]) + abs(a[i + 1] - b[i + 1]) + abs(a[i + 2] - b[i + 2]) > 100)
    return differ / n


@pytest.fixture()
def page(desktop, server):
    desktop.goto(server.url + "/")
    return desktop


@pytest.mark.parametrize("variant,letters", [("vanguard", VANGUARD), ("superchess", "KQRBNP" + SUPERCHESS),
                                             ("capablanca", "KQCARBNP")])
def test_every_piece_has_its_own_drawing_at_board_sizes(page, variant, letters):
    for size, fill in itertools.product(SIZES, COLOURS):
        drawn = drawings(page, variant, letters, size, fill)
        glyphs = {letter: d["glyph"] for letter, d in drawn.items()}
        assert None not in glyphs.values(), glyphs                 # no letter-disc fallback
        assert len(set(glyphs.values())) == len(letters), glyphs    # one drawing per type
        for letter, d in drawn.items():                             # the body shows the side's colour
            assert d["fill_share"] > MIN_FILL_SHARE, (size, fill, letter, d["glyph"], d["fill_share"])
        closest = min((different_share(drawn[x]["pixels"], drawn[y]["pixels"]), glyphs[x], glyphs[y])
                      for x, y in itertools.combinations(letters, 2))
        assert closest[0] >= MIN_DIFFERENT_SHARE, (size, fill, closest)


def test_vanguard_compounds_share_superchess_drawings_and_unknown_pieces_show_their_label(page):
    """Vanguard's Chancellor (R+N) and Princess (B+N) are Superchess's Empress and Princess
    (vanguard 3.2, superchess 2); super16's Princess, a royal piece, keeps its own. A piece whose
    name has no drawing (a pasted diagram's) is a disc with its label (R21: two-letter IDs)."""
    found = page.evaluate("""async () => {
        const ui = await import('/static/ui.js');
        const pieces = await import('/static/pieces.js');
        const [sc, vg, s16] = await Promise.all(['superchess', 'vanguard', 'super16'].map(ui.pieceSetFor));
        const pasted = new pieces.PieceSet('pasted', { E: 'Lion Dog' }, { E: 'Ld' });
        const disc = pieces.pieceGroup('e', '#3060d0', pasted);
        return {vanguard: ['C', 'S'].map((l) => vg.glyph(l)), superchess: ['E', 'S'].map((l) => sc.glyph(l)),
                super16: s16.glyph('S'), pasted: [disc.dataset.glyph, disc.querySelector('text').textContent]};
    }""")
    assert found["vanguard"] == found["superchess"] == ["rook-knight", "bishop-knight"]
    assert found["super16"] == "princess"
    assert found["pasted"] == ["letter", "Ld"]


def legend(page, variant, letters):
    """A legend of the variant's pieces in the page (one row per size and colour, on light and
    dark squares as on the board), named under the largest row; returns its locator."""
    page.evaluate("""async ([variant, letters, sizes, colours, squares]) => {
        """ + RASTER_JS + """
        const pieces = await import('/static/pieces.js');
        const ui = await import('/static/ui.js');
        const set = await ui.pieceSetFor(variant);
        const box = document.createElement('div');
        box.id = 'legend-' + variant;
        Object.assign(box.style, { display: 'inline-block', padding: '8px', background: '#fff', font: '11px system-ui' });
        for (const size of sizes) {
          for (const fill of colours) {
            const row = document.createElement('div');
            Object.assign(row.style, { display: 'flex', alignItems: 'center', marginTop: '4px' });
            const what = document.createElement('span');
            what.textContent = size + ' px';
            what.style.width = '40px';
            row.appendChild(what);
            for (const [i, letter] of [...letters].entries()) {
              const cell = document.createElement('div');
              Object.assign(cell.style, { width: '56px', display: 'flex', flexDirection: 'column', alignItems: 'center' });
              cell.appendChild(await pieceSquare(pieces, set, letter, fill, size, squares[i % 2]));
              if (size === sizes[0] && fill === colours[0]) {
                const name = document.createElement('span');
                name.textContent = set.name(letter);
                cell.appendChild(name);
              }
              row.appendChild(cell);
            }
            box.appendChild(row);
          }
        }
        for (const el of document.body.children) el.style.display = 'none'; // the home page stays, hidden
        document.body.appendChild(box);
    }""", [variant, letters, list(SIZES), list(COLOURS), [LIGHT_SQUARE, DARK_SQUARE]])
    return page.locator(f"#legend-{variant} svg")


def test_legends_of_all_pieces(page):
    """Screenshots for a person to judge: test-artifacts/pieces-legend-*.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    for variant, letters in (("vanguard", VANGUARD), ("superchess", "KQRBNP" + SUPERCHESS)):
        expect(legend(page, variant, letters)).to_have_count(len(letters) * len(SIZES) * len(COLOURS))
        page.locator(f"#legend-{variant}").screenshot(path=str(ARTIFACTS / f"pieces-legend-{variant}.png"))


def test_vanguard_start_position_on_desktop_and_phone(two_players, server):
    a, b = two_players
    start_match(two_players, server, variant="vanguard")
    a.set_viewport_size({"width": 1366, "height": 768})
    b.set_viewport_size({"width": 390, "height": 844})
    for p, name in ((a, "desktop"), (b, "phone")):
        expect(p.locator('#board[data-piece-set="vanguard"]')).to_have_count(1)
        expect(p.locator('#board .piece-art[data-glyph="letter"]')).to_have_count(0)
        expect(p.locator("#board .piece-art")).to_have_count(96)
        screenshot(p, f"vanguard-start-{name}")
