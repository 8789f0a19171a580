package ccp.cadena;

import ccp.platform.kafka.PoisonMessageException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** The order's lines as the chain's messages carry them: checked once where a message enters. */
public final class Lineas {

  private Lineas() {}

  /** @throws PoisonMessageException unless {@code data.lineas} is a non-empty list of {producto, positive cantidad} */
  public static JsonArray de(JsonObject data) {
    if (!(data.getValue("lineas") instanceof JsonArray lineas) || lineas.isEmpty()) {
      throw new PoisonMessageException("'lineas' must be a non-empty list");
    }
    for (Object linea : lineas) {
      if (!(linea instanceof JsonObject l) || !(l.getValue("producto") instanceof String)
        || !(l.getValue("cantidad") instanceof Integer q) || q < 1) {
        throw new PoisonMessageException("every line needs a 'producto' and a positive integer 'cantidad'");
      }
    }
    return lineas;
  }
}
