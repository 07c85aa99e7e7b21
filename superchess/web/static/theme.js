// The colour theme of every page: the system's (prefers-color-scheme, followed as it changes), or light or dark as chosen
// with a page's theme button (remembered per browser, localStorage "superchess.theme").

const KEY = 'superchess.theme';
const NEXT = { auto: 'dark', dark: 'light', light: 'auto' };
const LABELS = { auto: 'Theme: system', dark: 'Theme: dark', light: 'Theme: light' };

function chosen() {
  try { return NEXT[localStorage.getItem(KEY)] ? localStorage.getItem(KEY) : 'auto'; } catch { return 'auto'; }
}

const SYSTEM_DARK = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;

/** Sets `data-theme` (light | dark: what the stylesheet reads) and `data-theme-choice`. */
function apply(theme) {
  const dark = theme === 'dark' || (theme === 'auto' && Boolean(SYSTEM_DARK && SYSTEM_DARK.matches));
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  document.documentElement.dataset.themeChoice = theme;
  const btn = document.querySelector('#theme');
  if (btn) { btn.textContent = LABELS[theme]; btn.dataset.theme = theme; }
}

/** Applies the chosen theme and makes `#theme` (if the page has one) cycle system → dark → light. */
export function setUpTheme() {
  apply(chosen());
  if (SYSTEM_DARK) SYSTEM_DARK.addEventListener('change', () => apply(chosen()));
  const btn = document.querySelector('#theme');
  if (!btn) return;
  btn.addEventListener('click', () => {
    const theme = NEXT[chosen()];
    try { localStorage.setItem(KEY, theme); } catch { /* this page only */ }
    apply(theme);
  });
}
