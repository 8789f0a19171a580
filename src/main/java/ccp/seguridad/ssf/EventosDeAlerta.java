package ccp.seguridad.ssf;

import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The SETs an alert of {@code alerta.seguridad} becomes. The alert's own event carries the alert's id as its
 * {@code jti}, so a redelivered alert is the same SET; the outcomes of a finished reaction (revoked, blocked,
 * compensated) are one event each (SSF: one event per SET), with ids derived from the alert's and its {@code txn}
 * the improper write, so a receiver sees they share a cause.
 */
public final class EventosDeAlerta {

  /** Members of the alert that the SET carries elsewhere (jti, subject) or that only the Notificador needs. */
  private static final Set<String> OMITIDOS = Set.of("id_alerta", "tipo", "actor");

  private EventosDeAlerta() {}

  /**
   * @param alerta the alert's data; {@code cuando} its time (the envelope's), for {@code event_timestamp}
   */
  public static List<EventoSsf> de(JsonObject alerta, Instant cuando) {
    String id = alerta.getString("id_alerta");
    String actor = alerta.getString("actor");
    String tipo = alerta.getString("tipo");
    long ts = cuando.getEpochSecond();
    return switch (tipo) {
      case "DISPOSITIVO_NO_VALIDO" -> List.of(new EventoSsf(id, TiposEvento.DISPOSITIVO_NO_VALIDO, alerta.getString("sesion"), actor,
        propio(alerta, ts, "sesión abierta desde un dispositivo que no es el registrado del vendedor")));
      case "ACCESO_INDEBIDO" -> {
        String txn = alerta.getString("id_escritura");
        String motivo = "escritura indebida en " + alerta.getString("servicio") + " (" + txn + ")";
        yield List.of(
          new EventoSsf(id, TiposEvento.ACCESO_INDEBIDO, txn, actor, propio(alerta, ts, motivo)),
          new EventoSsf(derivado(id, TiposEvento.SESION_REVOCADA), TiposEvento.SESION_REVOCADA, txn, actor, caep(ts, motivo)),
          new EventoSsf(derivado(id, TiposEvento.CUENTA_DESHABILITADA), TiposEvento.CUENTA_DESHABILITADA, txn, actor, caep(ts, motivo)),
          new EventoSsf(derivado(id, TiposEvento.ESCRITURA_COMPENSADA), TiposEvento.ESCRITURA_COMPENSADA, txn, actor,
            propio(alerta, ts, alerta.getString("reaccion", "escritura compensada"))));
      }
      case "REACCION_DETENIDA" -> List.of(new EventoSsf(id, TiposEvento.REACCION_DETENIDA, alerta.getString("id_escritura"), actor,
        propio(alerta, ts, "reacción detenida; el actor sigue revocado")));
      case "DETECCION_DETENIDA" -> List.of(new EventoSsf(id, TiposEvento.DETECCION_DETENIDA, alerta.getString("id_escritura"), actor,
        propio(alerta, ts, "el Detector no puede verificar escrituras")));
      case "SENAL_RECIBIDA" -> List.of(new EventoSsf(id, TiposEvento.SENAL_RECIBIDA, alerta.getString("jti"), actor,
        propio(alerta, ts, "revocado por una señal del proveedor de identidad")));
      // A type added later is still stored and sent, under a project URI of its own name, until it gets a mapping.
      default -> List.of(new EventoSsf(id, TiposEvento.propio(tipo), null, actor, propio(alerta, ts, tipo)));
    };
  }

  /** A project event: the alert's members, and CAEP's optional claims where they mean the same. */
  private static JsonObject propio(JsonObject alerta, long ts, String motivo) {
    JsonObject evento = caep(ts, motivo);
    alerta.forEach(member -> {
      if (!OMITIDOS.contains(member.getKey())) evento.put(member.getKey(), member.getValue());
    });
    return evento;
  }

  /** CAEP's optional claims (CAEP 1.0 §2): the reaction is a policy's, its reason for the area's logs. */
  private static JsonObject caep(long ts, String motivo) {
    return new JsonObject().put("event_timestamp", ts).put("initiating_entity", "policy")
      .put("reason_admin", new JsonObject().put("es", motivo));
  }

  private static String derivado(String idAlerta, String tipo) {
    return UUID.nameUUIDFromBytes((idAlerta + " " + tipo).getBytes(StandardCharsets.UTF_8)).toString();
  }
}
