package ccp.lab;

import java.util.HashMap;
import java.util.Map;

/**
 * The initial stock of one run: {@code productos} ids sharing {@code total} units (the remainder to the first ones).
 * Immutable; each strategy keeps its own copy of the counts in whatever form it protects.
 */
final class Existencias {

  private final String prefijo;
  private final String[] ids;
  private final int[] iniciales;
  private final Map<String, Integer> indices = new HashMap<>();

  Existencias(String prefijo, int productos, int total) {
    this.prefijo = prefijo;
    this.ids = new String[productos];
    this.iniciales = new int[productos];
    for (int i = 0; i < productos; i++) {
      ids[i] = prefijo + String.format("PRODUCT-%03d", i + 1);
      iniciales[i] = total / productos + (i < total % productos ? 1 : 0);
      indices.put(ids[i], i);
    }
  }

  int productos() {
    return iniciales.length;
  }

  /** The reference's ids: {@code PRODUCT-001}, … after this run's prefix. */
  String id(int indice) {
    return ids[indice];
  }

  /** The index of a known product, or -1: an unknown product has no stock. */
  int indice(String producto) {
    Integer i = indices.get(producto);
    return i == null ? -1 : i;
  }

  int inicial(int indice) {
    return iniciales[indice];
  }

  int[] copia() {
    return iniciales.clone();
  }

  String prefijo() {
    return prefijo;
  }
}
