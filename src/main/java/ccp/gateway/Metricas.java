package ccp.gateway;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.vertx.core.json.JsonObject;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The ASR board's sample ({@code GET /v1/metricas}, any signed-in profile): what this process's meters say now. For each
 * ASR timer ({@code asr1}…{@code asr4} and the joint {@code asr34}, {@code AsrTimers}) its count, p50 and p99 over Micrometer's sliding window (the
 * last two minutes), its budget and how many were within it; the HTTP requests and finished chains counted so far (the
 * page turns two samples into a rate); the Bandeja's open items ({@code bandeja_abiertos}, kept by the cadena role);
 * and each Kafka consumer group's largest lag, as its consumers report it ({@code records-lag-max}).
 * <p>
 * It reads the gateway process's registry: the all-in-one's holds every role's meters; a gateway run alone holds only
 * its own, and the board shows what is absent as absent (the deployment's Prometheus has the rest).
 */
final class Metricas {

  private static final String[] ASR = {"asr1", "asr2", "asr3", "asr4", "asr34"};
  private static final String LAG = "kafka.consumer:type=consumer-fetch-manager-metrics,client-id=*";

  private Metricas() {}

  static JsonObject muestra(MeterRegistry registry) {
    JsonObject asr = new JsonObject();
    for (String nombre : ASR) {
      Timer timer = registry.find(nombre).timer();
      asr.put(nombre, timer == null ? null : resumen(timer));
    }
    double peticiones = registry.find("vertx.http.server.requests").counters().stream().mapToDouble(c -> c.count()).sum();
    Timer cadenas = registry.find("chain_completion").timer();
    Gauge bandeja = registry.find("bandeja_abiertos").gauge();
    return new JsonObject()
      .put("en", Instant.now().toString())
      .put("asr", asr)
      .put("peticiones_http", (long) peticiones)
      .put("cadenas_terminadas", cadenas == null ? null : cadenas.count())
      .put("bandeja_abiertos", bandeja == null ? null : (long) bandeja.value())
      .put("lag_por_grupo", lagPorGrupo());
  }

  private static JsonObject resumen(Timer timer) {
    HistogramSnapshot snapshot = timer.takeSnapshot();
    JsonObject json = new JsonObject().put("cuenta", timer.count()).put("max_ms", snapshot.max(TimeUnit.MILLISECONDS))
      .put("presupuesto_ms", presupuesto(timer));
    // Nothing measured yet: no percentile to show (Micrometer's would read 0 ms).
    if (timer.count() == 0) return json.putNull("p50_ms").putNull("p99_ms");
    for (ValueAtPercentile p : snapshot.percentileValues()) {
      if (p.percentile() == 0.5) json.put("p50_ms", p.value(TimeUnit.MILLISECONDS));
      if (p.percentile() == 0.99) json.put("p99_ms", p.value(TimeUnit.MILLISECONDS));
    }
    Long presupuesto = json.getLong("presupuesto_ms");
    for (CountAtBucket bucket : snapshot.histogramCounts()) {
      if (presupuesto != null && Math.round(bucket.bucket(TimeUnit.MILLISECONDS)) == presupuesto) {
        json.put("dentro_del_presupuesto", (long) bucket.count());
      }
    }
    return json;
  }

  /** The budget tag ({@code "2000ms"}) as milliseconds. */
  private static Long presupuesto(Timer timer) {
    String tag = timer.getId().getTag("budget");
    return tag == null || !tag.endsWith("ms") ? null : Long.valueOf(tag.substring(0, tag.length() - 2));
  }

  /**
   * Each group's largest {@code records-lag-max} over its consumers in this JVM; a consumer's client id is its group and
   * a suffix of 9 characters ({@code ReliableConsumer}). A consumer that has not fetched yet reports no number.
   */
  private static JsonObject lagPorGrupo() {
    Map<String, Double> grupos = new TreeMap<>();
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    Set<ObjectName> nombres;
    try {
      nombres = server.queryNames(new ObjectName(LAG), null);
    } catch (javax.management.MalformedObjectNameException e) {
      throw new IllegalStateException(e);
    }
    for (ObjectName nombre : nombres) {
      String cliente = nombre.getKeyProperty("client-id");
      if (cliente == null || cliente.length() <= 9) continue;
      try {
        Object valor = server.getAttribute(nombre, "records-lag-max");
        if (valor instanceof Double lag && !lag.isNaN() && !lag.isInfinite()) {
          grupos.merge(cliente.substring(0, cliente.length() - 9), lag, Math::max);
        }
      } catch (javax.management.JMException e) {
        // A consumer that left between the query and the read: the next sample has the others.
      }
    }
    JsonObject json = new JsonObject();
    grupos.forEach((grupo, lag) -> json.put(grupo, lag.longValue()));
    return json;
  }
}
