package ccp.lab;

/**
 * One way to protect the stock while many threads reserve from it: the lab runs every strategy on the same workload.
 * {@link #reservar} answers whether the units were reserved; it may throw {@link InventarioOcupado} (lock with timeout).
 */
interface Estrategia extends AutoCloseable {

  boolean reservar(String producto, int cantidad);

  int disponible(String producto);

  /** Attempts that had to be repeated because another writer got there first (CAS, optimistic version). */
  default long reintentos() {
    return 0;
  }

  @Override
  default void close() {}

  /** The reference's {@code _validate_request}: outside any lock, since it touches no shared state. */
  static void validar(String producto, int cantidad) {
    if (producto == null || producto.isBlank()) throw new IllegalArgumentException("producto is required");
    if (cantidad <= 0) throw new IllegalArgumentException("cantidad must be greater than zero");
  }
}
