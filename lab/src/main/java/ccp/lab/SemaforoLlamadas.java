package ccp.lab;

import java.util.concurrent.Semaphore;

/**
 * The narrow lock for the count, plus a semaphore that lets at most {@code permisos} threads into the slow external
 * call at once (as a rate-limited service or a connection pool would). The wait recorded is the wait for a permit:
 * the semaphore, not the short lock, is what queues threads here.
 */
final class SemaforoLlamadas extends EnMemoria {

  private final Semaphore permisos;
  private final Object lock = new Object();

  SemaforoLlamadas(Existencias existencias, TrabajoLento trabajo, LockWait espera, int permisos) {
    super(existencias, trabajo, espera);
    this.permisos = new Semaphore(permisos);
  }

  @Override
  public boolean reservar(String producto, int cantidad) {
    Estrategia.validar(producto, cantidad);
    int i = existencias.indice(producto);
    boolean aprobada;
    synchronized (lock) {
      aprobada = descontar(i, cantidad);
    }
    long pedido = System.nanoTime();
    permisos.acquireUninterruptibly();
    espera.record(System.nanoTime() - pedido);
    try {
      trabajo.completar();
    } finally {
      permisos.release();
    }
    return aprobada;
  }

  @Override
  public int disponible(String producto) {
    int i = existencias.indice(producto);
    synchronized (lock) {
      return leer(i);
    }
  }
}
