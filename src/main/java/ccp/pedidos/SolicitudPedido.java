package ccp.pedidos;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** An order request: the tendero and its lines, from a body the contract accepted ({@code SolicitudPedido}). */
record SolicitudPedido(String tendero, JsonArray lineas) {

  static SolicitudPedido from(JsonObject body) {
    // Each line rebuilt with an int quantity: 2 and 2.0 are the same request (and the same body hash).
    JsonArray lineas = new JsonArray();
    for (Object item : body.getJsonArray("lineas")) {
      JsonObject linea = (JsonObject) item;
      lineas.add(new JsonObject().put("producto", linea.getString("producto")).put("cantidad", linea.getInteger("cantidad")));
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
