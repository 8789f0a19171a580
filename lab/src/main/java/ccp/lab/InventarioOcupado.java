package ccp.lab;

/** The reference's {@code InventoryBusyError}: the stock's lock was not acquired within the timeout. */
final class InventarioOcupado extends RuntimeException {
  InventarioOcupado(String message) {
    super(message, null, false, false);
  }
}
