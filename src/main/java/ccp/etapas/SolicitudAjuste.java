package ccp.etapas;

import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A stock adjustment: the product, the units added (positive) or removed (negative), and an optional reason, from a
 * body the contract accepted ({@code SolicitudAjuste}).
 */
record SolicitudAjuste(String producto, int cantidad, String motivo) {

  static SolicitudAjuste from(JsonObject body) {
    return new SolicitudAjuste(body.getString("producto"), body.getInteger("cantidad"), body.getString("motivo"));
  }

  /** A hash of what was asked, to tell a retry (same body) from a reuse of the key (different body). */
  String resumenCuerpo() {
    String canonical = new JsonObject().put("producto", producto).put("cantidad", cantidad).put("motivo", motivo).encode();
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
