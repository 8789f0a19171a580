package ccp.carga;

import ccp.platform.cli.ConfOption;
import ccp.platform.config.Settings;
import ccp.platform.http.DevelopmentKey;
import ccp.platform.http.Tokens;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * {@code carga-sesiones}: opens sessions at a fixed rate for a fixed time, a share of them from devices the vendedor
 * never registered, and prints sessions/s, HTTP latency, and ASR-1 (t0 → notified) from the system's {@code asr1}.
 */
@Command(name = "carga-sesiones", mixinStandardHelpOptions = true,
  description = "Open sessions at a fixed rate, a share from unknown devices, and report ASR-1.")
public final class CargaSesiones implements Callable<Integer> {

  @Option(names = "--rate", paramLabel = "<per-second>", defaultValue = "2000", converter = Carga.Positive.class,
    description = "sessions started per second, whatever the answers do (default: ${DEFAULT-VALUE})")
  int rate;

  @Option(names = "--duration", paramLabel = "<seconds>", defaultValue = "60", converter = Carga.Positive.class,
    description = "how long to send (default: ${DEFAULT-VALUE})")
  int duration;

  @Option(names = "--unknown", paramLabel = "<fraction>", defaultValue = "0.10", converter = Carga.Fraction.class,
    description = "share of sessions from an unregistered device, each one an alert (default: ${DEFAULT-VALUE})")
  double unknown;

  @Option(names = "--vendedores", paramLabel = "<n>", defaultValue = "1000", converter = Carga.Positive.class,
    description = "vendedores whose devices are registered first and who open the sessions (default: ${DEFAULT-VALUE})")
  int vendedores;

  @Option(names = "--gestor", paramLabel = "<url>", converter = Carga.Url.class,
    description = "the Gestor, which opens the sessions (default: http://127.0.0.1:<gestor.port>)")
  URI gestor;

  @Option(names = "--seguridad", paramLabel = "<url>", converter = Carga.Url.class,
    description = "Seguridad, which registers the devices (default: http://127.0.0.1:<seguridad.port>)")
  URI seguridad;

  @Option(names = "--metrics", paramLabel = "<url>", converter = Carga.Url.class,
    description = "the Prometheus text with the ASR histograms (default: http://127.0.0.1:<management.port>/metrics)")
  URI metrics;

  @Option(names = "--connections", paramLabel = "<n>", defaultValue = "64", converter = Carga.Positive.class,
    description = "HTTP connections to the Gestor, and device registrations in flight (default: ${DEFAULT-VALUE})")
  int connections;

  @Mixin
  ConfOption conf;

  @Override
  public Integer call() throws Exception {
    Settings settings = DevelopmentKey.resolve(conf.settings());
    URI sessions = Carga.orLocal(gestor, "--gestor", settings, "gestor.port", "");
    URI devices = Carga.orLocal(seguridad, "--seguridad", settings, "seguridad.port", "");
    URI scraped = Carga.orLocal(metrics, "--metrics", settings, "management.port", "/metrics");

    Vertx vertx = Vertx.vertx();
    try {
      Tokens minter = Tokens.create(vertx, settings);
      WebClient web = WebClient.create(vertx);
      String[] bearers = new String[vendedores];
      Buffer[] homes = new Buffer[vendedores];
      for (int i = 0; i < vendedores; i++) {
        bearers[i] = "Bearer " + minter.mint(vendedor(i), "VENDEDOR");
        homes[i] = new JsonObject().put("huella", "casa-" + vendedor(i)).toBuffer();
      }
      RequestOptions open = new RequestOptions().setMethod(HttpMethod.POST).setHost(sessions.getHost()).setPort(sessions.getPort())
        .setURI("/v1/sesiones").putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
      long[] next = {0};
      OpenLoad load = new OpenLoad(vertx, Carga.client(vertx, connections), rate, duration, () -> {
        int i = (int) (next[0]++ % vendedores);
        boolean stranger = ThreadLocalRandom.current().nextDouble() < unknown;
        Buffer body = stranger
          ? Buffer.buffer("{\"huella\":\"desconocido-" + Long.toHexString(ThreadLocalRandom.current().nextLong()) + "\"}")
          : homes[i];
        return new OpenLoad.Shot(new RequestOptions(open).putHeader(HttpHeaders.AUTHORIZATION, bearers[i]), body, 201,
          stranger ? "unknown device" : null);
      });

      Promise<String> report = Promise.promise();
      String area = "Bearer " + minter.mint("seguridad-1", "SEGURIDAD");
      vertx.runOnContext(x -> registerDevices(web, devices, area, vendedores, connections)
        .compose(registered -> Carga.scrape(web, scraped))
        .compose(before -> load.run().compose(result -> awaitAlerts(vertx, web, scraped, before, result, 0)
          .map(after -> render(result, Histogram.parse(before, "asr1_seconds"), after))))
        .onComplete(report));
      System.out.println(report.future().await(duration + 120L, TimeUnit.SECONDS));
    } catch (Exception e) {
      throw new IllegalStateException("load run failed: " + e.getMessage(), e);
    } finally {
      vertx.close();
    }
    return 0;
  }

  /** The security area registers each vendedor's own device first, so that only the deliberate strangers raise alerts. */
  private static Future<Void> registerDevices(WebClient web, URI seguridad, String area, int vendedores, int batch) {
    Future<Void> chain = Future.succeededFuture();
    for (int from = 0; from < vendedores; from += batch) {
      int start = from;
      chain = chain.compose(x -> {
        List<Future<?>> puts = new ArrayList<>();
        for (int i = start; i < Math.min(vendedores, start + batch); i++) {
          puts.add(web.putAbs(seguridad + "/v1/dispositivos/" + vendedor(i))
            .putHeader("Authorization", area)
            .sendJsonObject(new JsonObject().put("huella", "casa-" + vendedor(i)))
            .compose(r -> r.statusCode() == 200 ? Future.succeededFuture() : Future.failedFuture("device registration answered " + r.statusCode())));
        }
        return Future.all(puts).mapEmpty();
      });
    }
    return chain;
  }

  /** Waits (up to 30 s) until the system has notified every alert this run caused. */
  private static Future<Histogram> awaitAlerts(Vertx vertx, WebClient web, URI metrics, String before, OpenLoad.Result result, int attempt) {
    long expected = result.okByTag().getOrDefault("unknown device", 0L);
    Histogram start = Histogram.parse(before, "asr1_seconds");
    return Carga.scrape(web, metrics).map(text -> Histogram.parse(text, "asr1_seconds")).compose(now ->
      now.countSince(start) >= expected || attempt >= 60
        ? Future.succeededFuture(now)
        : vertx.timer(500).compose(x -> awaitAlerts(vertx, web, metrics, before, result, attempt + 1)));
  }

  private String render(OpenLoad.Result r, Histogram before, Histogram after) {
    return String.format(Locale.ROOT, """
      carga-sesiones: target %d/s for %d s, %.0f%% from unknown devices, %d vendedores
        sessions sent       %d, opened (201) %d, failed %d %s
        achieved            %.1f sessions/s
        HTTP latency        %s
        alerts expected     %d, notified %d
        ASR-1 (t0→notified) %s  (budget 2000 ms; the system's asr1 histogram)""",
      rate, duration, unknown * 100, vendedores, r.sent(), r.ok(), r.sent() - r.ok(), r.failures(), r.perSecond(), r.latency(),
      r.okByTag().getOrDefault("unknown device", 0L), after.countSince(before), after.describeSince(before));
  }

  private static String vendedor(int i) {
    return "vendedor-" + (i + 1);
  }
}
