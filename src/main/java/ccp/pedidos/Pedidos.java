package ccp.pedidos;

import ccp.platform.outbox.Outbox;
import ccp.platform.outbox.RelevoOutbox;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;

/** The {@code pedidos} role (cadena-pedido, entrada): HiloPeticion and its RelevoOutbox. */
public final class Pedidos {

  static final Outbox OUTBOX = new Outbox("pedidos");

  private Pedidos() {}

  public static AppApi api(RoleContext role) {
    return new ApiPedidos(role, OUTBOX);
  }

  public static Future<Void> deploy(RoleContext role, PedidosConfig config) {
    return Future.all(
      role.deploy(() -> new HiloPeticion(role, config.port(), OUTBOX), role.httpInstances()),
      role.deploy(() -> new RelevoOutbox(OUTBOX, config.outbox(), role.kafka(), role.sql(), role.registry()), 1)
    ).mapEmpty();
  }
}
