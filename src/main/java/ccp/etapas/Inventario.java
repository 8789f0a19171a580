package ccp.etapas;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.UUID;

/**
 * Inventario: reserves every line of the order, or none, with one atomic statement: stock is never negative, never
 * oversold, across any number of processes, and a product waits only for writers of that same product. Not enough
 * stock is a business outcome: RECHAZADA, recorded like a success.
 */
final class Inventario implements Efecto {

  /**
   * The whole reservation in one statement, so row locks are held for one statement, not across round trips: the
   * order's products are locked in name order (two orders can never deadlock), checked, and all decremented — or
   * none, and the order is RECHAZADA. EtapaProcesada is inserted by the same statement; a redelivered command finds
   * it, changes nothing, and answers the first result.
   */
  private static final String RESERVAR = """
    WITH pedidas AS (
           SELECT producto, sum(cantidad)::int AS q
           FROM jsonb_to_recordset($2::jsonb) AS l (producto text, cantidad int) GROUP BY producto),
         bloqueadas AS (
           SELECT s.producto, s.disponible FROM inventario.stock s
           WHERE s.producto IN (SELECT producto FROM pedidas)
           ORDER BY s.producto FOR UPDATE),
         faltante AS (
           SELECT p.producto FROM pedidas p LEFT JOIN bloqueadas b ON b.producto = p.producto
           WHERE b.producto IS NULL OR b.disponible < p.q
           ORDER BY p.producto LIMIT 1),
         marca AS (
           INSERT INTO inventario.etapa_procesada (pedido, etapa, resultado, motivo)
           SELECT $1, 'INVENTARIO',
                  CASE WHEN EXISTS (SELECT 1 FROM faltante) THEN 'RECHAZADA' ELSE 'COMPLETADA' END,
                  (SELECT 'sin stock de ' || producto FROM faltante)
           ON CONFLICT (pedido, etapa) DO NOTHING
           RETURNING resultado, motivo),
         descontado AS (
           UPDATE inventario.stock s SET disponible = s.disponible - p.q
           FROM pedidas p
           WHERE s.producto = p.producto AND EXISTS (SELECT 1 FROM marca WHERE resultado = 'COMPLETADA')
           RETURNING s.producto, p.q),
         reservas AS (INSERT INTO inventario.reservas (pedido, producto, cantidad) SELECT $1, producto, q FROM descontado)
    SELECT resultado, motivo FROM marca
    UNION ALL
    SELECT resultado, motivo FROM inventario.etapa_procesada WHERE pedido = $1 AND etapa = 'INVENTARIO'""";

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

  Inventario(SqlClient sql) {
    this.sql = sql;
  }

  @Override
  public Future<Resultado> aplicar(UUID pedido, JsonArray lineas) {
    return sql.preparedQuery(RESERVAR).execute(Tuple.of(pedido, lineas)).map(Resultado::of);
  }

  @Override
  public Future<Resultado> compensar(UUID pedido) {
    return sql.preparedQuery(LIBERAR).execute(Tuple.of(pedido)).map(x -> new Resultado(Resultado.COMPENSADA, "reserva liberada"));
  }
}
