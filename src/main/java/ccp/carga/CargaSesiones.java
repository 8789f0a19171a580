package ccp.carga;

import ccp.Main;
import ccp.platform.config.Settings;
import ccp.platform.http.Tokens;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import java.net.URI;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * {@code carga-sesiones}: opens sessions against a running system at a fixed rate (open model) for a fixed time,
 * a share of them from devices the vendedor never registered, and prints the sessions/s achieved, the HTTP latency,
 * and ASR-1 (t0 → security area notified) as the system itself measured it on {@code /metrics}.
 */
public final class CargaSesiones {

  private static final long TICK_MS = 5;

  private CargaSesiones() {}

  public static void run(Settings settings, Main.Arguments arguments) {
    arguments.allowOnly(Set.of("conf", "rate", "duration", "unknown", "vendedores", "gestor", "seguridad", "metrics", "connections"));
    Plan plan = new Plan(
      positive(arguments, "rate", "2000"),
      positive(arguments, "duration", "60"),
      fraction(arguments.flag("unknown", "0.10")),
      positive(arguments, "vendedores", "1000"),
      URI.create(arguments.flag("gestor", "http://127.0.0.1:" + settings.integer("gestor.port"))),
      URI.create(arguments.flag("seguridad", "http://127.0.0.1:" + settings.integer("seguridad.port"))),
      URI.create(arguments.flag("metrics", "http://127.0.0.1:" + settings.integer("management.port") + "/metrics")),
      positive(arguments, "connections", "64"));
    Vertx vertx = Vertx.vertx();
    try {
      Report report = new Run(vertx, settings, plan).execute().await(plan.durationSeconds + 120L, TimeUnit.SECONDS);
      System.out.println(report.render(plan));
    } catch (Exception e) {
      throw new IllegalStateException("load run failed: " + e.getMessage(), e);
    } finally {
      vertx.close();
    }
  }

  record Plan(int rate, int durationSeconds, double unknownShare, int vendedores, URI gestor, URI seguridad, URI metrics, int connections) {}

  record Report(long sent, long opened, Map<String, Long> failures, double seconds, long[] latenciesMicros,
                long alertsExpected, AsrSnapshot before, AsrSnapshot after) {

    String render(Plan plan) {
      long[] sorted = latenciesMicros.clone();
      Arrays.sort(sorted);
      return String.format(Locale.ROOT, """
        carga-sesiones: target %d/s for %d s, %.0f%% from unknown devices, %d vendedores
          sessions sent      %d, opened (201) %d, failed %d %s
          achieved           %.1f sessions/s
          HTTP latency       p50 %.1f ms, p99 %.1f ms, max %.1f ms
          alerts expected    %d, delivered during run %d
          ASR-1 (t0→notified) p50 %.1f ms, p99 %.1f ms, max %.1f ms  (budget 2000 ms; from the system's asr1 histogram)""",
        plan.rate, plan.durationSeconds, plan.unknownShare * 100, plan.vendedores,
        sent, opened, sent - opened, failures,
        opened / seconds,
        percentile(sorted, 0.50) / 1000.0, percentile(sorted, 0.99) / 1000.0, percentile(sorted, 1.0) / 1000.0,
        alertsExpected, after.count - before.count,
        after.quantileSince(before, 0.50) * 1000, after.quantileSince(before, 0.99) * 1000, after.max * 1000);
    }

    private static long percentile(long[] sorted, double q) {
      if (sorted.length == 0) return 0;
      int index = (int) Math.ceil(q * sorted.length) - 1;
      return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
  }

  /**
   * The asr1 histogram as {@code /metrics} shows it. The run's quantiles come from the difference of two snapshots,
   * interpolated inside the histogram's buckets as Prometheus' {@code histogram_quantile} does.
   */
  record AsrSnapshot(long count, double max, TreeMap<Double, Long> buckets) {

    static AsrSnapshot parse(String prometheus) {
      long count = 0;
      double max = 0;
      TreeMap<Double, Long> buckets = new TreeMap<>();
      for (String line : prometheus.split("\n")) {
        if (!line.startsWith("asr1_seconds")) continue;
        String[] parts = line.split(" ");
        double value = Double.parseDouble(parts[parts.length - 1]);
        if (line.startsWith("asr1_seconds_count")) {
          count = (long) value;
        } else if (line.startsWith("asr1_seconds_max")) {
          max = value;
        } else if (line.startsWith("asr1_seconds_bucket")) {
          String le = line.substring(line.indexOf("le=\"") + 4, line.indexOf('"', line.indexOf("le=\"") + 4));
          buckets.put(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le), (long) value);
        }
      }
      return new AsrSnapshot(count, max, buckets);
    }

    /** The q-quantile, in seconds, of what was recorded between {@code before} and this snapshot. */
    double quantileSince(AsrSnapshot before, double q) {
      long total = count - before.count;
      if (total <= 0) return 0;
      double rank = q * total;
      double lowerBound = 0;
      long lowerCount = 0;
      for (var bucket : buckets.entrySet()) {
        long cumulative = bucket.getValue() - before.buckets.getOrDefault(bucket.getKey(), 0L);
        if (cumulative >= rank) {
          if (bucket.getKey().isInfinite()) return lowerBound;
          long inBucket = cumulative - lowerCount;
          return lowerBound + (bucket.getKey() - lowerBound) * (inBucket == 0 ? 1 : (rank - lowerCount) / inBucket);
        }
        lowerBound = bucket.getKey();
        lowerCount = cumulative;
      }
      return lowerBound;
    }
  }

