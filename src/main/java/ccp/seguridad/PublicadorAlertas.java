package ccp.seguridad;

import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

/**
 * PublicadorAlertas (A9, later B14): publishes on {@code alerta.seguridad}, key actor. The alert's id derives from
 * what caused it, so a cause handled twice yields the same {@code id_alerta} and the Notificador delivers it once.
 */
final class PublicadorAlertas {

  static final String DISPOSITIVO_NO_VALIDO = "DISPOSITIVO_NO_VALIDO";

  private final EventPublisher publisher;

  PublicadorAlertas(EventPublisher publisher) {
    this.publisher = publisher;
  }

  Future<Void> dispositivoNoValido(String sesion, String vendedor, String huellaPresentada, Instant t0) {
    String idAlerta = UUID.nameUUIDFromBytes((DISPOSITIVO_NO_VALIDO + ":" + sesion).getBytes(StandardCharsets.UTF_8)).toString();
    JsonObject data = new JsonObject()
      .put("id_alerta", idAlerta)
      .put("tipo", DISPOSITIVO_NO_VALIDO)
      .put("actor", vendedor)
      .put("sesion", sesion)
      .put("huella_presentada", huellaPresentada)
      .put("t0", t0.toString());
    Envelope alerta = new Envelope(idAlerta, EventTypes.ALERTA_SEGURIDAD, "/seguridad/verificador", Instant.now(), vendedor, data);
    return publisher.publish(Topics.ALERTA_SEGURIDAD, vendedor, alerta).mapEmpty();
  }
}
