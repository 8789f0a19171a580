package ccp.seguridad.ssf;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;

import java.util.List;

/**
 * An event stream as stored ({@code seguridad.ssf_flujos}). Its JSON is SSF 1.0's Stream Configuration (§8.1.1); the
 * receiver's {@code authorization_header} is written, never read back.
 */
record Stream(String id, String aud, String metodo, String endpointUrl, String authorizationHeader, List<String> solicitados,
             List<String> entregados, String descripcion, String estado, String motivoEstado) {

  static final String PUSH = "urn:ietf:rfc:8935";
  static final String POLL = "urn:ietf:rfc:8936";

  static final String COLUMNAS = "id_flujo, aud, metodo, endpoint_url, authorization_header, eventos_solicitados, "
    + "eventos_entregados, descripcion, estado, motivo_estado";

  static Stream of(Row row) {
    return new Stream(row.getString("id_flujo"), row.getString("aud"), row.getString("metodo"), row.getString("endpoint_url"),
      row.getString("authorization_header"), List.of(row.getArrayOfStrings("eventos_solicitados")),
      List.of(row.getArrayOfStrings("eventos_entregados")), row.getString("descripcion"), row.getString("estado"),
      row.getString("motivo_estado"));
  }

  boolean entrega(String tipoEvento) {
    return entregados.contains(tipoEvento);
  }

  /** {@code issuer}: the transmitter's, which also makes a poll stream's endpoint. */
  JsonObject toJson(String issuer, int minVerificationInterval) {
    JsonObject delivery = new JsonObject().put("method", metodo)
      .put("endpoint_url", PUSH.equals(metodo) ? endpointUrl : issuer + ApiSsf.POLL + id);
    JsonObject json = new JsonObject()
      .put("stream_id", id)
      .put("iss", issuer)
      .put("aud", aud)
      .put("events_supported", new JsonArray(TiposEvento.SOPORTADOS))
      .put("events_requested", new JsonArray(solicitados))
      .put("events_delivered", new JsonArray(entregados))
      .put("delivery", delivery)
      .put("min_verification_interval", minVerificationInterval);
    if (descripcion != null) json.put("description", descripcion);
    return json;
  }

  JsonObject estadoJson() {
    JsonObject json = new JsonObject().put("stream_id", id).put("status", estado);
    if (motivoEstado != null) json.put("reason", motivoEstado);
    return json;
  }
}
