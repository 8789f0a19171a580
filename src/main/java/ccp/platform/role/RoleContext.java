package ccp.platform.role;

import ccp.platform.db.PgConfig;
import ccp.platform.http.Admission;
import ccp.platform.http.ApiRouter;
import ccp.platform.http.Contrato;
import ccp.platform.http.Health;
import ccp.platform.http.HttpConfig;
import ccp.platform.http.PeerSigner;
import ccp.platform.http.PeerVerifier;
import ccp.platform.http.Tokens;
import ccp.platform.http.ValidacionContrato;
import ccp.platform.kafka.GroupLagFeed;
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

import java.util.Map;
import java.util.function.Supplier;

/**
/**
 * What a role's verticles are built from: its own database login role ({@code db}) and its client of it ({@code sql}),
 * its App revocation check on that client, its own Kafka identity; and, shared by every role of the process, its
 * Vert.x, meters, health, token checks and HTTP settings. A role's own settings come to its facade as a typed record. A
 * process holds only the key material its roles use: no App verifier unless a role serves HTTP, no peer verifier unless
 * one receives role-to-role calls, no signer unless one makes them (null).
 *
 * @param db       where the role's own connections go, as its login role (a dedicated connection, e.g. a session lock)
 * @param tokens   the App's token verifier (the issuer's JWK Set)
 * @param peers    the verifier of role-to-role calls ({@code peer.jwks})
 * @param signer   the calling role's own key ({@code peer.private-key})
 * @param kafka    the role's Kafka clients' settings, with its own principal; null for a role that never touches the
 *                 broker (the gateway)
 * @param vigencia a new handler, per verticle, answering 403 when the request's actor is revoked or blocked (the Lista
 *                 de revocación); its pending lookups are that verticle's state
 * @param contrato the App's contract ({@link Contrato}): a router mounting an App operation it does not name fails
 *                 its role's start; null when no role of the process serves HTTP
 */
public record RoleContext(Vertx vertx, PgConfig db, SqlClient sql, MeterRegistry registry, Health health, Tokens tokens,
                          PeerVerifier peers, PeerSigner signer, HttpConfig http, KafkaConfig kafka,
                          Supplier<Handler<RoutingContext>> vigencia, Contrato contrato) {

  public Future<String> deploy(Supplier<VerticleBase> verticle, int instances) {
    return vertx.deployVerticle(verticle, new DeploymentOptions().setInstances(instances));
  }

  /**
   * A door's reading of the consumer groups behind it ({@link GroupLagFeed}), told on {@code address}; none when
   * {@code maxMs} is 0, the door's bound off.
   */
  public Future<?> deployLagFeed(String address, String que, Map<String, String> groups, long maxMs) {
    return maxMs == 0 ? Future.succeededFuture() : deploy(() -> new GroupLagFeed(kafka, address, que, groups, maxMs), 1);
  }

  /** Instances for an HTTP verticle: {@code http.instances}, or one per event loop when it is 0. */
  public int httpInstances() {
    return http.serverInstances();
  }

  /**
   * A router with the project's HTTP conventions, for the verticle running on {@code vertx}; its {@code /v1/*} and
   * {@code /ssf/*} requests pass its own {@link Admission} limits first.
   */
  public Router router(Vertx vertx) {
    Router router = ApiRouter.create(vertx, http);
    Handler<RoutingContext> admission = Admission.handler(vertx, http, registry);
    router.route("/v1/*").handler(admission);
    // The Shared Signals receiver is open to any sender (a SET authenticates itself): it is limited like the security paths.
    router.route("/ssf/*").handler(admission);
    return router;
  }

  public Future<HttpServer> listen(Vertx vertx, Router router, int port, int instances) {
    try {
      if (contrato != null) contrato.verificar(router, "the server on port " + port);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    return ApiRouter.listen(vertx, http, router, port, instances);
  }

  /**
   * The App's door on {@code /v1/*}: a valid token (401), then an actor in force whose profile in the Gestor's directory
   * is the token's (403), then a request the contract accepts (400 naming the field, {@link ValidacionContrato}). A
   * route's own profile check, mounted later, comes after the contract's.
   */
  public void guardApp(Router router) {
    guardApp(router, null);
  }

  /** {@link #guardApp(Router)} with a check of the caller's profile ({@code perfil}, 403) before the contract's. */
  public void guardApp(Router router, Handler<RoutingContext> perfil) {
    if (tokens == null) throw new IllegalStateException("this process built no App token verifier: none of its roles serves HTTP");
    Route door = router.route("/v1/*").handler(tokens.required()).handler(vigencia.get());
    if (perfil != null) door.handler(perfil);
    door.handler(new ValidacionContrato(contrato.contract()));
  }

  /**
   * A role-to-role endpoint {@code POST path} of role {@code callee}: a token signed by a calling role's own key for
   * {@code callee} (401), from one of {@code callers}, the roles the view draws calling it (403). Add the handler to it.
   */
  public Route interno(Router router, String path, String callee, String... callers) {
    if (peers == null) throw new IllegalStateException("this process built no peer verifier: none of its roles receives calls");
    return router.post(path).handler(peers.admit(callee, callers));
  }

  /** The key the calling role signs its calls with. */
  public PeerSigner signer() {
    if (signer == null) throw new IllegalStateException("this process holds no peer key: none of its roles calls another");
    return signer;
  }
}
