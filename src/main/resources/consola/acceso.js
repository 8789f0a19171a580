// Signing in. Production: the configured OIDC issuer, authorization code + PKCE (the console is a public client; the
// code verifier never leaves this tab). Development (only where the gateway offers it): pick a demo actor, and the
// development issuer mints its token.
import { el } from './dom.js';
import { guardarSesion, llamar } from './api.js';

const PKCE = 'ccp.consola.pkce';

function aleatorio(bytes) {
  const b = crypto.getRandomValues(new Uint8Array(bytes));
  return base64url(b);
}

function base64url(bytes) {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function descubrir(oidc) {
  const respuesta = await fetch(`${oidc.issuer}/.well-known/openid-configuration`);
  if (!respuesta.ok) throw new Error(`the issuer ${oidc.issuer} answered ${respuesta.status}`);
  return respuesta.json();
}

async function iniciarOidc(oidc) {
  const metadatos = await descubrir(oidc);
  const verificador = aleatorio(32);
  const estado = aleatorio(16);
  const reto = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verificador))));
  sessionStorage.setItem(PKCE, JSON.stringify({ verificador, estado }));
  const url = new URL(metadatos.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code', client_id: oidc.client_id, redirect_uri: redireccion(), scope: 'openid',
    state: estado, code_challenge: reto, code_challenge_method: 'S256',
  }).toString();
  location.assign(url.toString());
}

function redireccion() {
  return `${location.origin}/consola/`;
}

/** Back from the issuer with ?code=&state=: the code for a token, checked against this tab's state and verifier. */
export async function completarOidc(config) {
  const parametros = new URLSearchParams(location.search);
  if (!config.oidc || !parametros.has('code')) return null;
  const guardado = JSON.parse(sessionStorage.getItem(PKCE) || 'null');
  sessionStorage.removeItem(PKCE);
  history.replaceState(null, '', '/consola/' + location.hash);
  if (!guardado || guardado.estado !== parametros.get('state')) throw new Error('the sign-in answer does not match this tab (state)');
  const metadatos = await descubrir(config.oidc);
  const respuesta = await fetch(metadatos.token_endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code', code: parametros.get('code'), redirect_uri: redireccion(),
      client_id: config.oidc.client_id, code_verifier: guardado.verificador,
    }),
  });
  const cuerpo = await respuesta.json();
  if (!respuesta.ok) throw new Error(cuerpo.error_description || cuerpo.error || `token endpoint answered ${respuesta.status}`);
  return guardarSesion(cuerpo.access_token, cuerpo.id_token);
}

/**
 * Signing out of an OIDC sign-in ends the person's session at the issuer too (RP-initiated logout at its
 * end_session_endpoint, the ID token as the hint, so it asks no confirmation): otherwise the next "Entrar" on this
 * browser signs the same person in again without a password. Returns false when the issuer has no such endpoint.
 */
export async function salirOidc(oidc, idToken) {
  const metadatos = await descubrir(oidc);
  if (!metadatos.end_session_endpoint) return false;
  const url = new URL(metadatos.end_session_endpoint);
  url.search = new URLSearchParams({
    client_id: oidc.client_id, id_token_hint: idToken, post_logout_redirect_uri: redireccion(),
  }).toString();
  location.assign(url.toString());
  return true;
}

export async function pantallaAcceso(vista, config, alEntrar) {
  const partes = [el('h1', {}, 'Entrar a la consola')];
  if (config.oidc) {
    partes.push(el('section', { class: 'tarjeta' },
      el('p', {}, `Con su cuenta de ${new URL(config.oidc.issuer).host}.`),
      el('button', { type: 'button', id: 'entrar-oidc', onclick: () => iniciarOidc(config.oidc) }, 'Entrar')));
  }
  if (config.desarrollo) {
    const { actores } = await llamar('GET', '/consola/desarrollo/actores');
    const campo = el('input', { id: 'actor-desarrollo', name: 'actor', autocomplete: 'off', required: true, placeholder: 'id del actor' });
    const entrar = async (actor) => {
      const { token } = await llamar('POST', '/consola/desarrollo/sesion', { actor });
      alEntrar(guardarSesion(token));
    };
    partes.push(el('section', { class: 'tarjeta' },
      el('h2', {}, 'Desarrollo'),
      el('p', { class: 'ayuda' }, 'El emisor de desarrollo firma un token para el actor que elija (solo en un portátil).'),
      el('div', { class: 'demo' }, actores.map((a) => el('button', {
        type: 'button', class: 'actor-demo secundario', dataset: { actor: a.actor }, onclick: () => entrar(a.actor),
      }, `${a.actor} · ${a.perfil}`))),
      el('form', { class: 'fila', onsubmit: (e) => { e.preventDefault(); entrar(campo.value.trim()); } },
        el('label', { for: 'actor-desarrollo' }, 'Otro actor'), campo,
        el('button', { type: 'submit', id: 'entrar-desarrollo' }, 'Entrar'))));
  }
  if (!config.oidc && !config.desarrollo) {
    partes.push(el('p', { class: 'error' }, 'No hay forma de entrar configurada: consola.oidc.issuer está vacío.'));
  }
  vista.replaceChildren(...partes);
}
