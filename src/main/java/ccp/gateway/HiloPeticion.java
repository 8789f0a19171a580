package ccp.gateway;

import ccp.platform.http.ApiErrors;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * HiloPeticion of the API Gateway (A1, B1): the App's only door. Every request has its token checked (401) and its
 * actor looked up in the Lista de revocación (403 when revoked or blocked), then goes to the role that serves it:
 * over HTTP, or — when that role runs in this same process ({@code --role=all}) — through its routes in-process.
 */
final class HiloPeticion extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(HiloPeticion.class);
  private static final List<String> FORWARDED = List.of("Authorization", "Content-Type", "Accept", "Idempotency-Key");
  private static final List<String> RETURNED = List.of("Content-Type", "Location", "Cache-Control", "Retry-After");

  private final RoleContext role;
  private final GatewayConfig config;
  private final Gateway.Locales locales;
  private final List<AppApi> enProceso = new ArrayList<>();
  private HttpClient client;
  private Router router;

  HiloPeticion(RoleContext role, GatewayConfig config, Gateway.Locales locales) {
    this.role = role;
    this.config = config;
    this.locales = locales;
  }

  @Override
  public Future<?> start() {
    client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setConnectTimeout(role.http().clientTimeoutMs()),
      new PoolOptions().setHttp1MaxSize(role.http().clientPoolSize()));
    router = role.router(vertx);
    role.guardApp(router);
    locales.sesiones().ifPresentOrElse(this::enProceso,
      () -> router.post("/v1/sesiones").handler(ctx -> reenviar(ctx, config.gestorUrl())));
    locales.pedidos().ifPresentOrElse(this::enProceso, () -> {
      router.post("/v1/pedidos").handler(ctx -> reenviar(ctx, config.pedidosUrl()));
      router.get("/v1/pedidos/:pedido").handler(ctx -> reenviar(ctx, config.pedidosUrl()));
    });
    locales.cadena().ifPresentOrElse(this::enProceso, () -> {
      router.route("/v1/bandeja*").handler(ctx -> reenviar(ctx, config.cadenaUrl()));
      router.route("/v1/logistica*").handler(ctx -> reenviar(ctx, config.cadenaUrl()));
    });
    locales.inventario().ifPresentOrElse(this::enProceso, () -> {
      router.post("/v1/inventario/ajustes").handler(ctx -> reenviar(ctx, config.inventarioUrl()));
      router.get("/v1/inventario/ajustes/:ajuste").handler(ctx -> reenviar(ctx, config.inventarioUrl()));
    });
    router.put("/v1/dispositivos/:vendedor").handler(ctx -> reenviar(ctx, config.seguridadUrl()));
    router.get("/v1/alertas").handler(ctx -> reenviar(ctx, config.seguridadUrl()));
    router.post("/v1/revocaciones/:actor/levantamiento").handler(ctx -> reenviar(ctx, config.seguridadUrl()));
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
    return Future.join(enProceso.stream().map(AppApi::close).toList()).eventually(() -> client.close());
  }

  /** The role runs in this process: its routes are served on this thread, behind the same checks, with no HTTP hop. */
  private void enProceso(Supplier<AppApi> local) {
    AppApi api = local.get();
    api.mount(router);
    enProceso.add(api);
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
    client.request(request)
      .compose(req -> req.send(body))
      .compose(response -> response.body().map(payload -> {
        ctx.response().setStatusCode(response.statusCode());
        for (String name : RETURNED) {
          String value = response.getHeader(name);
          if (value != null) ctx.response().putHeader(name, value);
        }
        return ctx.response().end(payload);
      }))
      .onFailure(err -> {
        LOG.warn("Forwarding {} {} to {} failed: {}", ctx.request().method(), ctx.request().path(), base, err.toString());
        ApiErrors.send(ctx, 503, "unavailable", "the service behind " + ctx.request().path() + " did not answer; retry");
      });
  }
}
