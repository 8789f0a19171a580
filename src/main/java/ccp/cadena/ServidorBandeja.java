package ccp.cadena;

import ccp.app.RoleContext;
import ccp.platform.http.ApiRouter;
import ccp.platform.http.JsonBody;
import ccp.platform.http.Tokens;
import ccp.seguridad.ListaRevocacion;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The cadena role's own port ({@code cadena.port}): the Bandeja's routes behind the token and revocation checks, and
 * the Reacción's internal call that stops an annulled order's chain.
 */
public final class ServidorBandeja extends VerticleBase {

  private final RoleContext role;
  private ApiBandeja api;

  public ServidorBandeja(RoleContext role) {
    this.role = role;
  }

  @Override
  public Future<?> start() {
    api = new ApiBandeja(role);
    Router router = ApiRouter.create(vertx, role.settings());
    router.route("/v1/*").handler(role.tokens().required())
      .handler(new ListaRevocacion(role.sql()).requerirVigente(ListaRevocacion.timer(role.registry())));
    api.mount(router);
    RepositorioCadena cadenas = new RepositorioCadena(role.sql());
    PublicadorComandos comandos = new PublicadorComandos(api.publisher());
    router.route("/interno/*").handler(role.tokens().required()).handler(Tokens.requirePerfil(Tokens.SISTEMA));
    router.post("/interno/cadenas/:pedido/detencion").handler(ctx -> detener(ctx, cadenas, comandos));
    return vertx.createHttpServer().requestHandler(router)
      .listen(role.settings().integer("cadena.port"), role.settings().text("http.host"));
  }

  /** The Reacción's compensation (B11): the chain stops and every stage undoes what it did, or will never do it. */
  private static void detener(RoutingContext ctx, RepositorioCadena cadenas, PublicadorComandos comandos) {
    UUID pedido;
    try {
      pedido = UUID.fromString(ctx.pathParam("pedido"));
    } catch (IllegalArgumentException e) {
      throw new JsonBody.BadRequest("pedido", "must be a UUID");
    }
    String actor = JsonBody.actorId(JsonBody.object(ctx, Set.of("actor")).getString("actor"), "actor");
    cadenas.detener(pedido, actor)
      .compose(x -> Future.all(List.of(Etapa.values()).stream().map(etapa -> comandos.compensar(pedido, etapa)).toList()))
      .onSuccess(x -> ctx.response().putHeader("content-type", "application/json")
        .end(new JsonObject().put("pedido", pedido.toString()).put("estado", "DETENIDO").encode()))
      .onFailure(ctx::fail);
  }

  @Override
  public Future<?> stop() {
    return api.close();
  }
}
