package ccp.lab;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The seed's {@code RLock}: {@link #reservar} holds the lock and calls {@link #descontar}, which takes it again
 * because it guards the count on its own too. A non-reentrant lock would deadlock on that nested acquisition.
 */
final class BloqueoReentrante implements Estrategia {

  private final Existencias existencias;
  private final TrabajoLento trabajo;
  private final LockWait espera;
  private final int[] stock;
  private final ReentrantLock lock = new ReentrantLock();

  BloqueoReentrante(Existencias existencias, TrabajoLento trabajo, LockWait espera) {
    this.existencias = existencias;
    this.trabajo = trabajo;
    this.espera = espera;
    this.stock = existencias.copia();
  }

  @Override
  public boolean reservar(String producto, int cantidad) {
    Estrategia.validar(producto, cantidad);
    int i = existencias.indice(producto);
    boolean aprobada;
    long pedido = System.nanoTime();
    lock.lock();
    try {
      espera.record(System.nanoTime() - pedido);
      aprobada = i >= 0 && stock[i] >= cantidad && descontar(i, cantidad);
    } finally {
      lock.unlock();
    }
    trabajo.completar();
    return aprobada;
  }

  private boolean descontar(int i, int cantidad) {
    lock.lock();
    try {
      if (stock[i] < cantidad) return false;
      stock[i] -= cantidad;
      return true;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int disponible(String producto) {
    int i = existencias.indice(producto);
    lock.lock();
    try {
      return i < 0 ? 0 : stock[i];
    } finally {
      lock.unlock();
    }
  }
}
