package ccp.cadena;

import ccp.app.RoleContext;
import ccp.platform.kafka.ConsumerVerticle;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.sqlclient.Tuple;

import java.util.UUID;

/** Logística (steps 13–14): takes each finished order from {@code cola.logistica} and records it once. */
public final class Logistica extends ConsumerVerticle {

  static final String COLA = "cola.logistica";
  private static final String REGISTRAR = "INSERT INTO cadena.pedidos_listos (pedido) VALUES ($1) ON CONFLICT (pedido) DO NOTHING";

  private final RoleContext role;

  public Logistica(RoleContext role) {
    super(role.settings(), role.health(), COLA, Topics.PEDIDO_LISTO);
    this.role = role;
  }

  @Override
  protected void prepare() {
  }

  @Override
  protected Future<Void> handle(Envelope listo) {
    EventTypes.require(listo, EventTypes.PEDIDO_LISTO, Topics.PEDIDO_LISTO);
    UUID pedido = UUID.fromString(listo.textOf("pedido"));
    return role.sql().preparedQuery(REGISTRAR).execute(Tuple.of(pedido)).mapEmpty();
  }
}
