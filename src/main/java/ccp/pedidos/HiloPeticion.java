package ccp.pedidos;

import ccp.platform.http.ApiErrors;
import ccp.platform.http.JsonBody;
import ccp.platform.outbox.Outbox;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * HiloPeticion of Pedidos (B1): serves the App's order routes ({@link ApiPedidos}) and the Reacción's compensation
 * (B11). One instance per event loop: the view's "thread pool 1..P, one order per thread".
 */
final class HiloPeticion extends VerticleBase {

  private final RoleContext role;
  private final int port;
  private final Outbox outbox;
  private RepositorioPedidos pedidos;
  private AppApi api;

  HiloPeticion(RoleContext role, int port, Outbox outbox) {
    this.role = role;
    this.port = port;
    this.outbox = outbox;
  }

  @Override
  public Future<?> start() {
    pedidos = new RepositorioPedidos(role.sql());
    api = new ApiPedidos(role, outbox);
    Router router = role.router(vertx);
    role.guardApp(router);
    api.mount(router);
    // Only the Reacción (role seguridad) annuls (B11).
    role.interno(router, "/interno/pedidos/:pedido/anulacion", "pedidos", "seguridad").handler(this::anular);
    return role.listen(vertx, router, port, role.httpInstances());
  }

  /**
   * B11: the Reacción compensates an improper write by annulling the order. Idempotent. The annulment is itself a
   * committed write on {@code escritura.realizada}: the Coordinador stops the order's chain from it.
   */
  private void anular(RoutingContext ctx) {
    UUID id = ApiPedidos.pedidoId(ctx);
    JsonObject body = JsonBody.object(ctx, Set.of("motivo"));
    String motivo = JsonBody.text(body, "motivo", Pattern.compile("[^\\p{Cntrl}]{1,500}"), "1 to 500 printable characters");
    pedidos.anular(id, motivo).compose(anulado -> {
      if (anulado) vertx.eventBus().send(outbox.wakeAddress(), null);
      return pedidos.leer(id).map(pedido -> {
        if (pedido.isEmpty()) {
          ApiErrors.send(ctx, 404, "not_found", "no order " + id);
        } else {
          ApiPedidos.responder(ctx, 200, pedido.get().put("anulado_ahora", anulado));
        }
        return null;
      });
    }).onFailure(ctx::fail);
  }
}
