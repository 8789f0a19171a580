package ccp.lab;

/**
 * The reference's {@code CoarseGrainedInventoryService}: the whole method under one lock, slow validation, query, audit
 * and notification included, so every reservation waits for all the slow work of the ones before it.
 */
final class BloqueoAmplio extends EnMemoria {

  private final Object lock = new Object();

  BloqueoAmplio(Existencias existencias, TrabajoLento trabajo, LockWait espera) {
    super(existencias, trabajo, espera);
  }

  @Override
  public boolean reservar(String producto, int cantidad) {
    long pedido = System.nanoTime();
    synchronized (lock) {
      espera.record(System.nanoTime() - pedido);
      Estrategia.validar(producto, cantidad);
      trabajo.validacionExterna();
      trabajo.consultaBaseDatos();
      if (!descontar(existencias.indice(producto), cantidad)) return false;
      trabajo.auditoria();
      trabajo.notificacion();
      return true;
    }
  }

  @Override
  public int disponible(String producto) {
    synchronized (lock) {
      return leer(existencias.indice(producto));
    }
  }
}
