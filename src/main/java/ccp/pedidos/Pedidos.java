package ccp.pedidos;

import ccp.app.AppApi;
import ccp.app.RoleContext;
import ccp.platform.outbox.Outbox;
import ccp.platform.outbox.RelevoOutbox;
import io.vertx.core.Future;

/** The {@code pedidos} role (cadena-pedido, entrada): HiloPeticion and its RelevoOutbox. */
public final class Pedidos {

  static final Outbox OUTBOX = new Outbox("pedidos");

  private Pedidos() {}

  public static AppApi api(RoleContext role) {
    return new ApiPedidos(role, OUTBOX);
  }

  public static Future<Void> deploy(RoleContext role) {
    return Future.all(
      role.deploy(() -> new HiloPeticion(role, OUTBOX), role.httpInstances()),
      role.deploy(() -> new RelevoOutbox(OUTBOX, role.settings(), role.sql(), role.registry()), 1)
    ).mapEmpty();
  }
}
