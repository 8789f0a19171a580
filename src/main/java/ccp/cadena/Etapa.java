package ccp.cadena;

/** The three stages of DG-CON-003, in the order the chain runs them (ADR-003: one stage at a time). */
enum Etapa {
  FACTURACION,
  INVENTARIO,
  DESPACHO
}
