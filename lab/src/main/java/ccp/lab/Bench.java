package ccp.lab;

import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs one strategy on one workload: fresh stock (rows of its own in PostgreSQL), the workers, the final count of
 * every product, and the outcome. Each run has its own product ids, so runs never see each other's stock.
 */
final class Bench {

  private final Vertx vertx;
  private final LabDb db;
  private final Duration timeout;
  private final int permisos;
  private final Progress progress;

  /** {@code db} may be null when no PostgreSQL strategy is run. */
  Bench(Vertx vertx, LabDb db, Duration timeout, int permisos, Progress progress) {
    this.vertx = vertx;
    this.db = db;
    this.timeout = timeout;
    this.permisos = permisos;
    this.progress = progress;
  }

  Outcome run(Catalogo estrategia, Workload carga, String tramo) {
    Existencias existencias = new Existencias("lab-" + UUID.randomUUID().toString().substring(0, 8) + "-", carga.products(), carga.stock());
    if (estrategia.enPg) {
      db.sembrar(existencias);
      db.calentar();
    }
    LockWait wait = new LockWait();
    try (Estrategia e = estrategia.crear(new Catalogo.Contexto(existencias, carga.trabajo(), wait, timeout, permisos, vertx, db))) {
      LongAdder done = progress.begin(estrategia.clave + ", " + carga.workers() + " worker(s)", carga.requests());
      Runner.Tally tally;
      try {
        tally = Runner.execute(e, i -> existencias.id(i % existencias.productos()), carga.requests(), carga.workers(), done);
      } finally {
        progress.end();
      }
      int[] finals = new int[existencias.productos()];
      for (int p = 0; p < finals.length; p++) finals[p] = e.disponible(existencias.id(p));
      return Outcome.of(estrategia, carga, tramo, existencias, tally, finals, wait, e.reintentos());
    } finally {
      if (estrategia.enPg) db.borrar(existencias.prefijo());
    }
  }
}
