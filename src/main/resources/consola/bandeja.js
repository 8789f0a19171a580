// Bandeja (profile OPERADOR): the open items, filtered by type, stage and age; an item's order chain as a timeline;
// close with a reason; retry an escalated stage. A retried item stays in sight, waiting, until its stage comes back and
// the system closes it. The list follows the system's stream of the Bandeja's changes.
import { el, fechaHora, reconciliar } from './dom.js';
import { seguir } from './api.js';
import { ETAPAS, comprobantes, vistaCadena } from './cadena.js';

const EDADES = { todas: 0, '1 min': 60e3, '10 min': 600e3, '1 h': 3600e3 };

export function paginaBandeja(vista, { llamar, mostrarError, limpiarError }) {
  let items = [];
  const tarjetas = new Map();
  const tipo = el('select', { id: 'filtro-tipo' }, ['todos', 'ESCALADA', 'FALLIDO'].map((t) => el('option', { value: t }, t)));
  const etapa = el('select', { id: 'filtro-etapa' }, ['todas', ...ETAPAS].map((t) => el('option', { value: t }, t)));
  const edad = el('select', { id: 'filtro-edad' }, Object.keys(EDADES).map((t) => el('option', { value: t }, t === 'todas' ? 'cualquier edad' : `más de ${t}`)));
  const lista = el('div', { id: 'bandeja' });
  const cuenta = el('span', { id: 'abiertos', class: 'etiqueta' });
  const detalle = el('section', { id: 'detalle-item', class: 'tarjeta', hidden: true });

  vista.replaceChildren(el('h1', {}, 'Bandeja de pedidos escalados ', cuenta),
    el('div', { class: 'fila filtros' }, el('label', {}, 'Tipo ', tipo), el('label', {}, 'Etapa ', etapa), el('label', {}, 'Edad ', edad)),
    el('div', { class: 'columnas' }, lista, detalle));
  for (const s of [tipo, etapa, edad]) s.addEventListener('change', pintar);

  function visibles() {
    const ahora = Date.now();
    return items.filter((i) => (tipo.value === 'todos' || i.tipo === tipo.value)
      && (etapa.value === 'todas' || i.etapa === etapa.value)
      && ahora - Date.parse(i.abierta_en) >= EDADES[edad.value]);
  }

  function pintar() {
    const esperando = items.filter((i) => i.estado === 'REINTENTADO').length;
    cuenta.textContent = `${items.length - esperando} abiertos${esperando ? ` · ${esperando} reintentados` : ''}`;
    const mostrados = visibles();
    if (mostrados.length === 0) {
      tarjetas.clear();
      lista.replaceChildren(el('p', { class: 'ayuda' }, 'Nada abierto con estos filtros.'));
    } else {
      reconciliar(lista, tarjetas, mostrados, (i) => i.id, tarjeta);
    }
  }

  function tarjeta(i) {
    const motivo = el('input', { class: 'motivo-cierre', placeholder: 'motivo del cierre', required: true, autocomplete: 'off' });
    const d = i.detalle || {};
    const reintentado = i.estado === 'REINTENTADO';
    return el('article', { class: `tarjeta item estado-${i.estado}`, dataset: { item: i.id, tipo: i.tipo, etapa: i.etapa || '', pedido: i.pedido || '', estado: i.estado } },
      el('h3', {}, el('span', { class: 'etiqueta' }, i.tipo), ' ', i.etapa || '', ' ', i.pedido ? `pedido ${i.pedido.slice(0, 8)}` : '',
        reintentado ? el('span', { class: 'etiqueta' }, 'REINTENTADO') : null),
      el('p', { class: 'ayuda' }, `abierto ${fechaHora(i.abierta_en)}`, d.motivo ? ` · ${d.motivo}` : '',
        reintentado ? ` · ${i.cierre} ${fechaHora(i.cerrada_en)}: se cierra solo cuando la etapa confirme` : ''),
      el('div', { class: 'fila' },
        i.pedido ? el('button', { type: 'button', class: 'secundario ver-cadena', onclick: () => verCadena(i) }, 'Ver cadena') : null,
        i.tipo === 'ESCALADA' && !reintentado ? el('button', { type: 'button', class: 'reintentar', onclick: () => accion(() => llamar('POST', `/v1/bandeja/${i.id}/reintento`)) }, 'Reintentar') : null),
      el('form', { class: 'fila', onsubmit: (e) => { e.preventDefault(); accion(() => llamar('POST', `/v1/bandeja/${i.id}/cierre`, { motivo: motivo.value.trim() })); } },
        motivo, el('button', { type: 'submit', class: 'cerrar secundario' }, 'Cerrar')));
  }

  async function accion(hacer) {
    limpiarError();
    try {
      await hacer();
      await cargar();
    } catch (err) {
      mostrarError(err);
    }
  }

  async function verCadena(i) {
    try {
      const [pedido, cadena] = await Promise.all([llamar('GET', `/v1/pedidos/${i.pedido}`), llamar('GET', `/v1/bandeja/${i.id}/cadena`)]);
      detalle.hidden = false;
      detalle.replaceChildren(el('h2', {}, `Pedido ${i.pedido.slice(0, 8)} · ${pedido.tendero}`), vistaCadena(cadena), comprobantes(pedido),
        el('pre', { class: 'detalle' }, JSON.stringify(i.detalle, null, 2)));
    } catch (err) {
      mostrarError(err);
    }
  }

  async function cargar() {
    try {
      const [abiertos, reintentados] = await Promise.all(['ABIERTO', 'REINTENTADO'].map((e) => llamar('GET', `/v1/bandeja?estado=${e}`)));
      items = [...abiertos.items, ...reintentados.items];
      pintar();
    } catch (err) {
      mostrarError(err);
    }
  }

  const parar = seguir('/v1/bandeja/flujo', () => cargar(), mostrarError);
  // Age filters move with the clock, not only with the stream.
  const reloj = setInterval(pintar, 15000);
  return () => {
    parar();
    clearInterval(reloj);
  };
}
