// An order's chain as a timeline: each stage in the chain's order with its state, attempt and times.
import { el, hora, lineaDeTiempo } from './dom.js';

export const ETAPAS = ['FACTURACION', 'INVENTARIO', 'DESPACHO'];
/** The stage states after which the stage does not move unless retried: their time is when they were reached. */
const TERMINALES = ['COMPLETADA', 'RECHAZADA', 'ESCALADA'];

/**
 * {@code cadena} as GET /v1/pedidos/{id} answers it; the Bandeja's (GET /v1/bandeja/{id}/cadena) adds each stage's
 * deadline, its escalation's publication and the Monitor's signals, shown when present.
 */
export function vistaCadena(cadena) {
  if (!cadena) return el('p', { class: 'ayuda cadena', dataset: { estado: 'SIN_INICIAR' } }, 'La cadena aún no ha empezado.');
  const etapas = new Map(cadena.etapas.map((e) => [e.etapa, e]));
  return el('div', { class: 'cadena', dataset: { estado: cadena.estado } },
    el('p', {}, 'Cadena ', el('strong', { class: 'estado-cadena' }, cadena.estado), ` · iniciada ${hora(cadena.iniciada_en)}`,
      cadena.terminada_en ? ` · terminada ${hora(cadena.terminada_en)}` : ''),
    el('ol', { class: 'etapas' }, ETAPAS.map((nombre) => {
      const e = etapas.get(nombre);
      const estado = e ? e.estado : 'PENDIENTE';
      return el('li', { class: `etapa estado-${estado}`, dataset: { etapa: nombre, estado } },
        el('span', { class: 'paso' }, nombre), el('span', { class: 'etiqueta' }, estado),
        e ? el('span', { class: 'cuando' }, `intento ${e.intento}`) : null,
        e && e.plazo && ['EN_CURSO', 'EN_REINTENTO'].includes(e.estado) ? el('span', { class: 'cuando plazo' }, `plazo ${hora(e.plazo)}`) : null);
    })),
    lineaDeTiempo([
      { nombre: 'cadena iniciada', en: cadena.iniciada_en },
      ...cadena.etapas.flatMap((e) => [
        e.en_curso_desde ? { nombre: `${e.etapa} en curso`, en: e.en_curso_desde } : null,
        e.reintento_desde ? { nombre: `${e.etapa} reintento`, en: e.reintento_desde } : null,
        ...(e.senales || []).map((x) => ({ nombre: `${e.etapa} señal (intento ${x.intento})`, en: x.senalada_en, nota: x.motivo })),
        e.escalada_publicada_en ? { nombre: `${e.etapa} escalada publicada`, en: e.escalada_publicada_en } : null,
        TERMINALES.includes(e.estado) ? { nombre: `${e.etapa} ${e.estado}`, en: e.actualizada_en } : null,
      ].filter(Boolean)),
      { nombre: cadena.terminada_en ? `cadena ${cadena.estado}` : 'cadena terminada', en: cadena.terminada_en },
    ]));
}

export function comprobantes(pedido) {
  return el('p', { class: 'comprobantes' },
    pedido.factura ? el('span', { class: 'factura' }, `Factura: ${pedido.factura.unidades} unidades (${hora(pedido.factura.emitida_en)})`) : 'Sin factura aún',
    pedido.nota_credito ? el('span', { class: 'nota-credito' }, ` · Nota crédito: ${pedido.nota_credito.motivo} (${hora(pedido.nota_credito.emitida_en)})`) : null);
}
