package ccp.etapas;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Inventario: reserves every line of the order, or none. Each product is decremented by one atomic statement
 * ({@code … WHERE disponible >= q}): stock is never negative, never oversold, across any number of processes, and a
 * product waits only for writers of that same product. Products are taken in name order, so two orders sharing
 * products cannot deadlock. Not enough stock is a business outcome: RECHAZADA, recorded like a success.
 */
final class Inventario implements Efecto {

  private static final String MARCAR = """
    INSERT INTO inventario.etapa_procesada (pedido, etapa, resultado, motivo) VALUES ($1, 'INVENTARIO', $2, $3)
    ON CONFLICT (pedido, etapa) DO NOTHING""";
  private static final String RESULTADO = """
    SELECT resultado, motivo FROM inventario.etapa_procesada WHERE pedido = $1 AND etapa = 'INVENTARIO'""";
  private static final String DESCONTAR = """
    UPDATE inventario.stock SET disponible = disponible - $2 WHERE producto = $1 AND disponible >= $2""";
  private static final String RESERVAR = "INSERT INTO inventario.reservas (pedido, producto, cantidad) VALUES ($1, $2, $3)";

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

  /** Thrown inside the transaction to roll back the lines already reserved. */
  private static final class SinStock extends RuntimeException {
    SinStock(String producto) {
      super("sin stock de " + producto, null, false, false);
    }
  }

  private final Pool pool;
  private final SqlClient sql;

  Inventario(Pool pool, SqlClient sql) {
    this.pool = pool;
    this.sql = sql;
  }

  @Override
  public Future<Resultado> aplicar(UUID pedido, JsonArray lineas) {
    Map<String, Integer> porProducto = new TreeMap<>();
    for (int i = 0; i < lineas.size(); i++) {
      JsonObject linea = lineas.getJsonObject(i);
      porProducto.merge(linea.getString("producto"), linea.getInteger("cantidad"), Integer::sum);
    }
    return pool.withTransaction(conn -> conn.preparedQuery(MARCAR).execute(Tuple.of(pedido, Resultado.COMPLETADA, null))
        .compose(marca -> marca.rowCount() == 0 ? Future.succeededFuture() : reservar(conn, pedido, porProducto)))
      .recover(err -> err instanceof SinStock
        ? sql.preparedQuery(MARCAR).execute(Tuple.of(pedido, Resultado.RECHAZADA, err.getMessage())).mapEmpty()
        : Future.failedFuture(err))
      .compose(done -> sql.preparedQuery(RESULTADO).execute(Tuple.of(pedido)))
      .map(Resultado::of);
  }

  @Override
  public Future<Resultado> compensar(UUID pedido) {
    return sql.preparedQuery(LIBERAR).execute(Tuple.of(pedido)).map(x -> new Resultado(Resultado.COMPENSADA, "reserva liberada"));
  }

  private Future<Void> reservar(SqlConnection conn, UUID pedido, Map<String, Integer> porProducto) {
    Future<Void> chain = Future.succeededFuture();
    for (Map.Entry<String, Integer> linea : porProducto.entrySet()) {
      chain = chain.compose(x -> conn.preparedQuery(DESCONTAR).execute(Tuple.of(linea.getKey(), linea.getValue()))
        .compose(rows -> rows.rowCount() == 1 ? Future.succeededFuture() : Future.failedFuture(new SinStock(linea.getKey()))));
    }
    List<Tuple> reservas = new ArrayList<>();
    porProducto.forEach((producto, cantidad) -> reservas.add(Tuple.of(pedido, producto, cantidad)));
    return chain.compose(x -> conn.preparedQuery(RESERVAR).executeBatch(reservas)).mapEmpty();
  }
}
