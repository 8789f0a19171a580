package ccp.vigilancia;

import ccp.cadena.Senal;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Instant;

/** PublicadorReintentos (R4–R5): a stopped stage's retry signal on {@code cola.reintentos}, key vendedor, with t_senal. */
final class PublicadorReintentos {

  private final EventPublisher publisher;

  PublicadorReintentos(EventPublisher publisher) {
    this.publisher = publisher;
  }

  Future<Void> reintentar(Senal senal) {
    Instant tSenal = Instant.now();
    String pedido = senal.pedido().toString();
    JsonObject data = new JsonObject().put("pedido", pedido).put("etapa", senal.etapa().name()).put("intento", senal.intento())
      .put("vendedor", senal.vendedor()).put("motivo", senal.motivo()).put("t_senal", tSenal.toString());
    Envelope reintento = Envelope.create(EventTypes.REINTENTO, "/vigilancia/barrido", pedido, data);
    return publisher.publish(Topics.COLA_REINTENTOS, senal.vendedor(), reintento).mapEmpty();
  }
}
