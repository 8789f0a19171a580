package ccp.cadena;

import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.UUID;

/**
 * PublicadorComandos (step 5): sends a stage its command on {@code etapa.ejecutar}, key pedido. The command carries
 * its attempt, so a stage can tell a retry from a redelivery, and what the stage needs (the order's lines).
 */
final class PublicadorComandos {

  private final EventPublisher publisher;

  PublicadorComandos(EventPublisher publisher) {
    this.publisher = publisher;
  }

  Future<Void> ejecutar(UUID pedido, Etapa etapa, int intento, JsonArray lineas) {
    JsonObject data = new JsonObject()
      .put("pedido", pedido.toString())
      .put("etapa", etapa.name())
      .put("intento", intento)
      .put("lineas", lineas);
    Envelope comando = Envelope.create(EventTypes.ETAPA_EJECUTAR, "/cadena/coordinador", pedido.toString(), data);
    return publisher.publish(Topics.ETAPA_EJECUTAR, pedido.toString(), comando).mapEmpty();
  }
}
