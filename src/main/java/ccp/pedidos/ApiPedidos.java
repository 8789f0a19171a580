package ccp.pedidos;

import ccp.cadena.Cadena;
import ccp.cadena.CadenaDePedido;
import ccp.etapas.Comprobantes;
import ccp.etapas.Etapas;
import ccp.platform.http.Actor;
import ccp.platform.http.ApiErrors;
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
import java.util.regex.Pattern;

/**
 * The App's order routes (B1): an order is written with its outbox event by one statement, then the RelevoOutbox is
 * woken; orders are read back, with the state of their chain and Facturación's invoice, by their writer, CONSULTA,
 * SEGURIDAD or OPERADOR. Permissions are not checked on writes: in the view an improper write is written, then detected
 * (B3–B6).
 */
final class ApiPedidos implements AppApi {

  private static final Pattern CLAVE = Pattern.compile("[A-Za-z0-9_-]{1,128}");
  /**
   * Who reads any order, besides its writer: the read-only profile, the security area (the orders the Reacción
   * annulled) and the person responsible for escalated orders (an escalated order's chain and invoice).
   */
  private static final Set<String> LECTORES = Set.of("CONSULTA", "SEGURIDAD", "OPERADOR");

  private final Vertx vertx;
  private final Outbox outbox;
  private final RepositorioPedidos pedidos;
  private final CadenaDePedido cadenas;
  private final Comprobantes comprobantes;

  ApiPedidos(RoleContext role, Outbox outbox) {
    this.vertx = role.vertx();
    this.outbox = outbox;
    this.pedidos = new RepositorioPedidos(role.sql());
    this.cadenas = Cadena.cadenaDePedido(role.sql());
    this.comprobantes = Etapas.comprobantes(role.sql());
  }

  @Override
  public void mount(Router router) {
    router.post("/v1/pedidos").handler(this::crear);
    router.get("/v1/pedidos/:pedido").handler(this::leer);
  }

  @Override
  public Future<Void> close() {
    return Future.succeededFuture();
  }

  private void crear(RoutingContext ctx) {
    SolicitudPedido solicitud = SolicitudPedido.from(JsonBody.object(ctx, Set.of("tendero", "lineas")));
    String clave = ctx.request().getHeader("Idempotency-Key");
    if (clave != null && !CLAVE.matcher(clave).matches()) {
      throw new JsonBody.BadRequest("Idempotency-Key", "must be 1 to 128 letters, digits, _ or -");
    }
    Actor actor = Actor.of(ctx);
    UUID id = UUID.randomUUID();
    pedidos.crear(id, actor.id(), solicitud, clave)
      .onSuccess(pedido -> {
        vertx.eventBus().send(outbox.wakeAddress(), null);
        responder(ctx, 201, pedido);
      })
      .onFailure(err -> {
        if (err instanceof RepositorioPedidos.ClaveUsada) {
          repetido(ctx, actor.id(), clave, solicitud.huella());
        } else {
          ctx.fail(err);
        }
      });
  }

  /** A retry answers what the first attempt answered; the same key with another body is a conflict. */
  private void repetido(RoutingContext ctx, String actor, String clave, String huella) {
    pedidos.respuestaGuardada(actor, clave).onSuccess(guardada -> {
      if (guardada.isEmpty()) {
        ctx.fail(new IllegalStateException("Idempotency-Key " + clave + " taken but not found"));
      } else if (!guardada.get().huella().equals(huella)) {
        ApiErrors.send(ctx, 409, "idempotency_key_reused", "Idempotency-Key " + clave + " was used with a different body");
      } else {
        responder(ctx, guardada.get().status(), guardada.get().body());
      }
    }).onFailure(ctx::fail);
  }

  private void leer(RoutingContext ctx) {
    UUID id = pedidoId(ctx);
    Actor actor = Actor.of(ctx);
    pedidos.leer(id).compose(pedido -> {
      if (pedido.isEmpty()) {
        ApiErrors.send(ctx, 404, "not_found", "no order " + id);
      } else if (!pedido.get().getString("actor").equals(actor.id()) && !LECTORES.contains(actor.perfil())) {
        ApiErrors.send(ctx, 403, "forbidden", "order " + id + " belongs to another actor");
      } else {
        return conSuCadena(id, pedido.get()).onSuccess(body -> responder(ctx, 200, body)).mapEmpty();
      }
      return Future.succeededFuture();
    }).onFailure(ctx::fail);
  }

  /**
   * The order with its chain (null until the Coordinador starts it) and Facturación's invoice and credit note. The chain
   * is read first: a stage it shows done has its effect written already, so the invoice read after it is there.
   */
  private Future<JsonObject> conSuCadena(UUID id, JsonObject pedido) {
    return cadenas.de(id).compose(cadena -> comprobantes.de(id).map(documentos ->
      pedido.put("cadena", cadena.orElse(null)).mergeIn(documentos)));
  }

  static UUID pedidoId(RoutingContext ctx) {
    try {
      return UUID.fromString(ctx.pathParam("pedido"));
    } catch (IllegalArgumentException e) {
      throw new JsonBody.BadRequest("pedido", "must be a UUID");
    }
  }

  /** An order as JSON; a created one (or a retry answering its creation) also says where to read it. */
  static void responder(RoutingContext ctx, int status, JsonObject body) {
    if (status == 201) ctx.response().putHeader("location", "/v1/pedidos/" + body.getString("pedido"));
    JsonResponse.send(ctx, status, body);
  }
}
