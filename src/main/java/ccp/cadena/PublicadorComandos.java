package ccp.cadena;

import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.UUID;

/**
 * PublicadorComandos (steps 5 and 12): sends a stage its command on {@code etapa.ejecutar}, key pedido — with its
 * attempt and what the stage needs (the order's lines) — and a finished order on {@code pedido.listo}.
 */
final class PublicadorComandos {

  private final EventPublisher publisher;

  PublicadorComandos(EventPublisher publisher) {
    this.publisher = publisher;
  }

  /** Asks a stage to undo what it did for an order rejected later in the chain. */
  Future<Void> compensar(UUID pedido, Etapa etapa) {
    return comando(pedido, etapa, new JsonObject().put("pedido", pedido.toString()).put("etapa", etapa.name()).put("accion", "COMPENSAR"));
  }

  /** Step 12: the three stages are done; Logística takes it from {@code pedido.listo}. */
  Future<Void> listo(UUID pedido) {
    Envelope listo = Envelope.create(EventTypes.PEDIDO_LISTO, "/cadena/coordinador", pedido.toString(),
      new JsonObject().put("pedido", pedido.toString()));
    return publisher.publish(Topics.PEDIDO_LISTO, pedido.toString(), listo).mapEmpty();
  }

  Future<Void> ejecutar(UUID pedido, Etapa etapa, int intento, JsonArray lineas) {
    JsonObject data = new JsonObject()
      .put("pedido", pedido.toString())
      .put("etapa", etapa.name())
      .put("intento", intento)
      .put("lineas", lineas);
    return comando(pedido, etapa, data);
  }

  private Future<Void> comando(UUID pedido, Etapa etapa, JsonObject data) {
    Envelope comando = Envelope.create(EventTypes.ETAPA_EJECUTAR, "/cadena/coordinador", pedido.toString(), data);
    return publisher.publish(Topics.ETAPA_EJECUTAR, pedido.toString(), comando, Etapa.CABECERA, etapa.name()).mapEmpty();
  }
}
