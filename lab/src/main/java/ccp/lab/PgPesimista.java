package ccp.lab;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowIterator;
import io.vertx.sqlclient.Tuple;

/**
 * Pessimistic, in PostgreSQL: a transaction locks the product's row ({@code SELECT … FOR UPDATE}), checks, writes and
 * commits; every other writer of that row waits for the commit. Correct across processes, but the row stays locked
 * for the round trips between the statements. The wait recorded is the {@code FOR UPDATE} statement's duration.
 */
final class PgPesimista implements Estrategia {

  private final LabDb db;
  private final TrabajoLento trabajo;
  private final LockWait espera;

  PgPesimista(LabDb db, TrabajoLento trabajo, LockWait espera) {
    this.db = db;
    this.trabajo = trabajo;
    this.espera = espera;
  }

  @Override
  public boolean reservar(String producto, int cantidad) {
    Estrategia.validar(producto, cantidad);
    boolean aprobada = db.pool().withTransaction(conn -> {
      long pedido = System.nanoTime();
      return conn.preparedQuery("SELECT disponible FROM lab.stock WHERE producto = $1 FOR UPDATE").execute(Tuple.of(producto))
        .compose(filas -> {
          espera.record(System.nanoTime() - pedido);
          RowIterator<Row> fila = filas.iterator();
          int disponible = fila.hasNext() ? fila.next().getInteger(0) : 0;
          if (disponible < cantidad) return Future.succeededFuture(false);
          return conn.preparedQuery("UPDATE lab.stock SET disponible = $2 WHERE producto = $1")
            .execute(Tuple.of(producto, disponible - cantidad)).map(true);
        });
    }).await();
    trabajo.completar();
    return aprobada;
  }

  @Override
  public int disponible(String producto) {
    return db.disponible(producto);
  }
}
