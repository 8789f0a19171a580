package ccp.gateway;

import ccp.app.AppApi;
import ccp.app.Role;
import ccp.app.RoleContext;
import ccp.seguridad.ListaRevocacion;
import ccp.platform.http.ApiErrors;
import ccp.platform.http.ApiRouter;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * HiloPeticion of the API Gateway (A1, B1): the App's only door. Every request has its token checked (401) and its
 * actor looked up in the Lista de revocación (403 when revoked or blocked), then goes to the role that serves it:
 * over HTTP, or — when that role runs in this same process ({@code --role=all}) — through its routes in-process.
 */
public final class HiloPeticion extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(HiloPeticion.class);
  private static final List<String> FORWARDED = List.of("Authorization", "Content-Type", "Accept", "Idempotency-Key");
  private static final List<String> RETURNED = List.of("Content-Type", "Location");

  private final RoleContext role;
  private final Timer revisionLista;
  private final List<AppApi> locales = new ArrayList<>();
  private ListaRevocacion lista;
  private HttpClient client;
  private Router router;

  public HiloPeticion(RoleContext role, Timer revisionLista) {
    this.role = role;
    this.revisionLista = revisionLista;
  }

  @Override
  public Future<?> start() {
    lista = new ListaRevocacion(role.sql(), role.settings().integer("revocacion.lote-max"));
    client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true)
        .setConnectTimeout(role.settings().integer("http.client-timeout-ms")),
      new PoolOptions().setHttp1MaxSize(role.settings().integer("http.client-pool-size")));
    String gestor = role.settings().text("gestor.url");
    String pedidos = role.settings().text("pedidos.url");
    String seguridad = role.settings().text("seguridad.url");
    router = ApiRouter.create(vertx, role.settings());
    router.route("/v1/*").handler(role.tokens().required()).handler(lista.requerirVigente(revisionLista));
    Role.GESTOR.api(role).ifPresentOrElse(this::enProceso,
      () -> router.post("/v1/sesiones").handler(ctx -> reenviar(ctx, gestor)));
    Role.PEDIDOS.api(role).ifPresentOrElse(this::enProceso, () -> {
      router.post("/v1/pedidos").handler(ctx -> reenviar(ctx, pedidos));
      router.get("/v1/pedidos/:pedido").handler(ctx -> reenviar(ctx, pedidos));
    });
    String cadena = role.settings().text("cadena.url");
    Role.CADENA.api(role).ifPresentOrElse(this::enProceso, () -> router.route("/v1/bandeja*").handler(ctx -> reenviar(ctx, cadena)));
    router.put("/v1/dispositivos/:vendedor").handler(ctx -> reenviar(ctx, seguridad));
    router.get("/v1/alertas").handler(ctx -> reenviar(ctx, seguridad));
    return ApiRouter.listen(vertx, role.settings(), router, role.settings().integer("gateway.port"), role.httpInstances());
  }

  @Override
  public Future<?> stop() {
    return Future.join(locales.stream().map(AppApi::close).toList()).eventually(() -> client.close());
  }

  /** The role runs in this process: its routes are served on this thread, behind the same checks, with no HTTP hop. */
  private void enProceso(AppApi api) {
    api.mount(router);
    locales.add(api);
  }

  private void reenviar(RoutingContext ctx, String base) {
    RequestOptions request = new RequestOptions()
      .setMethod(ctx.request().method())
      .setAbsoluteURI(base + ctx.request().path() + (ctx.request().query() == null ? "" : "?" + ctx.request().query()))
      .setTimeout(role.settings().integer("http.client-timeout-ms"));
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
