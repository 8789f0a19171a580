package ccp.seguridad.ssf;

import io.vertx.core.json.JsonObject;

/**
 * One security event, before it is addressed to a stream: its SET's {@code jti}, {@code txn}, subject and the one
 * member of {@code events} (SSF 1.0 §4.2.1).
 */
record EventoSsf(String jti, String tipo, String txn, String sujeto, JsonObject evento) {

  /** The SET's claims for one receiver: {@code sub_id} is an opaque subject (RFC 9493); no {@code sub}, no {@code exp}. */
  JsonObject claims(String iss, String aud, long iat) {
    JsonObject claims = new JsonObject()
      .put("jti", jti)
      .put("iss", iss)
      .put("aud", aud)
      .put("iat", iat)
      .put("sub_id", new JsonObject().put("format", "opaque").put("id", sujeto))
      .put("events", new JsonObject().put(tipo, evento));
    if (txn != null) claims.put("txn", txn);
    return claims;
  }
}
