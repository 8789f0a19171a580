package ccp.lab;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The reference's {@code TimeoutInventoryService}: a thread waits at most {@code timeout} for the stock's lock and then
 * fails with {@link InventarioOcupado} instead of queueing without end; the stock is untouched by a failed attempt.
 */
final class BloqueoConTimeout extends EnMemoria {

  private final Duration timeout;
  private final ReentrantLock lock = new ReentrantLock();

  BloqueoConTimeout(Existencias existencias, TrabajoLento trabajo, LockWait espera, Duration timeout) {
    super(existencias, trabajo, espera);
    this.timeout = timeout;
  }

  @Override
  public boolean reservar(String producto, int cantidad) {
    Estrategia.validar(producto, cantidad);
    int i = existencias.indice(producto);
    boolean aprobada = exclusivo(() -> descontar(i, cantidad));
    trabajo.completar();
    return aprobada;
  }

  /** Runs {@code seccion} holding the stock's lock, or throws {@link InventarioOcupado} after the timeout. */
  <T> T exclusivo(Supplier<T> seccion) {
    long pedido = System.nanoTime();
    boolean adquirido;
    try {
      adquirido = lock.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InventarioOcupado("interrupted while waiting for the inventory");
    }
    espera.record(System.nanoTime() - pedido);
    if (!adquirido) throw new InventarioOcupado("the inventory resource is temporarily busy");
    try {
      return seccion.get();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int disponible(String producto) {
    int i = existencias.indice(producto);
    return exclusivo(() -> leer(i));
  }
}
