package ccp.etapas;

import ccp.platform.http.JsonBody;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A validated stock adjustment: the product, the units added (positive) or removed (negative), and an optional reason.
 * Anything else in the body is a 400 naming the field.
 */
record SolicitudAjuste(String producto, int cantidad, String motivo) {

  static final int MAX_CANTIDAD = 1_000_000;
  static final Set<String> CAMPOS = Set.of("producto", "cantidad", "motivo");
  private static final Pattern PRODUCTO = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final Pattern MOTIVO = Pattern.compile("[^\\p{Cntrl}]{1,500}");

  static SolicitudAjuste from(JsonObject body) {
    String producto = JsonBody.text(body, "producto", PRODUCTO, "1 to 64 letters, digits, _ or -");
    Object cantidad = body.getValue("cantidad");
    if (cantidad == null) throw new JsonBody.BadRequest("cantidad", "is required (the units added, or removed when negative)");
    if (!(cantidad instanceof Integer q) || q == 0 || Math.abs(q) > MAX_CANTIDAD) {
      throw new JsonBody.BadRequest("cantidad", "must be a non-zero integer from -" + MAX_CANTIDAD + " to " + MAX_CANTIDAD);
    }
    String motivo = body.containsKey("motivo") ? JsonBody.text(body, "motivo", MOTIVO, "1 to 500 printable characters") : null;
    return new SolicitudAjuste(producto, q, motivo);
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
