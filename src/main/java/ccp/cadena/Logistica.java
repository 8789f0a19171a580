package ccp.cadena;

import ccp.app.RoleContext;
import ccp.platform.db.Combiner;
import ccp.platform.kafka.ConsumerVerticle;
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
public final class Logistica extends ConsumerVerticle {

  static final String COLA = "cola.logistica";
  /** The orders of a batch, inserted in key order so that two batches never wait on each other in a cycle. */
  private static final String REGISTRAR = """
    INSERT INTO cadena.pedidos_listos (pedido) SELECT p FROM unnest($1::uuid[]) AS p ORDER BY p
    ON CONFLICT (pedido) DO NOTHING""";

  private final RoleContext role;
  private Combiner<UUID, UUID, Void> registros;

  public Logistica(RoleContext role) {
    super(role.settings(), role.health(), COLA, Topics.PEDIDO_LISTO);
    this.role = role;
  }

  @Override
  protected void prepare() {
    registros = new Combiner<>(role.settings().integer("cadena.lote-max"), pedido -> pedido, lote ->
      role.sql().preparedQuery(REGISTRAR).execute(Tuple.of(lote.toArray(UUID[]::new))).map(rows -> Map.of()));
  }

  @Override
  protected Future<Void> handle(Envelope listo) {
    EventTypes.require(listo, EventTypes.PEDIDO_LISTO, Topics.PEDIDO_LISTO);
    UUID pedido = UUID.fromString(listo.textOf("pedido"));
    return registros.submit(pedido);
  }
}
