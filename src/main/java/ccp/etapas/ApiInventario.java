package ccp.etapas;

import ccp.platform.http.Actor;
import ccp.platform.http.ApiErrors;
import ccp.platform.http.BacklogAdmission;
import ccp.platform.http.Idempotencia;
import ccp.platform.http.JsonBody;
import ccp.platform.http.JsonResponse;
import ccp.platform.outbox.Outbox;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.Set;
import java.util.UUID;

/**
 * The App's inventory routes (B1 on Inventario): a stock adjustment is written with its outbox event by one statement,
 * then the RelevoOutbox is woken; an adjustment is read back, with the Reacción's revert of it, by its writer, BODEGA,
 * CONSULTA or SEGURIDAD. Permissions are not checked on writes, as in Pedidos: in the view an improper write is written,
 * then detected (B3–B6) and reverted (B11); only what would break the stock (below zero) is refused here.
 */
final class ApiInventario implements AppApi {

  /** Who reads any adjustment, besides its writer: the warehouse, the read-only profile and the security area. */
  private static final Set<String> LECTORES = Set.of("BODEGA", "CONSULTA", "SEGURIDAD");

  private final Vertx vertx;
  private final Outbox outbox;
  /** Refuses writes while this service's outbox is behind (the overload admission control). */
  private final BacklogAdmission admission;
  private final RepositorioAjustes ajustes;

  ApiInventario(RoleContext role, Outbox outbox) {
    this.vertx = role.vertx();
    this.outbox = outbox;
    this.ajustes = new RepositorioAjustes(role.sql());
    this.admission = outbox.admission(vertx);
  }

  @Override
  public void doors(Router router) {
    router.post("/v1/inventario/ajustes").handler(admission);
  }

  @Override
  public void mount(Router router) {
    router.post("/v1/inventario/ajustes").handler(this::ajustar);
    router.get("/v1/inventario/ajustes/:ajuste").handler(this::leer);
  }

  @Override
  public Future<Void> close() {
    return admission.close();
  }

  private void ajustar(RoutingContext ctx) {
    SolicitudAjuste solicitud = SolicitudAjuste.from(JsonBody.of(ctx));
    String clave = Idempotencia.clave(ctx);
    Actor actor = Actor.of(ctx);
    ajustes.ajustar(UUID.randomUUID(), actor.id(), solicitud, clave)
      .onSuccess(ajuste -> {
        vertx.eventBus().send(outbox.wakeAddress(), null);
        responder(ctx, 201, ajuste);
      })
      .onFailure(err -> {
        if (err instanceof Idempotencia.ClaveUsada) {
          Idempotencia.repetido(ctx, ajustes.respuestaGuardada(actor.id(), clave), clave, solicitud.resumenCuerpo(),
            ApiInventario::responder);
        } else if (err instanceof RepositorioAjustes.SinStock) {
          ApiErrors.send(ctx, 409, "insufficient_stock", "removing " + -solicitud.cantidad() + " units of " + solicitud.producto()
            + " would take its stock below zero; nothing was written");
        } else {
          ctx.fail(err);
        }
      });
  }

  private void leer(RoutingContext ctx) {
    UUID id = ajusteId(ctx);
    Actor actor = Actor.of(ctx);
    ajustes.leer(id).onSuccess(ajuste -> {
      if (ajuste.isEmpty()) {
        ApiErrors.send(ctx, 404, "not_found", "no stock adjustment " + id);
      } else if (!ajuste.get().getString("actor").equals(actor.id()) && !LECTORES.contains(actor.perfil())) {
        ApiErrors.send(ctx, 403, "forbidden", "stock adjustment " + id + " belongs to another actor");
      } else {
        responder(ctx, 200, ajuste.get());
      }
    }).onFailure(ctx::fail);
  }

  static UUID ajusteId(RoutingContext ctx) {
    try {
      return UUID.fromString(ctx.pathParam("ajuste"));
    } catch (IllegalArgumentException e) {
      throw new JsonBody.BadRequest("ajuste", "must be a UUID");
    }
  }

  /** An adjustment as JSON; a created one (or a retry answering its creation) also says where to read it. */
  static void responder(RoutingContext ctx, int status, JsonObject body) {
    if (status == 201) ctx.response().putHeader("location", "/v1/inventario/ajustes/" + body.getString("ajuste"));
    JsonResponse.send(ctx, status, body);
  }
}
