package ccp.pedidos;

import ccp.platform.http.ApiErrors;
import ccp.platform.outbox.Outbox;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import ccp.platform.role.ServiceRequests;
import io.vertx.ext.web.RoutingContext;

import java.util.UUID;

/**
 * HiloPeticion of Pedidos (B1): serves the App's order routes ({@link ApiPedidos}) and the Reacción's compensation
 * (B11). One instance per event loop: the view's "thread pool 1..P, one order per thread".
 */
final class HiloPeticion extends ServiceRequests {

  private final Outbox outbox;
  private RepositorioPedidos pedidos;

  HiloPeticion(RoleContext role, int port, Outbox outbox) {
    super(role, port, "pedidos", "/interno/pedidos/:pedido/anulacion");
    this.outbox = outbox;
  }

  @Override
  protected AppApi prepare() {
    pedidos = new RepositorioPedidos(role.sql());
    return new ApiPedidos(role, outbox);
  }

  /**
   * B11: the Reacción compensates an improper write by annulling the order. Idempotent. The annulment is itself a
   * committed write on {@code escritura.realizada}: the Coordinador stops the order's chain from it.
   */
  @Override
  protected void compensate(RoutingContext ctx) {
    UUID id = ApiPedidos.pedidoId(ctx);
    String motivo = motivo(ctx);
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
