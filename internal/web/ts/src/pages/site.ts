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
// The notices (internal/notifications): the header's unread count kept
// live over a small websocket, each new notice shown for a moment, and
// on /settings this device's Web Push subscription.
interface Notice { id: number; kind: string; text: string; url?: string; read: boolean }
interface NoticeMsg { type: string; unread: number; notice?: Notice }

function setCount(el: HTMLElement, n: number): void {
  el.textContent = n >= 100 ? '99+' : String(n);
  el.hidden = n === 0;
}

function toast(text: string, url?: string): void {
  let box = document.getElementById('notify-toast');
  if (!box) {
    box = document.createElement('div');
    box.id = 'notify-toast';
    box.className = 'notify-toast';
    box.setAttribute('role', 'status');
    document.body.appendChild(box);
  }
  box.textContent = '';
  if (url) {
    const a = document.createElement('a');
    a.href = url;
    a.textContent = text;
    box.appendChild(a);
  } else {
    box.textContent = text;
  }
  box.hidden = false;
  const shown = box;
  window.setTimeout(() => { if (shown.textContent === text) shown.hidden = true; }, 8000);
}

function addToList(n: Notice): void {
  const list = document.getElementById('notices');
  const section = document.getElementById('notify-list');
  if (!section || section.dataset.page !== '1') return;
  let ul = list;
  if (!ul) {
    ul = document.createElement('ul');
    ul.id = 'notices';
    ul.className = 'notices';
    document.getElementById('notices-none')?.replaceWith(ul);
  }
  const li = document.createElement('li');
  li.className = 'notice unread';
  li.id = 'notice-' + n.id;
  li.dataset.kind = n.kind;
  const t = document.createElement(n.url ? 'a' : 'span');
  t.className = 'notice-text';
  t.textContent = n.text;
  if (n.url && t instanceof HTMLAnchorElement) t.href = n.url;
  li.appendChild(t);
  ul.prepend(li);
}

function connectNotices(count: HTMLElement, delay = 1000): void {
  const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/api/notifications/ws');
  ws.onopen = () => { delay = 1000; };
  ws.onmessage = (ev: MessageEvent) => {
    let m: NoticeMsg;
    try { m = JSON.parse(String(ev.data)) as NoticeMsg; } catch { return; }
    if (typeof m.unread === 'number') setCount(count, m.unread);
    if (m.type === 'notice' && m.notice) {
      toast(m.notice.text, m.notice.url);
      addToList(m.notice);
    }
  };
  ws.onclose = (ev: CloseEvent) => {
    if (ev.code === 1008) return;
    window.setTimeout(() => connectNotices(count, Math.min(delay * 2, 60000)), delay);
  };
}

function b64url(s: string): Uint8Array<ArrayBuffer> {
  const b = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4));
  const out = new Uint8Array(new ArrayBuffer(b.length));
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
  return out;
}

async function subscribePush(btn: HTMLButtonElement, status: HTMLElement): Promise<void> {
  if (await Notification.requestPermission() !== 'granted') {
    status.textContent = btn.dataset.tDenied || '';
    return;
  }
  const reg = await navigator.serviceWorker.ready;
  const kr = await fetch('/api/push/key');
  if (!kr.ok) return;
  const { key } = await kr.json() as { key: string };
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: b64url(key) });
  const r = await fetch('/api/push/subscribe', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(sub.toJSON()) });
  status.textContent = r.ok ? (btn.dataset.tOn || '') : (btn.dataset.tOff || '');
  btn.hidden = r.ok;
}

function wirePush(): void {
  const btn = document.getElementById('push-subscribe') as HTMLButtonElement | null;
  const status = document.getElementById('push-status');
  if (!btn || !status || !('serviceWorker' in navigator) || !('PushManager' in window)) return;
  void navigator.serviceWorker.ready.then((reg) => reg.pushManager.getSubscription()).then((sub) => {
    if (sub && Notification.permission === 'granted') {
      status.textContent = btn.dataset.tOn || '';
      return;
    }
    btn.hidden = false;
    btn.addEventListener('click', () => { void subscribePush(btn, status).catch(() => { status.textContent = btn.dataset.tOff || ''; }); });
  });
}

document.addEventListener('DOMContentLoaded', () => {
  const count = document.getElementById('notify-count');
  if (count && 'WebSocket' in window) connectNotices(count);
  wirePush();
  // A push the service worker received while a page is open.
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.addEventListener('message', (ev: MessageEvent) => {
      const d = ev.data as { type?: string; notice?: { body?: string; url?: string } } | null;
      if (d && d.type === 'push' && d.notice) toast(d.notice.body || '', d.notice.url);
    });
  }
});

// The installable web app: the service worker keeps the site's shell,
// and the engine once an engine page has run, for use with no network.
if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => { navigator.serviceWorker.register('/sw.js').catch(() => {}); });
}

export {};
