package ccp.etapas;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;

import java.util.UUID;

/**
 * A stage's effect: applied once per order whatever the redeliveries (EtapaProcesada, unique (pedido, etapa), is
 * written with it), answering what it did the first time.
 */
interface Efecto {

  Future<Resultado> aplicar(UUID pedido, JsonArray lineas);

  /**
   * Undoes the effect for an order rejected later in the chain or stopped by the Reacción, and takes the stage's key
   * so that a command still in flight does nothing. Idempotent.
   */
  Future<Resultado> compensar(UUID pedido);

  static int unidades(JsonArray lineas) {
    int total = 0;
    for (int i = 0; i < lineas.size(); i++) total += lineas.getJsonObject(i).getInteger("cantidad");
    return total;
  }
}