  private static final class Run {
    private final Vertx vertx;
    private final Plan plan;
    private final WebClient client;
    private final HttpClient http;
    private final RequestOptions openSession;
    private final String[] tokens;
    private final String[] bearers;
    private final Buffer[] homeBodies;
    private final long[] latencies;
    private final Map<String, Long> failures = new TreeMap<>();
    private long sent;
    private long opened;
    private long alertsExpected;
    private int inFlight;
    private double credit;

    Run(Vertx vertx, Settings settings, Plan plan) {
      this.vertx = vertx;
      this.plan = plan;
      this.client = WebClient.create(vertx, new WebClientOptions().setKeepAlive(true), new PoolOptions().setHttp1MaxSize(plan.connections));
      // The hot path uses the plain client with bodies and headers built once: the driver shares the CPU it measures.
      this.http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true), new PoolOptions().setHttp1MaxSize(plan.connections));
      this.openSession = new RequestOptions().setMethod(HttpMethod.POST).setHost(plan.gestor.getHost()).setPort(port(plan.gestor))
        .setURI("/v1/sesiones").putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
      Tokens minter = Tokens.create(vertx, settings);
      this.tokens = new String[plan.vendedores];
      this.bearers = new String[plan.vendedores];
      this.homeBodies = new Buffer[plan.vendedores];
      for (int i = 0; i < plan.vendedores; i++) {
        tokens[i] = minter.mint(vendedor(i), "VENDEDOR");
        bearers[i] = "Bearer " + tokens[i];
        homeBodies[i] = new JsonObject().put("huella", home(i)).toBuffer();
      }
      this.latencies = new long[plan.rate * plan.durationSeconds + plan.rate];
    }

    Future<Report> execute() {
      Promise<Report> done = Promise.promise();
      vertx.runOnContext(ignored -> registerHomeDevices(0)
        .compose(x -> scrape())
        .compose(before -> drive().compose(seconds -> awaitAlerts(before, 0).map(after ->
          new Report(sent, opened, failures, seconds, Arrays.copyOf(latencies, (int) Math.min(opened, latencies.length)),
            alertsExpected, before, after))))
        .onComplete(done));
      return done.future();
    }

    /** Each vendedor's own device is registered first, so only the deliberate unknown ones raise alerts. */
    private Future<Void> registerHomeDevices(int from) {
      if (from >= plan.vendedores) return Future.succeededFuture();
      int to = Math.min(plan.vendedores, from + plan.connections);
      Future<?>[] batch = new Future<?>[to - from];
      for (int i = from; i < to; i++) {
        batch[i - from] = client.put(port(plan.seguridad), plan.seguridad.getHost(), "/v1/dispositivos/" + vendedor(i))
          .bearerTokenAuthentication(tokens[i])
          .sendJsonObject(new JsonObject().put("huella", home(i)))
          .compose(r -> r.statusCode() == 200 ? Future.succeededFuture() : Future.failedFuture("device registration answered " + r.statusCode()));
      }
      return Future.all(Arrays.asList(batch)).compose(x -> registerHomeDevices(to));
    }

    private Future<Double> drive() {
      Promise<Double> finished = Promise.promise();
      long start = System.nanoTime();
      long end = start + TimeUnit.SECONDS.toNanos(plan.durationSeconds);
      double perTick = plan.rate * TICK_MS / 1000.0;
      vertx.setPeriodic(TICK_MS, timer -> {
        if (System.nanoTime() >= end) {
          vertx.cancelTimer(timer);
          drain(finished, start);
          return;
        }
        credit += perTick;
        while (credit >= 1) {
          credit -= 1;
          openOne();
        }
      });
      return finished.future();
    }

    /** The run lasts until its last answer: a system that queues requests does not get credit for them. */
    private void drain(Promise<Double> finished, long start) {
      if (inFlight == 0) finished.complete((System.nanoTime() - start) / 1e9);
      else vertx.setTimer(10, x -> drain(finished, start));
    }

    private void openOne() {
      int i = (int) (sent % plan.vendedores);
      boolean unknown = ThreadLocalRandom.current().nextDouble() < plan.unknownShare;
      Buffer body = unknown
        ? Buffer.buffer("{\"huella\":\"desconocido-" + Long.toHexString(ThreadLocalRandom.current().nextLong()) + "\"}")
        : homeBodies[i];
      sent++;
      inFlight++;
      long began = System.nanoTime();
      RequestOptions request = new RequestOptions(openSession).putHeader(HttpHeaders.AUTHORIZATION, bearers[i]);
      http.request(request)
        .compose(req -> req.send(body))
        .compose(response -> response.body().map(ignored -> response.statusCode()))
        .onComplete(ar -> {
          inFlight--;
          if (ar.succeeded() && ar.result() == 201) {
            if (opened < latencies.length) latencies[(int) opened] = (System.nanoTime() - began) / 1000;
            opened++;
            if (unknown) alertsExpected++;
          } else {
            String reason = ar.succeeded() ? "HTTP " + ar.result() : ar.cause().getClass().getSimpleName();
            failures.merge(reason, 1L, Long::sum);
          }
        });
    }

    /** Waits (up to 30 s) until the system has notified every alert this run caused. */
    private Future<AsrSnapshot> awaitAlerts(AsrSnapshot before, int attempt) {
      return scrape().compose(now -> now.count - before.count >= alertsExpected || attempt >= 60
        ? Future.succeededFuture(now)
        : vertx.timer(500).compose(x -> awaitAlerts(before, attempt + 1)));
    }

    private Future<AsrSnapshot> scrape() {
      return client.getAbs(plan.metrics.toString()).send().map(r -> AsrSnapshot.parse(r.bodyAsString()));
    }

    private static String vendedor(int i) {
      return "vendedor-" + (i + 1);
    }

    private static String home(int i) {
      return "casa-" + vendedor(i);
    }

    private static int port(URI uri) {
      return uri.getPort() > 0 ? uri.getPort() : 80;
    }
  }

  private static int positive(Main.Arguments arguments, String name, String fallback) {
    String raw = arguments.flag(name, fallback);
    try {
      int value = Integer.parseInt(raw);
      if (value > 0) return value;
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new ccp.platform.config.ConfigException("--" + name + "='" + raw + "' must be a positive integer");
  }

  private static double fraction(String raw) {
    try {
      double value = Double.parseDouble(raw);
      if (value >= 0 && value <= 1) return value;
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new ccp.platform.config.ConfigException("--unknown='" + raw + "' must be a fraction from 0 to 1");
  }
}
