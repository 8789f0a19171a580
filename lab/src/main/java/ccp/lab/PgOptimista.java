package ccp.lab;

import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowIterator;
import io.vertx.sqlclient.Tuple;

import java.util.concurrent.atomic.LongAdder;

/**
 * Optimistic, in PostgreSQL: read the count and its version without locking, write only if the version is still the
 * one read; a writer that matched no row lost the race and starts over. No lock is held between statements, but on
 * a hot row most attempts are repeated.
 */
final class PgOptimista implements Estrategia {

  private final LabDb db;
  private final TrabajoLento trabajo;
  private final LongAdder reintentos = new LongAdder();

  PgOptimista(LabDb db, TrabajoLento trabajo) {
    this.db = db;
    this.trabajo = trabajo;
  }

  @Override
  public boolean reservar(String producto, int cantidad) {
    Estrategia.validar(producto, cantidad);
    boolean aprobada = intentar(producto, cantidad);
    trabajo.completar();
    return aprobada;
  }

  private boolean intentar(String producto, int cantidad) {
    while (true) {
      RowIterator<Row> fila = db.sentencias().preparedQuery("SELECT disponible, version FROM lab.stock WHERE producto = $1")
        .execute(Tuple.of(producto)).await().iterator();
      if (!fila.hasNext()) return false;
      Row leida = fila.next();
      int disponible = leida.getInteger(0);
      if (disponible < cantidad) return false;
      int escritas = db.sentencias()
        .preparedQuery("UPDATE lab.stock SET disponible = $2, version = version + 1 WHERE producto = $1 AND version = $3")
        .execute(Tuple.of(producto, disponible - cantidad, leida.getInteger(1))).await().rowCount();
      if (escritas == 1) return true;
      reintentos.increment();
    }
  }

  @Override
  public int disponible(String producto) {
    return db.disponible(producto);
  }

  @Override
  public long reintentos() {
    return reintentos.sum();
  }
}
