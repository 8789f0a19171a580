package ccp.gestor;

import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Instant;

/**
 * The Gestor's "Productor de eventos" thread of the view: the asynchronous Kafka producer (its own I/O thread) to
 * which each HiloPeticion hands its event. A3: {@code SesionAbierta} on {@code sesion.abierta}, key vendedor.
 */
final class ProductorEventos {

  private final EventPublisher publisher;

  ProductorEventos(EventPublisher publisher) {
    this.publisher = publisher;
  }

  /** Completes when the broker has acknowledged the event: an accepted session is never lost. */
  Future<Void> sesionAbierta(String sesion, String vendedor, String huella, Instant t0) {
    JsonObject data = new JsonObject()
      .put("sesion", sesion)
      .put("vendedor", vendedor)
      .put("huella", huella)
      .put("t0", t0.toString());
    Envelope event = new Envelope(sesion, EventTypes.SESION_ABIERTA, "/gestor", t0, vendedor, data);
    return publisher.publish(Topics.SESION_ABIERTA, vendedor, event).mapEmpty();
  }
}
