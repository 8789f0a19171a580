// The console's shell: sign-in, the pages each profile may use, and one page at a time (#/seguridad, #/bandeja,
// #/pedidos, #/asr). Each page returns a function that stops its streams and timers when another page is shown.
import { el } from './dom.js';
import { cerrarSesion, llamar, sesion } from './api.js';
import { completarOidc, pantallaAcceso, salirOidc } from './acceso.js';
import { paginaSeguridad } from './seguridad.js';
import { paginaBandeja } from './bandeja.js';
import { paginaPedidos } from './pedidos.js';
import { paginaAsr } from './asr.js';

const PAGINAS = {
  seguridad: { titulo: 'Seguridad', perfiles: ['SEGURIDAD'], montar: paginaSeguridad },
  bandeja: { titulo: 'Bandeja', perfiles: ['OPERADOR'], montar: paginaBandeja },
  pedidos: { titulo: 'Mis pedidos', perfiles: ['VENDEDOR'], montar: paginaPedidos },
  asr: { titulo: 'ASR', perfiles: ['VENDEDOR', 'CONSULTA', 'SEGURIDAD', 'OPERADOR'], montar: paginaAsr },
};

const vista = document.getElementById('vista');
const menu = document.getElementById('menu');
const error = document.getElementById('error');
let detener = () => {};

/** What a refusal means for the person, in their words; the system's own message and code follow it. */
const EXPLICACIONES = {
  actor_revoked: 'Su acceso está revocado: el área de seguridad detectó una acción indebida y lo revisa.',
  actor_blocked: 'Su cuenta está bloqueada en el Gestor.',
  unknown_actor: 'Su usuario no está registrado en el Gestor.',
  perfil_mismatch: 'Su perfil en el Gestor no es el de su token: vuelva a entrar.',
  unauthorized: 'Su sesión no es válida o venció: salga y vuelva a entrar.',
  forbidden: 'Su perfil no permite esta acción.',
};

export function mostrarError(e) {
  const explicacion = e.codigo && EXPLICACIONES[e.codigo];
  const tecnico = e.codigo ? `${e.message} (${e.codigo})` : e.message;
  error.textContent = explicacion ? `${explicacion} — ${tecnico}` : tecnico;
  error.dataset.codigo = e.codigo || '';
  error.hidden = false;
}

function limpiarError() {
  error.hidden = true;
  error.textContent = '';
}

window.addEventListener('unhandledrejection', (evento) => {
  evento.preventDefault();
  mostrarError(evento.reason);
});

function paginasDe(s) {
  return Object.entries(PAGINAS).filter(([, p]) => p.perfiles.includes(s.perfil));
}

function mostrar() {
  detener();
  detener = () => {};
  limpiarError();
  const s = sesion();
  if (!s) return;
  const propias = paginasDe(s);
  const nombre = location.hash.replace('#/', '');
  const actual = propias.find(([n]) => n === nombre) || propias[0];
  if (`#/${actual[0]}` !== location.hash) {
    history.replaceState(null, '', `#/${actual[0]}`);
  }
  menu.replaceChildren(...propias.map(([n, p]) => el('a', { href: `#/${n}`, 'aria-current': n === actual[0] ? 'page' : null }, p.titulo)));
  document.title = `${actual[1].titulo} · Consola CCP`;
  detener = actual[1].montar(vista, { sesion: s, mostrarError, limpiarError, llamar });
}

async function iniciar() {
  const config = await llamar('GET', '/consola/config.json');
  await completarOidc(config);
  const s = sesion();
  const salir = document.getElementById('salir');
  if (!s) {
    menu.replaceChildren();
    salir.hidden = true;
    document.getElementById('quien').textContent = '';
    await pantallaAcceso(vista, config, () => location.reload());
    return;
  }
  document.getElementById('quien').textContent = `${s.actor} · ${s.perfil}`;
  salir.hidden = false;
  salir.onclick = async () => {
    detener();
    cerrarSesion();
    if (config.oidc && s.id_token && await salirOidc(config.oidc, s.id_token)) return;
    location.hash = '';
    location.reload();
  };
  window.addEventListener('hashchange', mostrar);
  mostrar();
}

iniciar().catch(mostrarError);
