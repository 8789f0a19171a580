// The console's one way to the system: every call carries the person's token through the gateway's /v1 routes,
// behind the same token and revocation checks as the App. A refusal is shown with the reason the system gave.

const CLAVE_SESION = 'ccp.consola.sesion';

export function sesion() {
  const guardada = sessionStorage.getItem(CLAVE_SESION);
  if (!guardada) return null;
  const s = JSON.parse(guardada);
  if (Date.parse(s.expira_en) <= Date.now()) {
    sessionStorage.removeItem(CLAVE_SESION);
    return null;
  }
  return s;
}

/** The session of this tab; the ID token of an OIDC sign-in is what ends the issuer's session on sign-out. */
export function guardarSesion(token, idToken) {
  const claims = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
  const s = { token, actor: claims.sub, perfil: claims.perfil, expira_en: new Date(claims.exp * 1000).toISOString() };
  if (idToken) s.id_token = idToken;
  sessionStorage.setItem(CLAVE_SESION, JSON.stringify(s));
  return s;
}

export function cerrarSesion() {
  sessionStorage.removeItem(CLAVE_SESION);
}

/** A refusal or failure of the system, with its JSON error body's code and message. */
export class Rechazo extends Error {
  constructor(status, cuerpo) {
    super(cuerpo && cuerpo.message ? cuerpo.message : `HTTP ${status}`);
    this.status = status;
    this.codigo = cuerpo && cuerpo.error;
  }
}

export async function llamar(metodo, ruta, cuerpo, cabeceras = {}) {
  const s = sesion();
  const headers = { Accept: 'application/json', ...cabeceras };
  if (s) headers.Authorization = `Bearer ${s.token}`;
  if (cuerpo !== undefined) headers['Content-Type'] = 'application/json';
  const respuesta = await fetch(ruta, { method: metodo, headers, body: cuerpo === undefined ? undefined : JSON.stringify(cuerpo) });
  const texto = await respuesta.text();
  const json = texto ? JSON.parse(texto) : null;
  if (!respuesta.ok) throw new Rechazo(respuesta.status, json);
  return json;
}

/**
 * Follows an event stream of the system (text/event-stream) with fetch, since EventSource cannot send the token.
 * Reconnects after a drop, waiting longer each time (up to 10 s); a refusal (401/403) is reported and not retried,
 * whether at the door or as the stream's last event (`fin`: its caller was revoked or its token expired while open).
 * Returns a function that stops it.
 */
export function seguir(ruta, alEvento, alRechazo) {
  const control = new AbortController();
  let espera = 500;
  const conectar = async () => {
    while (!control.signal.aborted) {
      try {
        const s = sesion();
        const respuesta = await fetch(ruta, {
          headers: { Accept: 'text/event-stream', Authorization: s ? `Bearer ${s.token}` : '' },
          signal: control.signal,
        });
        if (respuesta.status === 401 || respuesta.status === 403) {
          alRechazo(new Rechazo(respuesta.status, await respuesta.json().catch(() => null)));
          return;
        }
        if (!respuesta.ok) throw new Error(`HTTP ${respuesta.status}`);
        espera = 500;
        let fin = null;
        await leerEventos(respuesta.body, (nombre, datos) => {
          if (nombre === 'fin') fin = datos;
          else alEvento(nombre, datos);
        });
        if (fin && (fin.status === 401 || fin.status === 403)) {
          alRechazo(new Rechazo(fin.status, fin));
          return;
        }
      } catch (e) {
        if (control.signal.aborted) return;
      }
      await new Promise((listo) => setTimeout(listo, espera));
      espera = Math.min(espera * 2, 10000);
    }
  };
  conectar();
  return () => control.abort();
}

async function leerEventos(cuerpo, alEvento) {
  const lector = cuerpo.pipeThrough(new TextDecoderStream()).getReader();
  let pendiente = '';
  for (;;) {
    const { value, done } = await lector.read();
    if (done) return;
    pendiente += value;
    let fin;
    while ((fin = pendiente.indexOf('\n\n')) >= 0) {
      const bloque = pendiente.slice(0, fin);
      pendiente = pendiente.slice(fin + 2);
      let nombre = 'message';
      let datos = '';
      for (const linea of bloque.split('\n')) {
        if (linea.startsWith('event: ')) nombre = linea.slice(7);
        else if (linea.startsWith('data: ')) datos += linea.slice(6);
      }
      if (datos) alEvento(nombre, JSON.parse(datos));
    }
  }
}
