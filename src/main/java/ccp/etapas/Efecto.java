package ccp.etapas;

import ccp.cadena.ResultadoEtapa;
import ccp.platform.db.Combiner;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.List;
import java.util.Map;
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

  /** One order of a batch: what {@link #aplicar} was given. */
  record Orden(UUID pedido, JsonArray lineas) {}

  /**
   * Runs a batch statement that takes its orders as one jsonb array of {@code {pedido, lineas, unidades}} and answers
   * {@code pedido, resultado, motivo} for each.
   */
  static Future<Map<UUID, Resultado>> porLote(SqlClient sql, String sentencia, List<Orden> lote) {
    JsonArray pedidos = new JsonArray();
    for (Orden o : lote) {
      pedidos.add(new JsonObject().put("pedido", o.pedido().toString()).put("lineas", o.lineas()).put("unidades", unidades(o.lineas())));
    }
    return sql.preparedQuery(sentencia).execute(Tuple.of(pedidos)).map(rows -> Combiner.byKey(rows,
      row -> row.getUUID("pedido"), row -> new Resultado(ResultadoEtapa.valueOf(row.getString("resultado")), row.getString("motivo"))));
  }

  /**
   * The batch statement of a stage whose effect is one row per order ({@code pedido, lineas, unidades} in
   * {@code schema.tabla}): EtapaProcesada and that row for each new order, in one statement; an order decided before
   * (done, or its key taken by a compensation) answers its first result and gets no row. Keys are inserted in order,
   * so two batches of it never wait on each other in a cycle. Its answer is read by {@link #porLote}.
   * <p>
   * The orders decided before are looked up one by one, by key: joined with the batch, whose size the planner cannot
   * know, they were read by a scan of the stage's whole history (163 buffers and 6 ms for 8 orders beside 17,000 decided
   * ones, against 24 buffers by key), so each batch cost more the longer the system had run. The {@code LIMIT} keeps
   * the lookup a subquery of its own, which the planner cannot turn back into that join.
   */
  static String registroPorLote(String schema, String etapa, String tabla) {
    return """
      WITH entrada AS (
             SELECT t.pedido, t.lineas, t.unidades FROM jsonb_to_recordset($1::jsonb) AS t (pedido uuid, lineas jsonb, unidades integer)),
           marca AS (
             INSERT INTO %1$s.etapa_procesada (pedido, etapa, resultado)
             SELECT pedido, '%2$s', 'COMPLETADA' FROM entrada ORDER BY pedido
             ON CONFLICT (pedido, etapa) DO NOTHING
             RETURNING pedido, resultado, motivo),
           efecto AS (
             INSERT INTO %1$s.%3$s (pedido, lineas, unidades)
             SELECT entrada.pedido, entrada.lineas, entrada.unidades FROM entrada JOIN marca USING (pedido))
      SELECT pedido, resultado, motivo FROM marca
      UNION ALL
      SELECT p.pedido, p.resultado, p.motivo FROM entrada CROSS JOIN LATERAL (
        SELECT p.pedido, p.resultado, p.motivo FROM %1$s.etapa_procesada p
        WHERE p.pedido = entrada.pedido AND p.etapa = '%2$s' LIMIT 1) p""".formatted(schema, etapa, tabla);
  }

  /** A batch's answer for one order; none means the statement could not decide it yet (another process's key). */
  static Future<Resultado> respuesta(UUID pedido, Resultado resultado) {
    return resultado != null
      ? Future.succeededFuture(resultado)
      : Future.failedFuture(new IllegalStateException("no result yet for order " + pedido + " (decided concurrently)"));
  }

  private static int unidades(JsonArray lineas) {
    int total = 0;
    for (int i = 0; i < lineas.size(); i++) total += lineas.getJsonObject(i).getInteger("cantidad");
    return total;
  }
}
