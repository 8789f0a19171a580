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
 * PublicadorAlertas (A9, later B14, and a stuck reaction): publishes on {@code alerta.seguridad}, key actor. The alert's id derives from
 * what caused it, so a cause handled twice yields the same {@code id_alerta} and the Notificador delivers it once.
 */
final class PublicadorAlertas {

  static final String DISPOSITIVO_NO_VALIDO = "DISPOSITIVO_NO_VALIDO";
  static final String ACCESO_INDEBIDO = "ACCESO_INDEBIDO";
  static final String REACCION_DETENIDA = "REACCION_DETENIDA";
  static final String DETECCION_DETENIDA = "DETECCION_DETENIDA";
  static final String SENAL_RECIBIDA = "SENAL_RECIBIDA";

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
      .put("t0", t0.toString())
      // A9: when the Verificador found the device unknown, between the session (t0) and the notification (A12).
      .put("detectada_en", Instant.now().toString());
    return publicar(idAlerta, "/seguridad/verificador", vendedor, data);
  }

  /**
   * B14: the reaction to an improper write is finished; t_det lets the Notificador measure ASR-2. {@code compensacion}
   * is what B11 did (null for a reaction compensated before it was recorded); a stock adjustment whose added units
   * were partly reserved meanwhile is reverted only in part, and the alert says how many units stayed.
   */
  Future<Void> accesoIndebido(RegistroReacciones.Reaccion reaccion, JsonObject compensacion) {
    String idAlerta = idAlerta(ACCESO_INDEBIDO, reaccion.idEscritura().toString());
    int noRevertidas = compensacion == null ? 0 : compensacion.getInteger("no_revertidas", 0);
    JsonObject data = new JsonObject()
      .put("id_alerta", idAlerta)
      .put("tipo", ACCESO_INDEBIDO)
      .put("actor", reaccion.actor())
      .put("servicio", reaccion.servicio())
      .put(reaccion.campo(), reaccion.pedido())
      .put("id_escritura", reaccion.idEscritura().toString())
      .put("compensacion", compensacion)
      .put("reaccion", noRevertidas == 0 ? "revocado, bloqueado, escritura compensada"
        : "revocado, bloqueado, escritura compensada en parte: " + noRevertidas + " de " + compensacion.getInteger("cantidad")
          + " unidades de " + compensacion.getString("producto") + " ya estaban reservadas y no se pudieron retirar")
      .put("t_det", reaccion.tDet().toString());
    return publicar(idAlerta, "/seguridad/reaccion", reaccion.actor(), data);
  }

  /** The identity provider told us (a SET) to stop an actor, and it is revoked: the area hears of it like of its own reactions. */
  Future<Void> senalRecibida(String iss, String jti, String tipoEvento, String actor, Instant recibidoEn) {
    String idAlerta = idAlerta(SENAL_RECIBIDA, iss + " " + jti);
    JsonObject data = new JsonObject()
      .put("id_alerta", idAlerta)
      .put("tipo", SENAL_RECIBIDA)
      .put("actor", actor)
      .put("iss", iss)
      .put("jti", jti)
      .put("tipo_evento", tipoEvento)
      .put("reaccion", "revocado")
      .put("recibido_en", recibidoEn.toString());
    return publicar(idAlerta, "/seguridad/receptor-senales", actor, data);
  }

  /**
   * A reaction past ASR-2's budget whose next step a peer keeps refusing or not answering (no t_det, so ASR-2 is not
   * measured as met). {@code paso_hecho} is the last step done: the Notificador sends the outcomes up to it (revoked,
   * blocked, compensated) as SETs with this alert, so the receivers hear what did happen while the rest waits.
   */
  Future<Void> reaccionDetenida(RegistroReacciones.Reaccion reaccion, String error) {
    JsonObject data = new JsonObject()
      .put("actor", reaccion.actor())
      .put("servicio", reaccion.servicio())
      .put(reaccion.campo(), reaccion.pedido())
      .put("id_escritura", reaccion.idEscritura().toString())
      .put("paso_hecho", reaccion.paso().name())
      .put("ultimo_error", error)
      .put("detectada_en", reaccion.tDet().toString());
    return detenida(REACCION_DETENIDA, "/seguridad/reaccion", reaccion.idEscritura().toString(), data, "reacción a la escritura indebida "
      + reaccion.idEscritura() + " de " + reaccion.actor() + " detenida tras " + reaccion.paso() + ": " + error
      + " (el actor sigue revocado)");
  }

  /** The Detector has not been able to check writes against the Gestor for longer than ASR-2's budget. */
  Future<Void> deteccionDetenida(String actor, String idEscritura, Instant desde, String error) {
    JsonObject data = new JsonObject()
      .put("actor", actor)
      .put("id_escritura", idEscritura)
      .put("sin_verificar_desde", desde.toString())
      .put("ultimo_error", error);
    return detenida(DETECCION_DETENIDA, "/seguridad/detector", desde + "/" + idEscritura, data, "el Detector no puede verificar escrituras desde "
      + desde + " (la primera: " + idEscritura + " de " + actor + "): " + error + "; ninguna se descarta, se reintentan");
  }

  /**
   * Told to the security area (an alert) and to the Bandeja (an item through {@code cola.fallidos}, the topic the cadena
   * role's ConsumidorBandeja files, with {@code motivo}). Both ids derive from the cause: told twice, filed once.
   */
  private Future<Void> detenida(String tipo, String source, String causa, JsonObject data, String motivo) {
    String idAlerta = idAlerta(tipo, causa);
    String actor = data.getString("actor");
    JsonObject alerta = data.copy().put("id_alerta", idAlerta).put("tipo", tipo);
    Envelope item = new Envelope(idAlerta("BANDEJA:" + tipo, causa), EventTypes.REACCION_DETENIDA, source,
      Instant.now(), actor, alerta.copy().put("motivo", motivo));
    return publicar(idAlerta, source, actor, alerta)
      .compose(x -> publisher.publish(Topics.COLA_FALLIDOS, actor, item)).mapEmpty();
  }

  private Future<Void> publicar(String idAlerta, String source, String actor, JsonObject data) {
    Envelope alerta = new Envelope(idAlerta, EventTypes.ALERTA_SEGURIDAD, source, Instant.now(), actor, data);
    return publisher.publish(Topics.ALERTA_SEGURIDAD, actor, alerta).mapEmpty();
  }

  private static String idAlerta(String tipo, String causa) {
    return UUID.nameUUIDFromBytes((tipo + ":" + causa).getBytes(StandardCharsets.UTF_8)).toString();
  }
}
