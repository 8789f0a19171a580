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
  static final String ACCESO_INDEBIDO = "ACCESO_INDEBIDO";

  private final EventPublisher publisher;

  PublicadorAlertas(EventPublisher publisher) {
    this.publisher = publisher;
  }

  Future<Void> dispositivoNoValido(String sesion, String vendedor, String huellaPresentada, Instant t0) {
    String idAlerta = idAlerta(DISPOSITIVO_NO_VALIDO, sesion);
    JsonObject data = new JsonObject()
      .put("id_alerta", idAlerta)
      .put("tipo", DISPOSITIVO_NO_VALIDO)
      .put("actor", vendedor)
      .put("sesion", sesion)
      .put("huella_presentada", huellaPresentada)
      .put("t0", t0.toString());
    return publicar(idAlerta, "/seguridad/verificador", vendedor, data);
  }

  /** B14: the reaction to an improper write is finished; t_det lets the Notificador measure ASR-2. */
  Future<Void> accesoIndebido(RegistroReacciones.Reaccion reaccion) {
    String idAlerta = idAlerta(ACCESO_INDEBIDO, reaccion.idEscritura().toString());
    JsonObject data = new JsonObject()
      .put("id_alerta", idAlerta)
      .put("tipo", ACCESO_INDEBIDO)
      .put("actor", reaccion.actor())
      .put("servicio", reaccion.servicio())
      .put("pedido", reaccion.pedido())
      .put("id_escritura", reaccion.idEscritura().toString())
      .put("reaccion", "revocado, bloqueado, escritura compensada")
      .put("t_det", reaccion.tDet().toString());
    return publicar(idAlerta, "/seguridad/reaccion", reaccion.actor(), data);
  }

  private Future<Void> publicar(String idAlerta, String source, String actor, JsonObject data) {
    Envelope alerta = new Envelope(idAlerta, EventTypes.ALERTA_SEGURIDAD, source, Instant.now(), actor, data);
    return publisher.publish(Topics.ALERTA_SEGURIDAD, actor, alerta).mapEmpty();
  }

  private static String idAlerta(String tipo, String causa) {
    return UUID.nameUUIDFromBytes((tipo + ":" + causa).getBytes(StandardCharsets.UTF_8)).toString();
  }
}
