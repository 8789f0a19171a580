package ccp.lab;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The reference's {@code RLock}: {@link #reservar} holds the lock and calls {@link #descontarGuardado}, which takes it
 * again because it guards the count on its own too. A non-reentrant lock would deadlock on that nested acquisition.
 */
final class BloqueoReentrante extends EnMemoria {

  private final ReentrantLock lock = new ReentrantLock();

  BloqueoReentrante(Existencias existencias, TrabajoLento trabajo, LockWait espera) {
    super(existencias, trabajo, espera);
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
      aprobada = leer(i) >= cantidad && descontarGuardado(i, cantidad);
    } finally {
      lock.unlock();
    }
    trabajo.completar();
    return aprobada;
  }

  private boolean descontarGuardado(int i, int cantidad) {
    lock.lock();
    try {
      return descontar(i, cantidad);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int disponible(String producto) {
    int i = existencias.indice(producto);
    lock.lock();
    try {
      return leer(i);
    } finally {
      lock.unlock();
    }
  }
}
