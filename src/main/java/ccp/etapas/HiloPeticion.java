package ccp.etapas;

import ccp.platform.http.ApiErrors;
import ccp.platform.outbox.Outbox;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import ccp.platform.role.ServiceRequests;
import io.vertx.ext.web.RoutingContext;

import java.util.UUID;

/**
 * HiloPeticion of Inventario (B1 on Inventario): serves the App's stock adjustments ({@link ApiInventario}) and the
 * Reacción's compensation (B11), the revert of an improper one. One instance per event loop, as Pedidos'.
 */
final class HiloPeticion extends ServiceRequests {

  private final Outbox outbox;
  private RepositorioAjustes ajustes;

  HiloPeticion(RoleContext role, int port, Outbox outbox) {
    super(role, port, "inventario", "/interno/inventario/ajustes/:ajuste/reversion");
    this.outbox = outbox;
  }

  @Override
  protected AppApi prepare() {
    ajustes = new RepositorioAjustes(role.sql());
    return new ApiInventario(role, outbox);
  }

  /**
   * B11: the Reacción compensates an improper adjustment by reverting it. Idempotent: every call answers the one revert,
   * with the units it could not take back ({@code no_revertidas}) because they were already reserved. The revert
   * publishes no write event: no consumer acts on it (Pedidos' annulment has one because the Coordinador stops the
   * order's chain from it).
   */
  @Override
  protected void compensate(RoutingContext ctx) {
    UUID id = ApiInventario.ajusteId(ctx);
    String motivo = motivo(ctx);
    ajustes.revertir(id, motivo).compose(revertido -> ajustes.leer(id).map(ajuste -> {
      if (ajuste.isEmpty()) {
        ApiErrors.send(ctx, 404, "not_found", "no stock adjustment " + id);
      } else {
        ApiInventario.responder(ctx, 200, ajuste.get().put("revertido_ahora", revertido));
      }
      return null;
    })).onFailure(ctx::fail);
  }
}
