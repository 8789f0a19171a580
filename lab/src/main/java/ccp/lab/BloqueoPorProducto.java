package ccp.lab;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The reference's {@code ProductInventoryService}, one lock per product, without its unbounded {@code defaultdict}: a
 * product's entry lives only while some thread holds or waits for it (a count of users, changed inside the map's own
 * per-key {@code compute}), so the table never holds more entries than there are threads, whatever ids arrive.
 */
final class BloqueoPorProducto extends EnMemoria {

  /** {@code usuarios} is read and written only inside {@code compute} for its key, which serializes them. */
  private static final class Entrada {
    final ReentrantLock lock = new ReentrantLock();
    int usuarios;
  }

  private final ConcurrentHashMap<String, Entrada> locks = new ConcurrentHashMap<>();
  private final LongAccumulator pico = new LongAccumulator(Math::max, 0);

  BloqueoPorProducto(Existencias existencias, TrabajoLento trabajo, LockWait espera) {
    super(existencias, trabajo, espera);
  }

  @Override
  public boolean reservar(String producto, int cantidad) {
    Estrategia.validar(producto, cantidad);
    int i = existencias.indice(producto);
    boolean aprobada = conProducto(producto, () -> descontar(i, cantidad));
    trabajo.completar();
    return aprobada;
  }

  /** Runs {@code seccion} holding {@code producto}'s lock only: other products go on meanwhile. */
  <T> T conProducto(String producto, Supplier<T> seccion) {
    Entrada entrada = locks.compute(producto, (id, actual) -> {
      Entrada e = actual == null ? new Entrada() : actual;
      e.usuarios++;
      return e;
    });
    pico.accumulate(locks.size());
    long pedido = System.nanoTime();
    entrada.lock.lock();
    try {
      espera.record(System.nanoTime() - pedido);
      return seccion.get();
    } finally {
      entrada.lock.unlock();
      locks.compute(producto, (id, e) -> --e.usuarios == 0 ? null : e);
    }
  }

  @Override
  public int disponible(String producto) {
    int i = existencias.indice(producto);
    return i < 0 ? 0 : conProducto(producto, () -> leer(i));
  }

  int entradas() {
    return locks.size();
  }

  long picoEntradas() {
    return pico.get();
  }
}
