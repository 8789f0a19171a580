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
    if (i < 0) return false;
    int disponible = stock[i];
    if (disponible < cantidad) return false;
    stock[i] = disponible - cantidad;
    trabajo.completar();
    return true;
  }

  @Override
  public int disponible(String producto) {
    int i = existencias.indice(producto);
    return i < 0 ? 0 : stock[i];
  }
}
