package ccp.pedidos;

import ccp.platform.http.JsonBody;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Pattern;

/** A validated order request: the tendero and its lines. Anything else in the body is a 400 naming the field. */
record SolicitudPedido(String tendero, JsonArray lineas) {

  static final int MAX_LINEAS = 100;
  static final int MAX_CANTIDAD = 10_000;
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final String ID_SHAPE = "1 to 64 letters, digits, _ or -";

  static SolicitudPedido from(JsonObject body) {
    JsonBody.text(body, "tendero", ID, ID_SHAPE);
    Object raw = body.getValue("lineas");
    if (raw == null) throw new JsonBody.BadRequest("lineas", "is required (a list of {producto, cantidad})");
    if (!(raw instanceof JsonArray list)) throw new JsonBody.BadRequest("lineas", "must be a list of {producto, cantidad}");
    if (list.isEmpty() || list.size() > MAX_LINEAS) throw new JsonBody.BadRequest("lineas", "must hold 1 to " + MAX_LINEAS + " lines");
    JsonArray lineas = new JsonArray();
    for (int i = 0; i < list.size(); i++) {
      String field = "lineas[" + i + "]";
      if (!(list.getValue(i) instanceof JsonObject linea)) throw new JsonBody.BadRequest(field, "must be an object {producto, cantidad}");
      for (String name : linea.fieldNames()) {
        if (!Set.of("producto", "cantidad").contains(name)) throw new JsonBody.BadRequest(field + "." + name, "unknown field (allowed: producto, cantidad)");
      }
      Object producto = linea.getValue("producto");
      if (!(producto instanceof String p) || !ID.matcher(p).matches()) {
        throw new JsonBody.BadRequest(field + ".producto", "must be " + ID_SHAPE);
      }
      Object cantidad = linea.getValue("cantidad");
      if (!(cantidad instanceof Integer q) || q < 1 || q > MAX_CANTIDAD) {
        throw new JsonBody.BadRequest(field + ".cantidad", "must be an integer from 1 to " + MAX_CANTIDAD);
      }
      lineas.add(new JsonObject().put("producto", p).put("cantidad", q));
    }
    return new SolicitudPedido(body.getString("tendero"), lineas);
  }

  /** A hash of what was asked, to tell a retry (same body) from a reuse of the key (different body). */
  String resumenCuerpo() {
    String canonical = new JsonObject().put("tendero", tendero).put("lineas", lineas).encode();
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
