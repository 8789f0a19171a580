package ccp.etapas;

import ccp.cadena.ResultadoEtapa;
import ccp.platform.outbox.Outbox;
import ccp.platform.outbox.RelevoOutbox;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.SqlClient;

import java.util.UUID;

/**
 * The stage roles of DG-CON-003 ({@code facturacion}, {@code inventario}, {@code despacho}): one ConsumidorEtapa each,
 * the Inventario reservation open to measurement outside the chain, and Facturación's documents open to the order's
 * reader. Inventario also takes the App's stock adjustments (its HiloPeticion) and relays their writes from its own
 * outbox (B2 "RelevoOutbox de Pedidos o de Inventario").
 */
public final class Etapas {

  static final Outbox OUTBOX = new Outbox("inventario");

  private Etapas() {}

  public static Future<Void> facturacion(RoleContext role, EtapasConfig config) {
    return role.deploy(() -> ConsumidorEtapa.facturacion(role, config.loteMax()), 1).mapEmpty();
  }

  public static Future<Void> inventario(RoleContext role, EtapasConfig config) {
    return Future.all(
      role.deploy(() -> ConsumidorEtapa.inventario(role, config.inventarioLoteMax()), 1),
      role.deploy(() -> new HiloPeticion(role, config.inventarioPort(), OUTBOX), role.httpInstances()),
      role.deploy(() -> new RelevoOutbox(OUTBOX, config.outbox(), role.kafka(), role.db(), role.registry()), 1)
    ).mapEmpty();
  }

  /** Inventario's App routes (the stock adjustments), for a gateway in the same process. */
  public static AppApi apiInventario(RoleContext role) {
    return new ApiInventario(role, OUTBOX);
  }

  public static Future<Void> despacho(RoleContext role, EtapasConfig config) {
    return role.deploy(() -> ConsumidorEtapa.despacho(role, config.loteMax()), 1).mapEmpty();
  }

  /** Facturación's invoice and credit note of an order, for Pedidos' read of the order (its own login). */
  public static Comprobantes comprobantes(SqlClient sql) {
    return new Comprobantes(sql);
  }

  /** Reserves every line of an order, or none; true when the order was approved. */
  @FunctionalInterface
  public interface Reserva {
    Future<Boolean> reservar(UUID pedido, JsonArray lineas);
  }

  /**
   * The Inventario stage's own reservation, the very statement and combining its consumer runs ({@code loteMax} 1:
   * one statement per order). Use it from one verticle, as the consumer does: its pending batch is that verticle's.
   */
  public static Reserva reservaInventario(SqlClient sql, int loteMax) {
    Inventario inventario = new Inventario(sql, loteMax);
    return (pedido, lineas) -> inventario.aplicar(pedido, lineas).map(r -> r.resultado() == ResultadoEtapa.COMPLETADA);
  }
}
