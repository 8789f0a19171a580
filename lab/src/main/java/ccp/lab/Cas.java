package ccp.lab;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * No lock: read the count, and write the decrement only if the count is still what was read (compare-and-set);
 * a thread that lost the race reads again. Nobody waits for a holder, but under contention threads redo work.
 */
final class Cas implements Estrategia {

  private final Existencias existencias;
  private final TrabajoLento trabajo;
  private final AtomicIntegerArray stock;
  private final LongAdder reintentos = new LongAdder();

  Cas(Existencias existencias, TrabajoLento trabajo) {
    this.existencias = existencias;
    this.trabajo = trabajo;
    this.stock = new AtomicIntegerArray(existencias.copia());
  }

  @Override
  public boolean reservar(String producto, int cantidad) {
    Estrategia.validar(producto, cantidad);
    int i = existencias.indice(producto);
    boolean aprobada = i >= 0 && descontar(i, cantidad);
    trabajo.completar();
    return aprobada;
  }

  private boolean descontar(int i, int cantidad) {
    for (int leido = stock.get(i); leido >= cantidad; leido = stock.get(i)) {
      if (stock.compareAndSet(i, leido, leido - cantidad)) return true;
      reintentos.increment();
    }
    return false;
  }

  @Override
  public int disponible(String producto) {
    int i = existencias.indice(producto);
    return i < 0 ? 0 : stock.get(i);
  }

  @Override
  public long reintentos() {
    return reintentos.sum();
  }
}
