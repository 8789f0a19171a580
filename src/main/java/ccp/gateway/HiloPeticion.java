package ccp.gateway;

import ccp.platform.http.ApiErrors;
import ccp.platform.http.EventStream;
import ccp.platform.http.JsonResponse;
import ccp.platform.infra.DevIssuer;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * HiloPeticion of the API Gateway (A1, B1): the App's only door. Every request has its token checked (401) and its
 * actor looked up in the Lista de revocación (403 when revoked or blocked), then goes to the role that serves it:
 * over HTTP, or — when that role runs in this same process ({@code --role=all}) — through its routes in-process. It also
 * serves the people's web console ({@link Consola}) and the ASR board's sample of this process's meters
 * ({@code GET /v1/metricas}, {@link Metricas}).
 */
final class HiloPeticion extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(HiloPeticion.class);
  private static final List<String> FORWARDED = List.of("Authorization", "Content-Type", "Accept", "Idempotency-Key");
  private static final List<String> RETURNED = List.of("Content-Type", "Location", "Cache-Control", "Retry-After");

  private final RoleContext role;
  private final GatewayConfig config;
  private final Gateway.Locales locales;
  private final Optional<JsonObject> claveDesarrollo;
  private final HistoriaMetricas historia;
  private final List<AppApi> enProceso = new ArrayList<>();
  private HttpClient client;
  /** The console's streams hold their connection while open: their own pool, so they never starve the App's calls. */
  private HttpClient flujos;
  private Router router;

  HiloPeticion(RoleContext role, GatewayConfig config, Gateway.Locales locales, Optional<JsonObject> claveDesarrollo,
               HistoriaMetricas historia) {
    this.role = role;
    this.config = config;
    this.locales = locales;
    this.claveDesarrollo = claveDesarrollo;
    this.historia = historia;
  }

  @Override
  public Future<?> start() {
    client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setKeepAliveTimeout(role.http().clientKeepAliveSeconds())
        .setConnectTimeout(role.http().clientTimeoutMs()),
      new PoolOptions().setHttp1MaxSize(role.http().clientPoolSize()));
    flujos = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(false).setConnectTimeout(role.http().clientTimeoutMs()),
      new PoolOptions().setHttp1MaxSize(role.http().clientPoolSize()));
    router = role.router(vertx);
    // The console's pages and sign-in, outside /v1: its pages then call /v1 with a token like the App.
    new Consola(config, role.sql(), claveDesarrollo.map(clave -> DevIssuer.of(vertx, clave, config.jwt())).orElse(null)).mount(router);
    Optional<AppApi> sesiones = locales.sesiones().map(Supplier::get);
    Optional<AppApi> pedidos = locales.pedidos().map(Supplier::get);
    Optional<AppApi> cadena = locales.cadena().map(Supplier::get);
    Optional<AppApi> inventario = locales.inventario().map(Supplier::get);
    Stream.of(sesiones, pedidos, cadena, inventario).flatMap(Optional::stream).forEach(api -> api.doors(router));
    role.guardApp(router);
    router.get("/v1/metricas").handler(ctx -> JsonResponse.ok(ctx, Metricas.muestra(role.registry())));
    router.get("/v1/metricas/historia").handler(ctx -> JsonResponse.ok(ctx, historia.historia()));
    // The console's live streams, forwarded as they flow (the other forwards wait for the whole answer).
    if (locales.pedidos().isEmpty()) router.get("/v1/pedidos/flujo").handler(ctx -> reenviarFlujo(ctx, config.pedidosUrl()));
    if (locales.cadena().isEmpty()) router.get("/v1/bandeja/flujo").handler(ctx -> reenviarFlujo(ctx, config.cadenaUrl()));
    router.get("/v1/alertas/flujo").handler(ctx -> reenviarFlujo(ctx, config.seguridadUrl()));
    sesiones.ifPresentOrElse(this::enProceso,
      () -> router.post("/v1/sesiones").handler(ctx -> reenviar(ctx, config.gestorUrl())));
    pedidos.ifPresentOrElse(this::enProceso, () -> {
      router.post("/v1/pedidos").handler(ctx -> reenviar(ctx, config.pedidosUrl()));
      router.get("/v1/pedidos").handler(ctx -> reenviar(ctx, config.pedidosUrl()));
      router.get("/v1/pedidos/:pedido").handler(ctx -> reenviar(ctx, config.pedidosUrl()));
    });
    cadena.ifPresentOrElse(this::enProceso, () -> {
      router.route("/v1/bandeja*").handler(ctx -> reenviar(ctx, config.cadenaUrl()));
      router.route("/v1/logistica*").handler(ctx -> reenviar(ctx, config.cadenaUrl()));
    });
    inventario.ifPresentOrElse(this::enProceso, () -> {
      router.post("/v1/inventario/ajustes").handler(ctx -> reenviar(ctx, config.inventarioUrl()));
      router.get("/v1/inventario/ajustes/:ajuste").handler(ctx -> reenviar(ctx, config.inventarioUrl()));
    });
    router.put("/v1/dispositivos/:vendedor").handler(ctx -> reenviar(ctx, config.seguridadUrl()));
    router.get("/v1/alertas").handler(ctx -> reenviar(ctx, config.seguridadUrl()));
    router.post("/v1/revocaciones/:actor/levantamiento").handler(ctx -> reenviar(ctx, config.seguridadUrl()));
    router.get("/v1/revocaciones").handler(ctx -> reenviar(ctx, config.seguridadUrl()));
    // Shared Signals: management and poll behind the App's checks like any /v1 route; the metadata, the keys and the
    // receiver are open, a SET being authenticated by its own signature.
    router.route("/v1/ssf/*").handler(ctx -> reenviar(ctx, config.seguridadUrl()));
    router.get("/.well-known/ssf-configuration").handler(ctx -> reenviar(ctx, config.seguridadUrl()));
    router.get("/ssf/jwks").handler(ctx -> reenviar(ctx, config.seguridadUrl()));
    router.post("/ssf/recepcion").handler(ctx -> reenviar(ctx, config.seguridadUrl()));
    return role.listen(vertx, router, config.port(), role.httpInstances());
  }

  @Override
  public Future<?> stop() {
    return Future.join(enProceso.stream().map(AppApi::close).toList()).eventually(() -> Future.join(client.close(), flujos.close()));
  }

  /** The role runs in this process: its routes are served on this thread, behind the same checks, with no HTTP hop. */
  private void enProceso(AppApi api) {
    api.mount(router);
    enProceso.add(api);
  }

  /**
   * An event stream: the role's answer is relayed as it arrives, for as long as both ends stay. Idle for three of the
   * role's heartbeats ({@link EventStream#HEARTBEAT_MS}): the role is gone, and the console reconnects.
   */
  private void reenviarFlujo(RoutingContext ctx, String base) {
    RequestOptions request = new RequestOptions().setMethod(HttpMethod.GET)
      .setAbsoluteURI(base + ctx.request().path() + (ctx.request().query() == null ? "" : "?" + ctx.request().query()))
      .setConnectTimeout(role.http().clientTimeoutMs()).setIdleTimeout(3 * EventStream.HEARTBEAT_MS);
    for (String name : FORWARDED) {
      String value = ctx.request().headers().get(name);
      if (value != null) request.putHeader(name, value);
    }
    flujos.request(request).compose(req -> req.send()).onSuccess(response -> {
      ctx.response().setStatusCode(response.statusCode());
      for (String name : List.of("Content-Type", "Cache-Control", "X-Accel-Buffering")) {
        String value = response.getHeader(name);
        if (value != null) ctx.response().putHeader(name, value);
      }
      if (response.getHeader("Content-Length") == null) ctx.response().setChunked(true);
      else ctx.response().putHeader("Content-Length", response.getHeader("Content-Length"));
      // The console left: the role's stream goes too.
      ctx.response().closeHandler(v -> response.request().connection().close());
      response.pipeTo(ctx.response());
    }).onFailure(err -> {
      LOG.warn("Forwarding the stream {} to {} failed: {}", ctx.request().path(), base, err.toString());
      ApiErrors.send(ctx, 503, "unavailable", "the service behind " + ctx.request().path() + " did not answer; retry");
    });
  }

  private void reenviar(RoutingContext ctx, String base) {
    RequestOptions request = new RequestOptions()
      .setMethod(ctx.request().method())
      .setAbsoluteURI(base + ctx.request().path() + (ctx.request().query() == null ? "" : "?" + ctx.request().query()))
      .setTimeout(role.http().clientTimeoutMs());
    MultiMap headers = ctx.request().headers();
    for (String name : FORWARDED) {
      String value = headers.get(name);
      if (value != null) request.putHeader(name, value);
    }
    Buffer body = ctx.request().method() == HttpMethod.GET || ctx.body().buffer() == null ? Buffer.buffer() : ctx.body().buffer();
    enviar(request, body)
      .recover(err -> repetible(ctx.request().method(), headers) && cerradaPorElOtro(err) ? enviar(request, body) : Future.failedFuture(err))
      .compose(response -> {
        // The route's own timeout answered 503 first: the role's late answer has no one left to go to.
        if (ctx.response().headWritten()) return Future.<Void>succeededFuture();
        ctx.response().setStatusCode(response.statusCode());
        for (String name : RETURNED) {
          String value = response.headers().get(name);
          if (value != null) ctx.response().putHeader(name, value);
        }
        return ctx.response().end(response.body());
      })
      .onFailure(err -> {
        LOG.warn("Forwarding {} {} to {} failed: {}", ctx.request().method(), ctx.request().path(), base, err.toString());
        ApiErrors.send(ctx, 503, "unavailable", "the service behind " + ctx.request().path() + " did not answer; retry");
      });
  }

  /** A role's whole answer: its status, headers and body. */
  private record Respuesta(int statusCode, MultiMap headers, Buffer body) {}

  private Future<Respuesta> enviar(RequestOptions request, Buffer body) {
    return client.request(request)
      .compose(req -> req.send(body))
      .compose(response -> response.body().map(payload -> new Respuesta(response.statusCode(), response.headers(), payload)));
  }

  /** What the role may be asked twice with no second effect: an idempotent method, or a write with its Idempotency-Key. */
  private static boolean repetible(HttpMethod method, MultiMap headers) {
    return method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.PUT || method == HttpMethod.DELETE
      || headers.contains("Idempotency-Key");
  }

  /**
   * The role closed or reset the connection under the request (a pooled connection it was closing as idle): the
   * request is asked once more, on a new connection. A timeout or a refused connection is not retried.
   */
  private static boolean cerradaPorElOtro(Throwable err) {
    return err instanceof HttpClosedException || (err instanceof IOException && !(err instanceof ConnectException));
  }
}
