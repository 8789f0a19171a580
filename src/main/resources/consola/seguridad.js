// Seguridad (profile SEGURIDAD): the live alerts feed, an alert's timeline, who is revoked or blocked with the steps of
// their reactions, lifting a revocation (audited by the system: who, when, why), and registering a vendedor's device.
import { el, fechaHora, hora, lineaDeTiempo, reconciliar } from './dom.js';
import { seguir } from './api.js';

export function paginaSeguridad(vista, { llamar, mostrarError, limpiarError }) {
  const alertas = new Map();
  const lista = el('ul', { id: 'alertas', class: 'lista' });
  const detalle = el('section', { id: 'detalle-alerta', class: 'tarjeta' }, el('p', { class: 'ayuda' }, 'Elija una alerta para ver su línea de tiempo.'));
  const detenidos = el('div', { id: 'detenidos' });
  const tarjetasDetenidos = new Map();

  const vendedor = el('input', { id: 'dispositivo-vendedor', required: true, placeholder: 'vendedor-1', autocomplete: 'off' });
  const huella = el('input', { id: 'dispositivo-huella', required: true, placeholder: 'huella del nuevo dispositivo', autocomplete: 'off' });
  const resultado = el('p', { id: 'dispositivo-resultado', class: 'ayuda' });

  vista.replaceChildren(
    el('h1', {}, 'Seguridad'),
    el('div', { class: 'columnas' },
      el('section', { class: 'tarjeta' }, el('h2', {}, 'Alertas ', el('span', { class: 'en-vivo', id: 'estado-flujo' }, 'conectando…')), lista),
      detalle),
    el('section', { class: 'tarjeta' }, el('h2', {}, 'Actores revocados y bloqueados'), detenidos),
    el('section', { class: 'tarjeta' }, el('h2', {}, 'Registrar el nuevo dispositivo de un vendedor'),
      el('form', {
        class: 'fila', onsubmit: async (e) => {
          e.preventDefault();
          limpiarError();
          try {
            const r = await llamar('PUT', `/v1/dispositivos/${encodeURIComponent(vendedor.value.trim())}`, { huella: huella.value.trim() });
            resultado.textContent = `Registrado: ${r.vendedor} con ${r.huella} (${fechaHora(r.registrado_en)})`;
          } catch (err) {
            mostrarError(err);
          }
        },
      }, el('label', { for: 'dispositivo-vendedor' }, 'Vendedor'), vendedor,
      el('label', { for: 'dispositivo-huella' }, 'Huella'), huella,
      el('button', { type: 'submit', id: 'registrar-dispositivo' }, 'Registrar')), resultado));

  function fila(a) {
    return el('li', {
      class: `alerta tipo-${a.tipo}`, dataset: { idAlerta: a.id_alerta, actor: a.actor, tipo: a.tipo }, tabindex: 0,
      onclick: () => mostrarDetalle(a.id_alerta),
    }, el('span', { class: 'etiqueta' }, a.tipo.replace(/_/g, ' ')), el('strong', {}, a.actor), el('span', { class: 'cuando' }, hora(a.recibido_en)));
  }

  function agregar(a, alPrincipio) {
    if (alertas.has(a.id_alerta)) return;
    alertas.set(a.id_alerta, a);
    if (alPrincipio) lista.prepend(fila(a)); else lista.append(fila(a));
  }

  /**
   * Every time the system gives for the alert, in order: t0 (the session, or the improper write), its detection, each
   * step of its reaction as it stands now (GET /v1/alertas gives it with the alert), the area notified, each SET delivered.
   */
  function pasosDe(a) {
    const d = a.detalle || {};
    const x = a.reaccion;
    const pasos = [];
    if (a.t0) pasos.push({ nombre: 't0', en: a.t0, nota: 'sesión abierta' });
    else if (x && x.t_escritura) pasos.push({ nombre: 't0', en: x.t_escritura, nota: `escritura en ${d.servicio}` });
    if (d.detectada_en) pasos.push({ nombre: 'detección', en: d.detectada_en, nota: a.tipo === 'DISPOSITIVO_NO_VALIDO' ? 'Verificador' : null });
    else if (x) pasos.push({ nombre: 'detección', en: x.t_det, nota: 'Detector' });
    if (d.sin_verificar_desde) pasos.push({ nombre: 'sin verificar desde', en: d.sin_verificar_desde });
    if (a.tipo === 'SENAL_RECIBIDA') pasos.push({ nombre: 'señal recibida', en: d.recibido_en, nota: d.tipo_evento });
    if (x) {
      // A step with no time is still to come, unless the reaction ended without it (lifted, or recorded before its time was kept).
      const pasoDe = (nombre, en) => (en || !x.terminada_en ? { nombre, en } : null);
      pasos.push(pasoDe('reacción abierta', x.abierta_en), pasoDe('revocado', x.revocada_en), pasoDe('bloqueado', x.bloqueada_en),
        pasoDe('compensado', x.compensada_en), { nombre: `reacción ${x.terminada_en ? x.paso.toLowerCase() : 'terminada'}`, en: x.terminada_en });
    }
    pasos.push({ nombre: 'notificada al área', en: a.recibido_en });
    for (const e of a.entregas || []) {
      pasos.push({
        nombre: `entrega SET ${e.stream_id}`, en: e.entregada_en,
        nota: e.rechazada_en ? `rechazada: ${e.ultimo_error}` : `${e.intentos} intento(s)${e.ultimo_error ? ` · ${e.ultimo_error}` : ''}`,
      });
    }
    return pasos.filter(Boolean);
  }

  function pintarDetalle(a) {
    const d = a.detalle || {};
    detalle.replaceChildren(el('h2', {}, `${a.tipo.replace(/_/g, ' ')} · ${a.actor}`),
      el('p', { class: 'ayuda' }, d.reaccion || d.huella_presentada && `dispositivo presentado: ${d.huella_presentada}` || ''),
      lineaDeTiempo(pasosDe(a)));
    detalle.dataset.idAlerta = a.id_alerta;
  }

  /** Shows the alert as it arrived, then as the system has it now: its reaction may have moved on since. */
  async function mostrarDetalle(id) {
    const a = alertas.get(id);
    pintarDetalle(a);
    try {
      const { alertas: delActor } = await llamar('GET', `/v1/alertas?actor=${encodeURIComponent(a.actor)}&limit=500`);
      const ahora = delActor.find((x) => x.id_alerta === id);
      if (!ahora) return;
      alertas.set(id, ahora);
      if (detalle.dataset.idAlerta === id) pintarDetalle(ahora);
    } catch (err) {
      mostrarError(err);
    }
  }

  async function cargarDetenidos() {
    let revocaciones;
    try {
      revocaciones = (await llamar('GET', '/v1/revocaciones')).detenidos;
    } catch (err) {
      mostrarError(err);
      return;
    }
    if (revocaciones.length === 0) {
      tarjetasDetenidos.clear();
      detenidos.replaceChildren(el('p', { class: 'ayuda' }, 'Nadie revocado ni bloqueado.'));
      return;
    }
    reconciliar(detenidos, tarjetasDetenidos, revocaciones, (r) => r.actor, (r) => {
      const motivo = el('input', { class: 'motivo-levantamiento', placeholder: 'motivo', required: true, autocomplete: 'off' });
      return el('article', { class: 'detenido', dataset: { actor: r.actor } },
        el('h3', {}, r.actor, ' ', r.revocado ? el('span', { class: 'etiqueta roja' }, 'revocado') : null,
          r.bloqueado ? el('span', { class: 'etiqueta roja' }, 'bloqueado') : null),
        el('p', { class: 'ayuda' }, r.motivo || '', r.revocado_en ? ` · desde ${fechaHora(r.revocado_en)}` : '',
          r.revocado ? ` · ${r.vence_en ? `vence ${fechaHora(r.vence_en)}` : 'hasta terminar su reacción'}` : ''),
        r.reacciones.map((x) => el('div', { class: 'reaccion', dataset: { paso: x.paso } },
          el('p', {}, `Escritura ${x.id_escritura.slice(0, 8)} en ${x.servicio} (pedido ${x.pedido.slice(0, 8)}): `, el('strong', { class: 'paso-actual' }, x.paso),
            x.intentos ? ` · ${x.intentos} intento(s) fallidos: ${x.ultimo_error}` : ''),
          x.compensacion ? el('p', { class: 'ayuda compensacion' }, `Compensación: ${JSON.stringify(x.compensacion)}`) : null,
          lineaDeTiempo([
            x.t_escritura ? { nombre: 'escrita', en: x.t_escritura } : null,
            { nombre: 'detectada', en: x.t_det }, { nombre: 'abierta', en: x.abierta_en }, { nombre: 'revocada', en: x.revocada_en },
            x.bloqueada_en || !x.terminada_en ? { nombre: 'bloqueada', en: x.bloqueada_en } : null,
            x.compensada_en || !x.terminada_en ? { nombre: 'compensada', en: x.compensada_en } : null,
            { nombre: 'terminada', en: x.terminada_en, nota: x.terminada_en ? x.paso : null },
          ].filter(Boolean)))),
        r.revocado ? el('form', {
          class: 'fila', onsubmit: async (e) => {
            e.preventDefault();
            limpiarError();
            try {
              await llamar('POST', `/v1/revocaciones/${encodeURIComponent(r.actor)}/levantamiento`, { motivo: motivo.value.trim() });
              await cargarDetenidos();
            } catch (err) {
              mostrarError(err);
            }
          },
        }, motivo, el('button', { type: 'submit', class: 'levantar' }, 'Levantar revocación')) : null);
    });
  }

  const estado = vista.querySelector('#estado-flujo');
  const parar = seguir('/v1/alertas/flujo', (nombre, datos) => {
    estado.textContent = 'en vivo';
    if (nombre === 'alerta') agregar(datos, true);
    if (nombre === 'revocaciones') cargarDetenidos();
  }, (err) => {
    estado.textContent = 'cortado';
    mostrarError(err);
  });
  llamar('GET', '/v1/alertas?limit=50').then(({ alertas: leidas }) => leidas.forEach((a) => agregar(a, false))).catch(mostrarError);
  return parar;
}
