package ccp.platform.http;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.healthchecks.HealthCheckHandler;
import io.vertx.micrometer.PrometheusScrapingHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /health/live}, {@code /health/ready} and {@code /metrics} (Prometheus) of this process, on its own port; with the
 * API ports' framing checks ({@link Framing}) and JSON errors.
 */
public final class ManagementServer extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(ManagementServer.class);

  private final Health health;
  private final PrometheusMeterRegistry registry;
  private final String host;
  private final int port;
  private HttpServer server;

  public ManagementServer(Health health, PrometheusMeterRegistry registry, String host, int port) {
    this.health = health;
    this.registry = registry;
    this.host = host;
    this.port = port;
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);
    router.get("/health/live").handler(HealthCheckHandler.createWithHealthChecks(health.liveness()));
    router.get("/health/ready").handler(HealthCheckHandler.createWithHealthChecks(health.readiness()));
    router.get("/metrics").handler(PrometheusScrapingHandler.create(registry));
    // HTTP/1.1 only, as the API ports: on an h2c upgrade this server can write a scrape's text into the HTTP/2
    // connection, or stop mid-body, which holds a scrape for ever. Probes and Prometheus speak HTTP/1.1.
    ApiRouter.unmatched(router);
    return Framing.guard(vertx.createHttpServer(new HttpServerOptions().setHttp2ClearTextEnabled(false)), router).listen(port, host).onSuccess(s -> {
      server = s;
      LOG.info("Management (health, metrics) on http://{}:{}", host, s.actualPort());
    });
  }

  public int actualPort() {
    return server.actualPort();
  }
}
