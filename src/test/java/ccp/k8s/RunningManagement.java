package ccp.k8s;

import ccp.platform.config.Settings;
import ccp.platform.http.Health;
import ccp.platform.http.ManagementServer;
import ccp.platform.http.Admission;
import ccp.platform.http.HttpConfig;
import ccp.platform.metrics.AsrTimers;
import ccp.seguridad.ssf.MedidasSsf;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The jar's own {@link ManagementServer} on a free port, in a Vert.x with Micrometer metrics like a role's process,
 * without Kafka or PostgreSQL: what the probes and the dashboard talk to.
 */
final class RunningManagement implements AutoCloseable {

  private final Vertx vertx;
  private final PrometheusMeterRegistry registry;
  private final int port;
  // HTTP/1.1 as the kubelet probes and Prometheus scrape; generous timeouts, the test machine is shared.
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
    .connectTimeout(Duration.ofSeconds(30)).build();

  private RunningManagement(Vertx vertx, PrometheusMeterRegistry registry, int port) {
    this.vertx = vertx;
    this.registry = registry;
    this.port = port;
  }

  static RunningManagement start() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Vertx vertx = Vertx.builder()
      .with(new VertxOptions().setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true)))
      .withMetrics(new MicrometerMetricsFactory(registry))
      .build();
    ManagementServer server = new ManagementServer(new Health(vertx, 5_000), registry, "127.0.0.1", 0);
    vertx.deployVerticle(server).await(30, TimeUnit.SECONDS);
    return new RunningManagement(vertx, registry, server.actualPort());
  }

  int status(String path) throws Exception {
    return get(port, path).statusCode();
  }

  String body(String path) throws Exception {
    return get(port, path).body();
  }

  /** One sample in each ASR timer, registered as the roles register them. */
  void recordEveryAsr(Settings settings) {
    AsrTimers.asr1(registry, settings.millis("asr1.budget-ms")).record(Duration.ofMillis(10));
    AsrTimers.asr2(registry, settings.millis("asr2.budget-ms")).record(Duration.ofMillis(10));
    AsrTimers.asr3(registry, settings.millis("asr3.budget-ms")).record(Duration.ofMillis(10));
    AsrTimers.asr4(registry, settings.millis("asr4.budget-ms")).record(Duration.ofMillis(10));
    MedidasSsf ssf = new MedidasSsf(registry);
    ssf.entregada("0123456789abcdef0123456789abcdef", java.time.Instant.now().minusMillis(10));
    ssf.reintento("0123456789abcdef0123456789abcdef");
    ssf.rechazo("0123456789abcdef0123456789abcdef");
    MedidasSsf.recepcion(registry).record(Duration.ofMillis(10));
    Admission.handler(vertx, HttpConfig.from(settings), registry);
  }

  /** One HTTP answer 503 from a server of this Vert.x, so the server request series exist. */
  void answer503() throws Exception {
    HttpServer server = vertx.createHttpServer().requestHandler(r -> r.response().setStatusCode(503).end())
      .listen(0, "127.0.0.1").await(30, TimeUnit.SECONDS);
    get(server.actualPort(), "/");
  }

  private HttpResponse<String> get(int target, String path) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + target + path))
      .timeout(Duration.ofSeconds(30)).build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  @Override
  public void close() throws Exception {
    vertx.close().await(30, TimeUnit.SECONDS);
  }
}
