// ASR board (any profile): the four ASRs' (and ASR-3+4's joint budget) p50 and p99 against their budgets over the last minutes, drawn on canvases
// from the gateway's last 5 minutes (GET /v1/metricas/historia), then a sample of GET /v1/metricas every 2 s;
// throughput from two samples; consumer lag per group; the Bandeja's open count.
import { el } from './dom.js';

const CADA_MS = 2000;
const VENTANA = 150; // 5 minutes of samples
const NOMBRES = { asr1: 'ASR-1 sesión → alerta', asr2: 'ASR-2 escritura → reacción', asr3: 'ASR-3 etapa detenida → señal', asr4: 'ASR-4 reintento → confirmada o en la Bandeja', asr34: 'ASR-3+4 etapa detenida → en la Bandeja' };

export function paginaAsr(vista, { llamar, mostrarError }) {
  const muestras = [];
  const lienzos = {};
  const valores = {};
  const tarjetas = Object.entries(NOMBRES).map(([id, titulo]) => {
    lienzos[id] = el('canvas', { id: `asr-${id}`, width: 480, height: 160, role: 'img', 'aria-label': `${titulo}: p50 y p99 frente al presupuesto` });
    valores[id] = el('p', { class: 'asr-valor', dataset: { asr: id } }, 'sin datos');
    return el('section', { class: 'tarjeta asr', dataset: { asr: id } }, el('h2', {}, titulo), valores[id], lienzos[id]);
  });
  const rendimiento = el('p', { id: 'rendimiento' }, '…');
  const bandeja = el('p', { id: 'bandeja-abiertos' }, '…');
  const lag = el('table', { id: 'lag' });
  vista.replaceChildren(el('h1', {}, 'ASR'),
    el('div', { class: 'rejilla' }, ...tarjetas),
    el('div', { class: 'rejilla' },
      el('section', { class: 'tarjeta' }, el('h2', {}, 'Rendimiento'), rendimiento, bandeja),
      el('section', { class: 'tarjeta' }, el('h2', {}, 'Lag por grupo de consumidores'), lag)));

  async function muestrear() {
    try {
      const m = await llamar('GET', '/v1/metricas');
      muestras.push(m);
      if (muestras.length > VENTANA) muestras.shift();
      pintar();
    } catch (err) {
      mostrarError(err);
    }
  }

  function pintar() {
    const ultima = muestras[muestras.length - 1];
    for (const id of Object.keys(NOMBRES)) {
      const a = ultima.asr[id];
      valores[id].textContent = a && a.cuenta === 0 ? `sin medidas aún · presupuesto ${a.presupuesto_ms} ms` : a ? `p50 ${redondo(a.p50_ms)} ms · p99 ${redondo(a.p99_ms)} ms · presupuesto ${a.presupuesto_ms} ms · medidas: ${a.cuenta}`
        : 'no medido en este proceso';
      valores[id].classList.toggle('fuera', Boolean(a && a.p99_ms > a.presupuesto_ms));
      dibujar(lienzos[id], muestras.map((s) => s.asr[id]));
    }
    const previa = muestras.length > 1 ? muestras[muestras.length - 2] : null;
    if (previa) {
      const segundos = (Date.parse(ultima.en) - Date.parse(previa.en)) / 1000;
      const http = (ultima.peticiones_http - previa.peticiones_http) / segundos;
      const cadenas = ultima.cadenas_terminadas == null ? null : (ultima.cadenas_terminadas - previa.cadenas_terminadas) / segundos;
      rendimiento.textContent = `${redondo(http)} peticiones/s${cadenas == null ? '' : ` · ${redondo(cadenas)} cadenas terminadas/s`}`;
    }
    bandeja.textContent = ultima.bandeja_abiertos == null ? 'Bandeja: no medida en este proceso' : `Bandeja: ${ultima.bandeja_abiertos} abiertos`;
    lag.replaceChildren(el('tr', {}, el('th', {}, 'grupo'), el('th', {}, 'lag máx.')),
      ...Object.entries(ultima.lag_por_grupo).map(([g, n]) => el('tr', {}, el('td', {}, g), el('td', {}, String(n)))));
  }

  // The gateway's last minutes first, so the charts start full; then a sample of our own every CADA_MS.
  llamar('GET', '/v1/metricas/historia')
    .then(({ muestras: previas }) => muestras.unshift(...previas.slice(-VENTANA + 1)))
    .catch(mostrarError)
    .finally(muestrear);
  const reloj = setInterval(muestrear, CADA_MS);
  return () => clearInterval(reloj);
}

function redondo(x) {
  return x == null ? '—' : (x >= 10 ? Math.round(x) : Math.round(x * 10) / 10);
}

/** p50 (solid) and p99 (bold) over the samples, with the budget as a dashed line; the scale fits the larger. */
function dibujar(lienzo, serie) {
  const c = lienzo.getContext('2d');
  const { width: an, height: al } = lienzo;
  c.clearRect(0, 0, an, al);
  const puntos = serie.filter(Boolean);
  if (puntos.length === 0) return;
  const presupuesto = puntos[puntos.length - 1].presupuesto_ms;
  const tope = Math.max(presupuesto * 1.2, ...puntos.map((p) => p.p99_ms || 0));
  const y = (v) => al - 14 - (v / tope) * (al - 24);
  const x = (i) => 4 + (i / Math.max(VENTANA - 1, 1)) * (an - 8);
  c.font = '11px system-ui, sans-serif';
  c.strokeStyle = '#b42318';
  c.setLineDash([6, 4]);
  c.beginPath();
  c.moveTo(0, y(presupuesto));
  c.lineTo(an, y(presupuesto));
  c.stroke();
  c.setLineDash([]);
  c.fillStyle = '#b42318';
  c.fillText(`presupuesto ${presupuesto} ms`, 6, y(presupuesto) - 4);
  const desde = VENTANA - serie.length;
  for (const [campo, color, ancho] of [['p50_ms', '#5b7083', 1.5], ['p99_ms', '#1d4ed8', 2.5]]) {
    c.strokeStyle = color;
    c.lineWidth = ancho;
    c.beginPath();
    serie.forEach((p, i) => {
      if (!p || p[campo] == null) return;
      if (i === 0 || !serie[i - 1]) c.moveTo(x(desde + i), y(p[campo]));
      else c.lineTo(x(desde + i), y(p[campo]));
    });
    c.stroke();
  }
  c.lineWidth = 1;
  c.fillStyle = '#334155';
  c.fillText('p50', an - 60, al - 2);
  c.fillStyle = '#1d4ed8';
  c.fillText('p99', an - 30, al - 2);
}
