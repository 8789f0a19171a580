// Small DOM helpers: every text the system returns goes in as text, never as HTML.

export function el(etiqueta, atributos = {}, ...hijos) {
  const nodo = document.createElement(etiqueta);
  for (const [nombre, valor] of Object.entries(atributos)) {
    if (valor === undefined || valor === null || valor === false) continue;
    if (nombre.startsWith('on')) nodo.addEventListener(nombre.slice(2), valor);
    else if (nombre === 'dataset') Object.assign(nodo.dataset, valor);
    else nodo.setAttribute(nombre, valor === true ? '' : valor);
  }
  for (const hijo of hijos.flat()) {
    if (hijo === undefined || hijo === null || hijo === false) continue;
    nodo.append(hijo instanceof Node ? hijo : document.createTextNode(String(hijo)));
  }
  return nodo;
}

export function hora(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return d.toLocaleTimeString('es-CO', { hour12: false }) + '.' + String(d.getMilliseconds()).padStart(3, '0');
}

export function fechaHora(iso) {
  if (!iso) return '—';
  return new Date(iso).toLocaleString('es-CO', { hour12: false });
}

export function ms(desde, hasta) {
  if (!desde || !hasta) return '';
  return `+${Math.max(0, Date.parse(hasta) - Date.parse(desde))} ms`;
}

/** A timeline: the steps done in the order they happened, each with its distance from the first; then those pending. */
export function lineaDeTiempo(todos) {
  const conHora = todos.filter((p) => p.en).sort((a, b) => Date.parse(a.en) - Date.parse(b.en));
  const pasos = [...conHora, ...todos.filter((p) => !p.en)];
  const origen = conHora.length ? conHora[0].en : null;
  return el('ol', { class: 'linea-tiempo' },
    pasos.map((p) => el('li', { class: p.en ? 'hecho' : 'pendiente', dataset: { paso: p.nombre } },
      el('span', { class: 'paso' }, p.nombre),
      el('span', { class: 'cuando' }, p.en ? `${hora(p.en)} ${origen && p.en !== origen ? ms(origen, p.en) : ''}` : 'pendiente'),
      p.nota ? el('span', { class: 'nota' }, p.nota) : null)));
}

/**
 * Shows {@code datos} in {@code contenedor}, one node per item, reusing the node of an item whose data did not change:
 * a live list then keeps what a person is typing or pointing at while other items come and go.
 */
export function reconciliar(contenedor, cache, datos, clave, pintar) {
  const vistos = new Set();
  const nodos = datos.map((d) => {
    const id = clave(d);
    vistos.add(id);
    const firma = JSON.stringify(d);
    const previo = cache.get(id);
    if (previo && previo.firma === firma) return previo.nodo;
    const nodo = pintar(d);
    cache.set(id, { firma, nodo });
    return nodo;
  });
  for (const id of [...cache.keys()]) if (!vistos.has(id)) cache.delete(id);
  contenedor.replaceChildren(...nodos);
}
