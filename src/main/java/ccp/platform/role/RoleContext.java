package ccp.platform.role;

import ccp.platform.db.PgConfig;
import ccp.platform.http.ApiRouter;
import ccp.platform.http.Health;
import ccp.platform.http.HttpConfig;
import ccp.platform.http.Tokens;
import ccp.platform.kafka.KafkaConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.sqlclient.SqlClient;

import java.util.function.Supplier;

/**
 * What a role's verticles are built from: its own database login role ({@code db}) and its client of it ({@code sql}),
 * its App revocation check on that client; and, shared by every role of the process, its Vert.x, meters, health, tokens
 * and the HTTP and Kafka settings. A role's own settings come to its facade as a typed record.
 *
 * @param db       where the role's own connections go, as its login role (a dedicated connection, e.g. a session lock)
 * @param vigencia a new handler, per verticle, answering 403 when the request's actor is revoked or blocked (the Lista
 *                 de revocación); its pending lookups are that verticle's state
 */
public record RoleContext(Vertx vertx, PgConfig db, SqlClient sql, MeterRegistry registry, Health health, Tokens tokens, HttpConfig http,
                          KafkaConfig kafka, Supplier<Handler<RoutingContext>> vigencia) {

  public Future<String> deploy(Supplier<VerticleBase> verticle, int instances) {
    return vertx.deployVerticle(verticle, new DeploymentOptions().setInstances(instances));
  }

  /** Instances for an HTTP verticle: {@code http.instances}, or one per event loop when it is 0. */
  public int httpInstances() {
    return http.serverInstances();
  }

  /** A router with the project's HTTP conventions, for the verticle running on {@code vertx}. */
  public Router router(Vertx vertx) {
    return ApiRouter.create(vertx, http);
  }

  public Future<HttpServer> listen(Vertx vertx, Router router, int port, int instances) {
    return ApiRouter.listen(vertx, http, router, port, instances);
  }

  /** The App's door on {@code /v1/*}: a valid token (401), then an actor in force (403). Add profile checks to it. */
  public Route guardApp(Router router) {
    return router.route("/v1/*").handler(tokens.required()).handler(vigencia.get());
  }

  /** Role-to-role calls on {@code /interno/*}: a valid token of the SISTEMA profile. */
  public Route guardInterno(Router router) {
    return router.route("/interno/*").handler(tokens.required()).handler(Tokens.requirePerfil(Tokens.SISTEMA));
  }
}
