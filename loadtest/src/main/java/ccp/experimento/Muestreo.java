package ccp.experimento;

import ccp.carga.Histogram;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Scrapes every process's {@code /metrics} every {@link #PERIOD_MS} and keeps its ASR histograms. A process that does
 * not answer (killed, cut off) is missing from that sample; one that was restarted starts its counters again from 0,
 * so what it recorded between two samples is its new histogram whole ({@link #entre}).
 */
final class Muestreo {

  static final long PERIOD_MS = 2_000;
  static final List<String> ASRS = List.of("asr1_seconds", "asr2_seconds", "asr3_seconds", "asr4_seconds");
  private static final Histogram VACIO = new Histogram(0, 0, new TreeMap<>());

  /** One scrape round: when, and per process (its URL) per ASR its histogram. */
  record Muestra(long epochMs, Map<URI, Map<String, Histogram>> procesos) {}

  private final Vertx vertx;
  private final WebClient web;
  private final List<URI> metrics;
  final List<Muestra> muestras = new ArrayList<>();
  private long timer = -1;

  Muestreo(Vertx vertx, WebClient web, List<URI> metrics) {
    this.vertx = vertx;
    this.web = web;
    this.metrics = List.copyOf(metrics);
  }

  /** Must run on the context that owns this sampler. */
  void start() {
    muestrear();
    timer = vertx.setPeriodic(PERIOD_MS, x -> muestrear());
  }

  void stop() {
    vertx.cancelTimer(timer);
  }

  private void muestrear() {
    long at = System.currentTimeMillis();
    List<Future<Map<String, Histogram>>> scrapes = metrics.stream()
      .map(uri -> web.getAbs(uri.toString()).timeout(PERIOD_MS - 200).send()
        .map(response -> {
          Map<String, Histogram> h = new HashMap<>();
          String text = response.bodyAsString();
          for (String asr : ASRS) h.put(asr, Histogram.parse(text, asr));
          return h;
        }).otherwise((Map<String, Histogram>) null))
      .toList();
    Future.join(scrapes).onComplete(x -> {
      Map<URI, Map<String, Histogram>> procesos = new HashMap<>();
      for (int i = 0; i < metrics.size(); i++) {
        Map<String, Histogram> h = scrapes.get(i).result();
        if (h != null) procesos.put(metrics.get(i), h);
      }
      muestras.add(new Muestra(at, procesos));
    });
  }

  /**
   * What every process recorded of {@code asr} from the sample nearest {@code desdeMs} to the one nearest {@code hastaMs}:
   * per process the difference (the later histogram whole when its count went down: the process was restarted), summed.
   */
  Histogram entre(String asr, long desdeMs, long hastaMs) {
    Muestra desde = cercana(desdeMs);
    Muestra hasta = cercana(hastaMs);
    if (desde == null || hasta == null || hasta.epochMs() <= desde.epochMs()) return VACIO;
    long count = 0;
    double max = 0;
    TreeMap<Double, Long> buckets = new TreeMap<>();
    for (URI proceso : metrics) {
      Histogram fin = ultima(proceso, asr, hasta.epochMs());
      if (fin == null) continue;
      Histogram inicio = ultima(proceso, asr, desde.epochMs());
      if (inicio == null || inicio.count() > fin.count()) inicio = VACIO;
      count += fin.count() - inicio.count();
      max = Math.max(max, fin.max());
      for (var bucket : fin.buckets().entrySet()) {
        buckets.merge(bucket.getKey(), bucket.getValue() - inicio.buckets().getOrDefault(bucket.getKey(), 0L), Long::sum);
      }
    }
    return new Histogram(count, max, buckets);
  }

  /** The process's last answered histogram at or before {@code epochMs}. */
  private Histogram ultima(URI proceso, String asr, long epochMs) {
    Histogram found = null;
    for (Muestra m : muestras) {
      if (m.epochMs() > epochMs) break;
      Map<String, Histogram> h = m.procesos().get(proceso);
      if (h != null) found = h.get(asr);
    }
    return found;
  }

  private Muestra cercana(long epochMs) {
    Muestra best = null;
    for (Muestra m : muestras) {
      if (best == null || Math.abs(m.epochMs() - epochMs) < Math.abs(best.epochMs() - epochMs)) best = m;
    }
    return best;
  }

  static Histogram vacio() {
    return VACIO;
  }
}
