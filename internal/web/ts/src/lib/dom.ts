// What every page script shares that is not the board: the elements by
// id, the data-* attributes' JSON, the page's texts (the catalog's, with
// their plural forms) and the JSON posted to the server.

/** $ is the element of id, which the page's template always has. */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

/** maybe is the element of id, or null where the page leaves it out. */
export function maybe<T extends HTMLElement = HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

/** el makes an element of tag with its class and text. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** parseJSON reads the JSON of a data-* attribute (web's {{json v}}): dflt where s is empty or not JSON. */
export function parseJSON<T>(s: string | undefined | null, dflt: T): T {
  if (!s) return dflt;
  try { return JSON.parse(s) as T; } catch { return dflt; }
}

/** format fills a catalog text's verbs (%s, %d, %[2]s, %%) with args. */
export function format(s: string, args: readonly unknown[]): string {
  let k = 0;
  return String(s).replace(/%(?:\[(\d+)\])?([sdv%])/g, (_all, idx: string | undefined, verb: string) => {
    if (verb === '%') return '%';
    const v = idx ? args[+idx - 1] : args[k++];
    return v === undefined ? '' : String(v);
  });
}

/**
 * who writes a person's name as pages show it: a guest's ("Guest-" and 16
 * hex digits, his identity) by the number of its first four digits in the
 * page's words (guestName, "Guest %d"); an account's as it is
 * (game.GuestNumber on the server).
 */
export function who(name: string, guestName: string): string {
  const m = /^Guest-([0-9a-f]{4})[0-9a-f]{12}$/.exec(name);
  return m && guestName ? format(guestName, [parseInt(m[1], 16)]) : name;
}

/** A catalog text, or its plural forms (CLDR categories → text). */
export type Text = string | Record<string, string>;
export type Texts = Record<string, Text>;
export type TFunc = (key: string, ...args: unknown[]) => string;
export type NFunc = (key: string, n: number, ...args: unknown[]) => string;

/**
 * translator returns T and N over texts, in the page's language (<html lang>).
 * T(key, ...args) is key's text formatted, the "other" form of a plural one;
 * N(key, n, ...args) is the form that n takes (the browser's CLDR rules),
 * formatted. missing(key), where given, is the text of a key texts lacks
 * (undefined: none); a key with no text shows as itself.
 */
export function translator(texts: Texts, missing?: (key: string) => string | undefined): { T: TFunc; N: NFunc } {
  const lang = document.documentElement.lang || 'en';
  let plurals: Intl.PluralRules | null = null;
  try { plurals = new Intl.PluralRules(lang); } catch { plurals = null; }
  const T: TFunc = (key, ...args) => {
    let s: Text | undefined = texts[key];
    if (s === undefined && missing) s = missing(key);
    if (s === undefined) return key;
    if (typeof s === 'object') s = s.other || Object.values(s)[0] || '';
    return format(s, args);
  };
  const N: NFunc = (key, n, ...args) => {
    const s = texts[key];
    if (!s || typeof s !== 'object') return T(key, ...args);
    const form = plurals ? plurals.select(n) : 'other';
    return format(s[form] || s.other || s.many || s.one || '', args);
  };
  return { T, N };
}

/** An error the server answered, with its status and code. */
export class HTTPError extends Error {
  status: number;
  code?: string;
  constructor(message: string, status: number, code?: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * statusOf is the HTTP status of an error the server answered (0: none).
 * It reads the field, not the class: engine-client.js is a bundle of its
 * own, whose HTTPError is not the importing page's.
 */
export function statusOf(err: unknown): number {
  const s = err instanceof Error ? (err as Partial<HTTPError>).status : undefined;
  return typeof s === 'number' ? s : 0;
}

interface ErrorBody { error?: { message?: string; code?: string } }

/**
 * postJSON posts body as JSON to url and returns the JSON answer; an answer
 * that is not 2xx throws an HTTPError with the server's message
 * (docs/api.md's {"error": {"message"}}), else its status.
 */
export async function postJSON<T>(url: string, body: unknown, init: RequestInit = {}): Promise<T> {
  const r = await fetch(url, { ...init, method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const j = (await r.json().catch(() => ({}))) as T & ErrorBody;
  if (!r.ok) throw new HTTPError(j.error?.message || String(r.status), r.status, j.error?.code);
  return j;
}

/** typing says whether a key event is meant for a form control. */
export function typing(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  return t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable;
}

/** errorText is what an error says. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
