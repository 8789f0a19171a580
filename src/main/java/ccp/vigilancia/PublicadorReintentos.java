package ccp.vigilancia;

import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.UUID;

/** PublicadorReintentos (R4–R5): a stopped stage's retry signal on {@code cola.reintentos}, key vendedor, with t_senal. */
final class PublicadorReintentos {

  private final EventPublisher publisher;

  PublicadorReintentos(EventPublisher publisher) {
    this.publisher = publisher;
  }

  Future<Void> reintentar(UUID pedido, String etapa, int intento, String vendedor, String motivo) {
    Instant tSenal = Instant.now();
    JsonObject data = new JsonObject().put("pedido", pedido.toString()).put("etapa", etapa).put("intento", intento)
      .put("vendedor", vendedor).put("motivo", motivo).put("t_senal", tSenal.toString());
    Envelope senal = Envelope.create(EventTypes.REINTENTO, "/vigilancia/barrido", pedido.toString(), data);
    return publisher.publish(Topics.COLA_REINTENTOS, vendedor, senal).mapEmpty();
  }
}
