package ccp.cadena;

import ccp.platform.role.RoleContext;
import ccp.platform.db.Combiner;
import ccp.platform.kafka.ConsumerVerticle;
import ccp.platform.kafka.Priority;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.sqlclient.Tuple;

import java.util.Map;
import java.util.UUID;

/**
 * Logística (steps 13–14): takes each finished order from {@code cola.logistica} and records it once; the orders that
 * arrive while one statement is in flight are recorded by the next, together ({@link Combiner}).
 */
final class Logistica extends ConsumerVerticle {

  static final String COLA = "cola.logistica";
  /** The orders of a batch, inserted in key order so that two batches never wait on each other in a cycle. */
  private static final String REGISTRAR = """
    INSERT INTO cadena.pedidos_listos (pedido) SELECT p FROM unnest($1::uuid[]) AS p ORDER BY p
    ON CONFLICT (pedido) DO NOTHING""";

  private final RoleContext role;
  private final int loteMax;
  private Combiner<UUID, UUID, Void> registros;

  Logistica(RoleContext role, int loteMax) {
    super(role.kafka(), role.health(), role.registry(), COLA, Topics.PEDIDO_LISTO, Priority.CHAIN);
    this.role = role;
    this.loteMax = loteMax;
  }

  @Override
  protected void prepare() {
    registros = new Combiner<>(loteMax, pedido -> pedido, lote ->
      role.sql().preparedQuery(REGISTRAR).execute(Tuple.of(lote.toArray(UUID[]::new))).map(rows -> Map.of()));
  }

  @Override
  protected Future<Void> handle(Envelope listo) {
    EventTypes.require(listo, EventTypes.PEDIDO_LISTO, Topics.PEDIDO_LISTO);
    UUID pedido = UUID.fromString(listo.textOf("pedido"));
    return registros.submit(pedido);
  }
}
