// Passkeys (WebAuthn) in the browser: registering one on /account/passkeys,
// the password-less "Sign in with a passkey" of /login, and a passkey as
// the second step of a login. The server makes every challenge and checks
// every answer (internal/twofactor); this only carries them between
// navigator.credentials and the JSON API, turning base64url fields into
// bytes and back.

import { maybe } from '../lib/dom';

type JSONObject = Record<string, unknown>;

interface Ceremony {
  challenge: string;
  publicKey: JSONObject;
}

const errBox = maybe('passkey-error');

function showError(text: string): void {
  if (!errBox) return;
  errBox.textContent = text;
  errBox.hidden = !text;
}

function fromB64url(s: string): ArrayBuffer {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out.buffer;
}

function toB64url(buf: ArrayBuffer | null): string | undefined {
  if (!buf) return undefined;
  const bytes = new Uint8Array(buf);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** creationOptions turns the server's JSON options into the browser's. */
function creationOptions(o: JSONObject): PublicKeyCredentialCreationOptions {
  const user = o.user as JSONObject;
  const exclude = (o.excludeCredentials as JSONObject[] | undefined) || [];
  return {
    ...(o as unknown as PublicKeyCredentialCreationOptions),
    challenge: fromB64url(o.challenge as string),
    user: { ...(user as unknown as PublicKeyCredentialUserEntity), id: fromB64url(user.id as string) },
    excludeCredentials: exclude.map((c) => ({ ...(c as unknown as PublicKeyCredentialDescriptor), id: fromB64url(c.id as string) })),
  };
}

function requestOptions(o: JSONObject): PublicKeyCredentialRequestOptions {
  const allow = (o.allowCredentials as JSONObject[] | undefined) || [];
  return {
    ...(o as unknown as PublicKeyCredentialRequestOptions),
    challenge: fromB64url(o.challenge as string),
    allowCredentials: allow.map((c) => ({ ...(c as unknown as PublicKeyCredentialDescriptor), id: fromB64url(c.id as string) })),
  };
}

/** credentialJSON is a credential as the server parses it (WebAuthn's JSON encoding). */
function credentialJSON(c: PublicKeyCredential): JSONObject {
  const r = c.response;
  const response: JSONObject = { clientDataJSON: toB64url(r.clientDataJSON) };
  if (r instanceof AuthenticatorAttestationResponse) {
    response.attestationObject = toB64url(r.attestationObject);
    if (typeof r.getTransports === 'function') response.transports = r.getTransports();
  } else if (r instanceof AuthenticatorAssertionResponse) {
    response.authenticatorData = toB64url(r.authenticatorData);
    response.signature = toB64url(r.signature);
    response.userHandle = toB64url(r.userHandle);
  }
  return {
    id: c.id, rawId: toB64url(c.rawId), type: c.type, response,
    clientExtensionResults: c.getClientExtensionResults(),
    authenticatorAttachment: c.authenticatorAttachment || undefined,
  };
}

/** post sends body as JSON and returns the answer, or throws the server's message. */
async function post<T>(url: string, body: object): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const a = (await res.json().catch(() => ({}))) as JSONObject;
  if (!res.ok) {
    const e = a.error as JSONObject | undefined;
    throw new Error((e && (e.message as string)) || res.statusText);
  }
  return a as T;
}

/** ask runs one ceremony of the browser; null when the user cancelled it. */
async function ask(create: boolean, o: JSONObject): Promise<PublicKeyCredential | null> {
  try {
    const c = create
      ? await navigator.credentials.create({ publicKey: creationOptions(o) })
      : await navigator.credentials.get({ publicKey: requestOptions(o) });
    return c as PublicKeyCredential | null;
  } catch (e) {
    if (e instanceof DOMException && (e.name === 'NotAllowedError' || e.name === 'AbortError' || e.name === 'InvalidStateError')) return null;
    throw e;
  }
}

/** run does one flow, showing its error; busy disables button meanwhile. */
function run(button: HTMLButtonElement, flow: () => Promise<void>): void {
  button.disabled = true;
  showError('');
  flow().catch((e: unknown) => showError(e instanceof Error ? e.message : String(e))).finally(() => { button.disabled = false; });
}

function cancelled(): void {
  showError((errBox && errBox.dataset.cancelled) || '');
}

function supported(): boolean {
  return typeof window.PublicKeyCredential === 'function' && !!navigator.credentials;
}

function reveal(id: string): void {
  const box = maybe(id);
  if (!box) return;
  if (supported()) box.hidden = false;
  else showError((errBox && errBox.dataset.unsupported) || '');
}

/** showCodes shows the recovery codes the first passkey came with, once, in place of form. */
function showCodes(codes: string[], form: HTMLElement): void {
  const list = maybe('recovery-list');
  const box = maybe('recovery-codes');
  if (!list || !box) return;
  for (const c of codes) {
    const li = document.createElement('li');
    const code = document.createElement('code');
    code.textContent = c;
    li.append(code);
    list.append(li);
  }
  form.hidden = true;
  box.hidden = false;
}

// /account/passkeys: add one.
const addForm = maybe<HTMLFormElement>('passkey-add');
if (addForm) {
  reveal('passkey-add');
  addForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const name = (maybe<HTMLInputElement>('passkey-name')?.value || '').trim();
    const password = maybe<HTMLInputElement>('passkey-password')?.value || '';
    run(maybe<HTMLButtonElement>('passkey-add-submit') as HTMLButtonElement, async () => {
      const c = await post<Ceremony>('/api/account/passkeys', { password });
      const cred = await ask(true, c.publicKey);
      if (!cred) return cancelled();
      const a = await post<{ recovery_codes?: string[] }>('/api/account/passkeys/finish', { challenge: c.challenge, name, credential: credentialJSON(cred) });
      if (a.recovery_codes && a.recovery_codes.length) showCodes(a.recovery_codes, addForm);
      else location.reload();
    });
  });
}

// /login: sign in with a passkey, no name, no password.
const loginButton = maybe<HTMLButtonElement>('passkey-login');
if (loginButton) {
  reveal('passkey-login-box');
  loginButton.addEventListener('click', () => run(loginButton, async () => {
    const c = await post<Ceremony>('/api/login/passkey', {});
    const cred = await ask(false, c.publicKey);
    if (!cred) return cancelled();
    await post('/api/login/passkey/finish', { challenge: c.challenge, credential: credentialJSON(cred) });
    location.assign('/');
  }));
}

// The login's second step: the account's passkey.
const secondButton = maybe<HTMLButtonElement>('passkey-second');
if (secondButton) {
  reveal('passkey-second-box');
  const ticket = maybe<HTMLInputElement>('second-ticket')?.value || '';
  secondButton.addEventListener('click', () => run(secondButton, async () => {
    const c = await post<Ceremony>('/api/login/twofactor/passkey', { ticket });
    const cred = await ask(false, c.publicKey);
    if (!cred) return cancelled();
    await post('/api/login/twofactor/passkey/finish', { ticket, challenge: c.challenge, credential: credentialJSON(cred) });
    location.assign('/');
  }));
}
