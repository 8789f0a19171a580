package ccp.lab;

import io.vertx.sqlclient.Tuple;

/**
 * The project's way (DESIGN.md §4, {@code ccp.etapas.Inventario}): one conditional statement checks and decrements;
 * PostgreSQL holds the row lock only while that statement runs. Correct across any number of processes.
 */
final class PgAtomica implements Estrategia {

  private final LabDb db;
  private final TrabajoLento trabajo;

  PgAtomica(LabDb db, TrabajoLento trabajo) {
    this.db = db;
    this.trabajo = trabajo;
  }

  @Override
  public boolean reservar(String producto, int cantidad) {
    Estrategia.validar(producto, cantidad);
    boolean aprobada = db.sentencias()
      .preparedQuery("UPDATE lab.stock SET disponible = disponible - $2 WHERE producto = $1 AND disponible >= $2")
      .execute(Tuple.of(producto, cantidad)).await().rowCount() == 1;
    trabajo.completar();
    return aprobada;
  }

  @Override
  public int disponible(String producto) {
    return db.disponible(producto);
  }
}
