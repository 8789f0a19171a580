package ccp.etapas;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Inventario: reserves every line of an order, or none, by one atomic statement: stock is never negative, never
 * oversold, across any number of processes. Not enough stock is a business outcome: RECHAZADA, recorded like a
 * success.
 * <p>
 * The critical-section lab's answer for a hot product is combining: while one statement is in flight, the
 * reservations that arrive queue here — in this verticle's own state, no lock — and the next statement applies them
 * all, in arrival order, while stock lasts ({@code inventario.reservar}, migration V2). A product's row is then
 * locked and written once per batch instead of once per order. {@code inventario.lote-max} bounds a batch; 1 turns
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

  private record Pendiente(UUID pedido, JsonArray lineas, Promise<Resultado> resultado) {}

  private final SqlClient sql;
  private final int loteMax;
  private final ArrayDeque<Pendiente> pendientes = new ArrayDeque<>();
  private boolean enCurso;

  Inventario(SqlClient sql, int loteMax) {
    this.sql = sql;
    this.loteMax = loteMax;
  }

  @Override
  public Future<Resultado> aplicar(UUID pedido, JsonArray lineas) {
    Promise<Resultado> resultado = Promise.promise();
    pendientes.add(new Pendiente(pedido, lineas, resultado));
    if (!enCurso) reservarLote();
    return resultado.future();
  }

  /** Sends what is pending as one statement; when it answers, the next batch (what arrived meanwhile) goes. */
  private void reservarLote() {
    if (pendientes.isEmpty()) {
      enCurso = false;
      return;
    }
    enCurso = true;
    List<Pendiente> lote = new ArrayList<>(Math.min(loteMax, pendientes.size()));
    JsonArray pedidos = new JsonArray();
    while (lote.size() < loteMax && !pendientes.isEmpty()) {
      Pendiente p = pendientes.poll();
      lote.add(p);
      pedidos.add(new JsonObject().put("pedido", p.pedido().toString()).put("lineas", p.lineas()));
    }
    sql.preparedQuery(RESERVAR).execute(Tuple.of(pedidos)).onComplete(rows -> {
      if (rows.succeeded()) {
        Map<UUID, Resultado> porPedido = new HashMap<>();
        for (Row row : rows.result()) porPedido.put(row.getUUID("r_pedido"), new Resultado(row.getString("r_resultado"), row.getString("r_motivo")));
        for (Pendiente p : lote) {
          Resultado r = porPedido.get(p.pedido());
          if (r != null) p.resultado().complete(r);
          else p.resultado().fail(new IllegalStateException("inventario.reservar did not answer for " + p.pedido()));
        }
      } else {
        for (Pendiente p : lote) p.resultado().fail(rows.cause());
      }
      reservarLote();
    });
  }

  @Override
  public Future<Resultado> compensar(UUID pedido) {
    return sql.preparedQuery(LIBERAR).execute(Tuple.of(pedido)).map(x -> new Resultado(Resultado.COMPENSADA, "reserva liberada"));
  }
}
