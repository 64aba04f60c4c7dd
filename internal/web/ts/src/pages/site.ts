// Every page's script, loaded in <head> before the first paint: the colour
// scheme is set on <html> at once (no flash of the wrong one), then the
// header's controls are wired once the page is parsed.

const html = document.documentElement;
html.classList.add('js'); // style.css folds the phone's menu only where a script can open it
const key = 'toguz-theme';
const stored = (): string => { try { return localStorage.getItem(key) || 'auto'; } catch { return 'auto'; } };
// "auto" follows the system (prefers-color-scheme in style.css); "light"
// and "dark" override it.
const apply = (t: string): void => { if (t === 'light' || t === 'dark') html.dataset.theme = t; else delete html.dataset.theme; };
apply(stored());

document.addEventListener('DOMContentLoaded', () => {
  // On a phone the header's links fold behind a menu button.
  const toggle = document.getElementById('nav-toggle');
  const links = document.getElementById('nav-links');
  if (toggle && links) {
    toggle.addEventListener('click', () => {
      const open = links.classList.toggle('open');
      toggle.setAttribute('aria-expanded', String(open));
    });
  }
  const box = document.getElementById('theme');
  const sel = document.getElementById('theme-select') as HTMLSelectElement | null;
  if (box && sel) {
    sel.value = stored();
    box.hidden = false;
    sel.addEventListener('change', () => {
      try { localStorage.setItem(key, sel.value); } catch { /* private mode: this page only */ }
      apply(sel.value);
    });
  }
  // The language switcher is a form that works without JavaScript; with
  // it, choosing a language is enough.
  const langs = document.getElementById('langs') as HTMLFormElement | null;
  if (langs) {
    const btn = document.getElementById('lang-submit');
    if (btn) btn.hidden = true;
    (langs.elements.namedItem('lang') as HTMLSelectElement).addEventListener('change', () => langs.submit());
  }
  // A ruleset select shows the description of the chosen ruleset.
  for (const s of document.querySelectorAll<HTMLSelectElement>('select.ruleset-select')) {
    const label = s.closest('label');
    const help = label && label.nextElementSibling;
    s.addEventListener('change', () => {
      const o = s.options[s.selectedIndex];
      if (help && help.classList.contains('ruleset-help') && o) help.textContent = o.dataset.help || '';
    });
  }
});
// The installable web app: the service worker keeps the site's shell,
// and the engine once an engine page has run, for use with no network.
if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => { navigator.serviceWorker.register('/sw.js').catch(() => {}); });
}

export {};
