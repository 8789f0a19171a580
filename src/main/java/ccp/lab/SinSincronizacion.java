package ccp.lab;

/**
 * No protection at all: read, check and write are three steps another thread can interleave with, so two threads
 * may sell the same unit (a lost update) or both pass the check on the last unit. Here to show the damage.
 */
final class SinSincronizacion implements Estrategia {

  private final Existencias existencias;
  private final TrabajoLento trabajo;
  private final int[] stock;

  SinSincronizacion(Existencias existencias, TrabajoLento trabajo) {
    this.existencias = existencias;
    this.trabajo = trabajo;
    this.stock = existencias.copia();
  }

  @Override
  public boolean reservar(String producto, int cantidad) {
    Estrategia.validar(producto, cantidad);
    int i = existencias.indice(producto);
    boolean aprobada = false;
    if (i >= 0) {
      int disponible = stock[i];
      aprobada = disponible >= cantidad;
      if (aprobada) stock[i] = disponible - cantidad;
    }
    trabajo.completar();
    return aprobada;
  }

  @Override
  public int disponible(String producto) {
    int i = existencias.indice(producto);
    return i < 0 ? 0 : stock[i];
  }
}
