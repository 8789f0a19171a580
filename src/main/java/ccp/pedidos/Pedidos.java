package ccp.pedidos;

import ccp.cadena.Cadena;
import ccp.platform.outbox.Outbox;
import ccp.platform.outbox.RelevoOutbox;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;

/**
 * The {@code pedidos} role (cadena-pedido, entrada): HiloPeticion and its RelevoOutbox; and the reading of how far
 * behind the order chain runs, by which the door refuses new orders while a queue an order would pass through
 * ({@link Cadena#colasDelPedido}) keeps its records waiting past {@code pedidos.admission-max-chain-lag-ms}. The
 * outbox's door sees only the start of the chain: a stage that falls behind (or yields its cores to the security paths)
 * leaves the relay and the Coordinador's first queue prompt, and every order accepted meanwhile would wait behind it.
 */
public final class Pedidos {

  static final Outbox OUTBOX = new Outbox("pedidos");
  /** Where the chain's lag is told to the door. */
  static final String RETRASO_CADENA = "ccp.pedidos.retraso-cadena";

  private Pedidos() {}

  public static AppApi api(RoleContext role) {
    return new ApiPedidos(role, OUTBOX);
  }

  public static Future<Void> deploy(RoleContext role, PedidosConfig config) {
    return Future.all(
      role.deploy(() -> new HiloPeticion(role, config.port(), OUTBOX), role.httpInstances()),
      role.deploy(() -> new RelevoOutbox(OUTBOX, config.outbox(), role.kafka(), role.db(), role.registry()), 1),
      role.deployLagFeed(RETRASO_CADENA, "the order chain's queue", Cadena.colasDelPedido(), config.maxRetrasoCadenaMs())
    ).mapEmpty();
  }
}
