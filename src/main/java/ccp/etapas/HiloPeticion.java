package ccp.etapas;

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
 * HiloPeticion of Inventario (B1 on Inventario): serves the App's stock adjustments ({@link ApiInventario}) and the
 * Reacción's compensation (B11), the revert of an improper one. One instance per event loop, as Pedidos'.
 */
final class HiloPeticion extends VerticleBase {

  private final RoleContext role;
  private final int port;
  private final Outbox outbox;
  private RepositorioAjustes ajustes;
  private AppApi api;

  HiloPeticion(RoleContext role, int port, Outbox outbox) {
    this.role = role;
    this.port = port;
    this.outbox = outbox;
  }

  @Override
  public Future<?> start() {
    ajustes = new RepositorioAjustes(role.sql());
    api = new ApiInventario(role, outbox);
    Router router = role.router(vertx);
    role.guardApp(router);
    api.mount(router);
    // Only the Reacción (role seguridad) reverts (B11).
    role.interno(router, "/interno/inventario/ajustes/:ajuste/reversion", "inventario", "seguridad").handler(this::revertir);
    return role.listen(vertx, router, port, role.httpInstances());
  }

  @Override
  public Future<?> stop() {
    return api.close();
  }

  /**
   * B11: the Reacción compensates an improper adjustment by reverting it. Idempotent: every call answers the one revert,
   * with the units it could not take back ({@code no_revertidas}) because they were already reserved. The revert
   * publishes no write event: no consumer acts on it (Pedidos' annulment has one because the Coordinador stops the
   * order's chain from it).
   */
  private void revertir(RoutingContext ctx) {
    UUID id = ApiInventario.ajusteId(ctx);
    JsonObject body = JsonBody.object(ctx, Set.of("motivo"));
    String motivo = JsonBody.text(body, "motivo", Pattern.compile("[^\\p{Cntrl}]{1,500}"), "1 to 500 printable characters");
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
