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
 * Inventario: reserves every line of an order, or none, by one atomic statement: stock is never negative, never
 * oversold, across any number of processes. Not enough stock is a business outcome: RECHAZADA, recorded like a
 * success.
 * <p>
 * The critical-section lab's answer for a hot product is combining ({@link Combiner}): the reservations that arrive
 * while one statement is in flight are applied by the next, all together, in arrival order, while stock lasts
 * ({@code inventario.reservar}, migration V2). A product's row is then locked and written once per batch instead of
 * once per order. {@code inventario.lote-max} bounds a batch; 1 turns
 * combining off (one statement per order).
 */
final class Inventario implements Efecto {

  private static final String RESERVAR = "SELECT r_pedido, r_resultado, r_motivo FROM inventario.reservar($1::jsonb)";

  /**
   * Undoing a reservation: the stage's key is taken first, so a command still in flight can no longer reserve; a
   * reservation already made returns its units to stock, once (its own key).
   */
  private static final String LIBERAR = """
    WITH bloqueo AS (
           INSERT INTO inventario.etapa_procesada (pedido, etapa, resultado, motivo) VALUES ($1, 'INVENTARIO', 'RECHAZADA', 'cadena detenida')
           ON CONFLICT (pedido, etapa) DO NOTHING),
         marca AS (
           INSERT INTO inventario.etapa_procesada (pedido, etapa, resultado, motivo) VALUES ($1, 'COMPENSACION', 'COMPENSADA', 'reserva liberada')
           ON CONFLICT (pedido, etapa) DO NOTHING
           RETURNING pedido),
         liberada AS (
           UPDATE inventario.stock s SET disponible = s.disponible + r.cantidad
           FROM inventario.reservas r, marca WHERE r.pedido = marca.pedido AND s.producto = r.producto
           RETURNING s.producto)
    SELECT count(*) AS productos FROM liberada""";

  private final SqlClient sql;
  private final Combiner<UUID, Orden, Resultado> reservas;

  Inventario(SqlClient sql, int loteMax) {
    this.sql = sql;
    this.reservas = new Combiner<>(loteMax, Orden::pedido, this::reservar);
  }

  @Override
  public Future<Resultado> aplicar(UUID pedido, JsonArray lineas) {
    return reservas.submit(new Orden(pedido, lineas)).compose(r -> Efecto.respuesta(pedido, r));
  }

  /** One statement for the batch, in arrival order. */
  private Future<Map<UUID, Resultado>> reservar(List<Orden> lote) {
    JsonArray pedidos = new JsonArray();
    for (Orden r : lote) pedidos.add(new JsonObject().put("pedido", r.pedido().toString()).put("lineas", r.lineas()));
    return sql.preparedQuery(RESERVAR).execute(Tuple.of(pedidos)).map(rows -> Combiner.byKey(rows,
      row -> row.getUUID("r_pedido"), row -> new Resultado(ResultadoEtapa.valueOf(row.getString("r_resultado")), row.getString("r_motivo"))));
  }

  @Override
  public Future<Resultado> compensar(UUID pedido) {
    return sql.preparedQuery(LIBERAR).execute(Tuple.of(pedido)).map(x -> new Resultado(ResultadoEtapa.COMPENSADA, "reserva liberada"));
  }
}
