package ccp.cadena;

import ccp.platform.http.Actor;
import ccp.platform.http.ApiErrors;
import ccp.platform.http.EventStream;
import ccp.platform.http.JsonBody;
import ccp.platform.http.JsonResponse;
import ccp.platform.http.Tokens;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.UUID;

/**
 * The Bandeja's routes for the person responsible for escalated orders (profile OPERADOR): list and read items,
 * close one with a reason, or retry an escalated stage once more (it goes back to EN_REINTENTO with a new attempt, and
 * the item waits as REINTENTADO until the stage confirms, which closes it: {@link OrquestadorCadena}); and
 * follow it live ({@code GET /v1/bandeja/flujo}: {@code bandeja} whenever an item arrives or leaves the open ones); and
 * read an item's order chain with its deadlines and signals ({@code GET /v1/bandeja/{id}/cadena}).
 */
final class ApiBandeja implements AppApi {

  private final int esperaMs;
  private final RepositorioCadena cadenas;
  private final RepositorioBandeja bandeja;
  private final EventPublisher publisher;
  private final PublicadorComandos comandos;

  ApiBandeja(RoleContext role, int esperaMs) {
    this.esperaMs = esperaMs;
    this.cadenas = new RepositorioCadena(role.sql());
    this.bandeja = new RepositorioBandeja(role.sql());
    this.publisher = EventPublisher.create(role.vertx(), role.kafka());
    this.comandos = new PublicadorComandos(publisher);
  }

  @Override
  public void mount(Router router) {
    router.route("/v1/bandeja*").handler(Tokens.requirePerfil("OPERADOR"));
    router.get("/v1/bandeja").handler(this::listar);
    router.get("/v1/bandeja/flujo").handler(ctx -> EventStream.open(ctx, EventStream.changes("bandeja", bandeja::versionBandeja)));
    router.get("/v1/bandeja/:id").handler(this::leer);
    router.get("/v1/bandeja/:id/cadena").handler(this::cadena);
    router.post("/v1/bandeja/:id/cierre").handler(this::cerrar);
    router.post("/v1/bandeja/:id/reintento").handler(this::reintentar);
  }

  @Override
  public Future<Void> close() {
    return publisher.close();
  }

  private void listar(RoutingContext ctx) {
    String estado = ctx.queryParams().get("estado") == null ? "ABIERTO" : ctx.queryParams().get("estado");
    bandeja.itemsBandeja(estado, 200).onSuccess(items -> JsonResponse.ok(ctx, new JsonObject().put("items", items))).onFailure(ctx::fail);
  }

  private void leer(RoutingContext ctx) {
    UUID id = id(ctx);
    bandeja.itemBandeja(id).onSuccess(item -> {
      if (item.isEmpty()) ApiErrors.send(ctx, 404, "not_found", "no inbox item " + id);
      else JsonResponse.ok(ctx, item.get());
    }).onFailure(ctx::fail);
  }

  /** The item's order chain with each stage's deadline, escalation and signals: what the person responsible decides on. */
  private void cadena(RoutingContext ctx) {
    UUID id = id(ctx);
    bandeja.cadenaDelItem(id).onSuccess(cadena -> {
      if (cadena.isEmpty()) ApiErrors.send(ctx, 404, "not_found", "no inbox item " + id + " with an order's chain");
      else JsonResponse.ok(ctx, cadena.get());
    }).onFailure(ctx::fail);
  }

  private void cerrar(RoutingContext ctx) {
    UUID id = id(ctx);
    String motivo = JsonBody.of(ctx).getString("motivo");
    bandeja.cerrarItem(id, motivo + " (" + Actor.of(ctx).id() + ")").compose(cerrado -> bandeja.itemBandeja(id).map(item -> {
      if (item.isEmpty()) ApiErrors.send(ctx, 404, "not_found", "no inbox item " + id);
      else if (!cerrado) ApiErrors.send(ctx, 409, "not_open", "inbox item " + id + " is " + item.get().getString("estado"));
      else JsonResponse.ok(ctx, item.get());
      return null;
    })).onFailure(ctx::fail);
  }

  /** The stage is retried only if it is still escalated; the item is then marked REINTENTADO. */
  private void reintentar(RoutingContext ctx) {
    UUID id = id(ctx);
    bandeja.itemBandeja(id).compose(item -> {
      if (item.isEmpty()) {
        ApiErrors.send(ctx, 404, "not_found", "no inbox item " + id);
        return Future.succeededFuture();
      }
      JsonObject found = item.get();
      if (!"ESCALADA".equals(found.getString("tipo")) || !"ABIERTO".equals(found.getString("estado"))) {
        ApiErrors.send(ctx, 409, "not_retryable", "inbox item " + id + " is not an open escalation");
        return Future.succeededFuture();
      }
      UUID pedido = UUID.fromString(found.getString("pedido"));
      Etapa etapa = Etapa.valueOf(found.getString("etapa"));
      return cadenas.reintentarEscalada(pedido, etapa, esperaMs).compose(reintento -> {
        if (reintento.isEmpty()) {
          ApiErrors.send(ctx, 409, "not_retryable",
            "the stage of inbox item " + id + " is no longer escalated, or its order's chain stopped");
          return Future.succeededFuture();
        }
        int intento = reintento.get().intento();
        return comandos.ejecutar(pedido, etapa, intento, reintento.get().lineas())
          .compose(sent -> bandeja.marcarReintento(id, Actor.of(ctx).id()))
          .compose(marked -> bandeja.itemBandeja(id))
          .onSuccess(updated -> JsonResponse.send(ctx, 202, updated.orElseThrow().put("intento", intento)))
          .mapEmpty();
      });
    }).onFailure(ctx::fail);
  }

  private static UUID id(RoutingContext ctx) {
    try {
      return UUID.fromString(ctx.pathParam("id"));
    } catch (IllegalArgumentException e) {
      throw new JsonBody.BadRequest("id", "must be a UUID");
    }
  }
}
