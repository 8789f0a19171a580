// Mis pedidos (profile VENDEDOR): place an order (its Idempotency-Key made here, so a retried click is one order), list
// mine a page at a time, each with its chain's progress per stage, its invoice or credit note, and LISTO — live.
import { el, fechaHora, reconciliar } from './dom.js';
import { seguir } from './api.js';
import { comprobantes, vistaCadena } from './cadena.js';

export function paginaPedidos(vista, { llamar, mostrarError, limpiarError }) {
  const tendero = el('input', { id: 'nuevo-tendero', required: true, value: 'T-1', autocomplete: 'off' });
  const producto = el('input', { id: 'nuevo-producto', required: true, value: 'P-1', autocomplete: 'off' });
  const cantidad = el('input', { id: 'nuevo-cantidad', type: 'number', min: 1, required: true, value: 1 });
  const lista = el('div', { id: 'pedidos' });
  const mas = el('button', { type: 'button', id: 'mas-pedidos', class: 'secundario', hidden: true }, 'Ver más');
  const tarjetas = new Map();
  let paginas = 1;
  let clave = nuevaClave();

  // 128 random bits as hex: getRandomValues works on plain http too (randomUUID needs a secure context).
  function nuevaClave() {
    return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  }

  vista.replaceChildren(el('h1', {}, 'Mis pedidos'),
    el('section', { class: 'tarjeta' }, el('h2', {}, 'Nuevo pedido'),
      el('form', {
        class: 'fila', onsubmit: async (e) => {
          e.preventDefault();
          limpiarError();
          try {
            const cuerpo = { tendero: tendero.value.trim(), lineas: [{ producto: producto.value.trim(), cantidad: Number(cantidad.value) }] };
            await llamar('POST', '/v1/pedidos', cuerpo, { 'Idempotency-Key': clave });
            clave = nuevaClave();
            await cargar();
          } catch (err) {
            mostrarError(err);
          }
        },
      }, el('label', { for: 'nuevo-tendero' }, 'Tendero'), tendero, el('label', { for: 'nuevo-producto' }, 'Producto'), producto,
      el('label', { for: 'nuevo-cantidad' }, 'Cantidad'), cantidad, el('button', { type: 'submit', id: 'crear-pedido' }, 'Pedir'))),
    lista, mas);
  mas.addEventListener('click', () => { paginas += 1; cargar(); });

  function tarjeta(p) {
    const estado = p.situacion;
    return el('article', { class: 'tarjeta pedido', dataset: { pedido: p.pedido, estado } },
      el('h3', {}, `Pedido ${p.pedido.slice(0, 8)} · ${p.tendero} `, el('span', { class: `etiqueta estado-${estado}` }, estado)),
      el('p', { class: 'ayuda' }, `${p.lineas.map((l) => `${l.cantidad} × ${l.producto}`).join(', ')} · ${fechaHora(p.creado_en)}`,
        p.motivo_anulacion ? ` · anulado: ${p.motivo_anulacion}` : ''),
      vistaCadena(p.cadena), comprobantes(p));
  }

  async function cargar() {
    try {
      const todos = [];
      let siguiente = null;
      for (let i = 0; i < paginas; i++) {
        const pagina = await llamar('GET', `/v1/pedidos?actor=me&limit=10${siguiente ? `&despues_de=${siguiente}` : ''}`);
        todos.push(...pagina.pedidos);
        siguiente = pagina.siguiente;
        if (!siguiente) break;
      }
      mas.hidden = !siguiente;
      if (todos.length === 0) lista.replaceChildren(el('p', { class: 'ayuda' }, 'Aún no tiene pedidos.'));
      else reconciliar(lista, tarjetas, todos, (p) => p.pedido, tarjeta);
    } catch (err) {
      mostrarError(err);
    }
  }

  return seguir('/v1/pedidos/flujo?actor=me', () => cargar(), mostrarError);
}
