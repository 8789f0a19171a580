package ccp.lab;

/**
 * The seed's {@code CoarseGrainedInventoryService}: the whole method under one lock, slow validation, query, audit
 * and notification included, so every reservation waits for all the slow work of the ones before it.
 */
final class BloqueoAmplio implements Estrategia {

  private final Existencias existencias;
  private final TrabajoLento trabajo;
  private final LockWait espera;
  private final int[] stock;
  private final Object lock = new Object();

  BloqueoAmplio(Existencias existencias, TrabajoLento trabajo, LockWait espera) {
    this.existencias = existencias;
    this.trabajo = trabajo;
    this.espera = espera;
    this.stock = existencias.copia();
  }

  @Override
  public boolean reservar(String producto, int cantidad) {
    long pedido = System.nanoTime();
    synchronized (lock) {
      espera.record(System.nanoTime() - pedido);
      Estrategia.validar(producto, cantidad);
      trabajo.validacionExterna();
      trabajo.consultaBaseDatos();
      int i = existencias.indice(producto);
      if (i < 0 || stock[i] < cantidad) return false;
      stock[i] -= cantidad;
      trabajo.auditoria();
      trabajo.notificacion();
      return true;
    }
  }

  @Override
  public int disponible(String producto) {
    synchronized (lock) {
      int i = existencias.indice(producto);
      return i < 0 ? 0 : stock[i];
    }
  }
}
