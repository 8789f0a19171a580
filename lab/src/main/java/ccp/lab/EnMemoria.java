package ccp.lab;

/**
 * What the in-memory strategies share: the counts and the critical section itself, check-and-decrement, which each
 * of them guards its own way (or, in {@link SinSincronizacion}, not at all). Only {@link #descontar} and
 * {@link #leer} touch the counts, and only under the subclass's guard.
 */
abstract class EnMemoria implements Estrategia {

  final Existencias existencias;
  final TrabajoLento trabajo;
  final LockWait espera;
  private final int[] stock;

  EnMemoria(Existencias existencias, TrabajoLento trabajo, LockWait espera) {
    this.existencias = existencias;
    this.trabajo = trabajo;
    this.espera = espera;
    this.stock = existencias.copia();
  }

  /** Read, check, write: three steps that another thread can interleave with unless the caller excludes it. */
  final boolean descontar(int indice, int cantidad) {
    if (indice < 0 || stock[indice] < cantidad) return false;
    stock[indice] -= cantidad;
    return true;
  }

  final int leer(int indice) {
    return indice < 0 ? 0 : stock[indice];
  }
}
