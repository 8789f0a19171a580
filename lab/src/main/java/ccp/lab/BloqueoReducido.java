package ccp.lab;

/**
 * The reference's {@code OptimizedInventoryService}: validation before and the slow completion after; only the check and
 * the decrement of the shared count are under the lock.
 */
final class BloqueoReducido extends EnMemoria {

  private final Object lock = new Object();

  BloqueoReducido(Existencias existencias, TrabajoLento trabajo, LockWait espera) {
    super(existencias, trabajo, espera);
  }

  @Override
  public boolean reservar(String producto, int cantidad) {
    Estrategia.validar(producto, cantidad);
    int i = existencias.indice(producto);
    boolean aprobada;
    long pedido = System.nanoTime();
    synchronized (lock) {
      espera.record(System.nanoTime() - pedido);
      aprobada = descontar(i, cantidad);
    }
    trabajo.completar();
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
