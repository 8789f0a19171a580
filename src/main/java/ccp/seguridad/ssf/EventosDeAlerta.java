package ccp.seguridad.ssf;

import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The SETs an alert of {@code alerta.seguridad} becomes. The alert's own event carries the alert's id as its
 * {@code jti}, so a redelivered alert is the same SET. A reaction's outcomes (revoked, blocked, compensated) are one
 * event each (SSF: one event per SET), with {@code txn} the improper write, so a receiver sees they share a cause. They
 * go with the finished reaction's alert and, for the steps already done, with a stuck reaction's: an actor revoked is
 * told as revoked even while its block is refused. Their ids derive from the write and the event type, not from the
 * alert, so an outcome is one SET (stored once per stream) whichever of the two alerts carries it first.
 */
public final class EventosDeAlerta {

  /** Members of the alert that the SET carries elsewhere (jti, subject) or that only the Notificador needs. */
  private static final Set<String> OMITIDOS = Set.of("id_alerta", "tipo", "actor");
  /** The reaction's steps that have an outcome, in order, as {@code RegistroReacciones.Paso} names them, and their events. */
  private static final List<String> PASOS = List.of("REVOCADA", "BLOQUEADA", "COMPENSADA");
  private static final List<String> RESULTADOS = List.of(TiposEvento.SESION_REVOCADA, TiposEvento.CUENTA_DESHABILITADA,
    TiposEvento.ESCRITURA_COMPENSADA);

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
      case "ACCESO_INDEBIDO" -> conResultados(new EventoSsf(id, TiposEvento.ACCESO_INDEBIDO, alerta.getString("id_escritura"), actor,
        propio(alerta, ts, motivo(alerta))), alerta, "COMPENSADA", ts);
      case "REACCION_DETENIDA" -> conResultados(new EventoSsf(id, TiposEvento.REACCION_DETENIDA, alerta.getString("id_escritura"), actor,
        propio(alerta, ts, "reacción detenida; el actor sigue revocado")), alerta, alerta.getString("paso_hecho"), ts);
      case "DETECCION_DETENIDA" -> List.of(new EventoSsf(id, TiposEvento.DETECCION_DETENIDA, alerta.getString("id_escritura"), actor,
        propio(alerta, ts, "el Detector no puede verificar escrituras")));
      case "SENAL_RECIBIDA" -> List.of(new EventoSsf(id, TiposEvento.SENAL_RECIBIDA, alerta.getString("jti"), actor,
        propio(alerta, ts, "revocado por una señal del proveedor de identidad")));
      // A type added later is still stored and sent, under a project URI of its own name, until it gets a mapping.
      default -> List.of(new EventoSsf(id, TiposEvento.propio(tipo), null, actor, propio(alerta, ts, tipo)));
    };
  }

  /** The alert's own event, then one per outcome of the reaction's steps done up to {@code hecho}, in the steps' order. */
  private static List<EventoSsf> conResultados(EventoSsf propio, JsonObject alerta, String hecho, long ts) {
    List<EventoSsf> eventos = new ArrayList<>(List.of(propio));
    // ABIERTA (nothing done yet) is not among the steps: no outcome.
    int hechos = PASOS.indexOf(hecho) + 1;
    for (String tipo : RESULTADOS.subList(0, hechos)) {
      JsonObject evento = tipo.equals(TiposEvento.ESCRITURA_COMPENSADA)
        ? propio(alerta, ts, alerta.getString("reaccion", "escritura compensada")) : caep(ts, motivo(alerta));
      eventos.add(new EventoSsf(resultado(propio.txn(), tipo), tipo, propio.txn(), propio.sujeto(), evento));
    }
    return eventos;
  }

  private static String motivo(JsonObject alerta) {
    return "escritura indebida en " + alerta.getString("servicio") + " (" + alerta.getString("id_escritura") + ")";
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

  /** The {@code jti} of one outcome of the reaction to write {@code idEscritura}: the same from either alert. */
  private static String resultado(String idEscritura, String tipo) {
    return UUID.nameUUIDFromBytes(("reaccion " + idEscritura + " " + tipo).getBytes(StandardCharsets.UTF_8)).toString();
  }
}
