package ccp.lab;

/**
 * No protection at all: two threads may both read the same count and write the same decrement (a lost update), or
 * both pass the check on the last unit. Here to show the damage.
 */
final class SinSincronizacion extends EnMemoria {

  SinSincronizacion(Existencias existencias, TrabajoLento trabajo) {
    super(existencias, trabajo, new LockWait());
  }

  @Override
  public boolean reservar(String producto, int cantidad) {
    Estrategia.validar(producto, cantidad);
    boolean aprobada = descontar(existencias.indice(producto), cantidad);
    trabajo.completar();
    return aprobada;
  }

  @Override
  public int disponible(String producto) {
    return leer(existencias.indice(producto));
  }
}
