package ccp.lab;

import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowIterator;
import io.vertx.sqlclient.Tuple;

/**
 * The reference's warning made concrete: a read, a check and a write of the value read, under a lock of this process.
 * Alone it is correct; two processes each hold their own lock, interleave their reads and writes, and oversell.
 */
final class PgLockLocal implements Estrategia {

  private final LabDb db;
  private final TrabajoLento trabajo;
  private final LockWait espera;
  private final Object lock = new Object();

  PgLockLocal(LabDb db, TrabajoLento trabajo, LockWait espera) {
    this.db = db;
    this.trabajo = trabajo;
    this.espera = espera;
  }

  @Override
  public boolean reservar(String producto, int cantidad) {
    Estrategia.validar(producto, cantidad);
    boolean aprobada;
    long pedido = System.nanoTime();
    synchronized (lock) {
      espera.record(System.nanoTime() - pedido);
      RowIterator<Row> fila = db.sentencias().preparedQuery("SELECT disponible FROM lab.stock WHERE producto = $1")
        .execute(Tuple.of(producto)).await().iterator();
      int disponible = fila.hasNext() ? fila.next().getInteger(0) : 0;
      aprobada = disponible >= cantidad;
      if (aprobada) {
        db.sentencias().preparedQuery("UPDATE lab.stock SET disponible = $2 WHERE producto = $1")
          .execute(Tuple.of(producto, disponible - cantidad)).await();
      }
    }
    trabajo.completar();
    return aprobada;
  }

  @Override
  public int disponible(String producto) {
    return db.disponible(producto);
  }
}
