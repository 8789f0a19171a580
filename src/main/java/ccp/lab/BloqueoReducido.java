package ccp.lab;

/**
 * The seed's {@code OptimizedInventoryService}: validation before and the slow completion after; only the check and
 * the decrement of the shared count are under the lock.
 */
final class BloqueoReducido implements Estrategia {

  private final Existencias existencias;
  private final TrabajoLento trabajo;
  private final LockWait espera;
  private final int[] stock;
  private final Object lock = new Object();

  BloqueoReducido(Existencias existencias, TrabajoLento trabajo, LockWait espera) {
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
    synchronized (lock) {
      espera.record(System.nanoTime() - pedido);
      aprobada = i >= 0 && stock[i] >= cantidad;
      if (aprobada) stock[i] -= cantidad;
    }
    trabajo.completar();
    return aprobada;
  }

  @Override
  public int disponible(String producto) {
    int i = existencias.indice(producto);
    synchronized (lock) {
      return i < 0 ? 0 : stock[i];
    }
  }
}
