package ccp.cadena;

/**
 * The state of an order's chain ({@code cadena.cadenas.estado}): EN_CURSO from step 4, LISTO after the last stage
 * (step 12), RECHAZADO when a stage refuses the order, DETENIDO when the order is annulled. The names are the column's
 * values. Only an EN_CURSO chain's stages are watched (signalled, retried, escalated, retried from the Bandeja): each of
 * those statements reads the chain's state itself.
 */
enum EstadoCadena {
  EN_CURSO,
  LISTO,
  RECHAZADO,
  DETENIDO
}
