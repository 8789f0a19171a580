package ccp.cadena;

/**
 * The state of one stage of an order's chain ({@code cadena.cadena_etapa.estado}, CadenaEtapa {guarded} of ADR-002):
 * PENDIENTE until its turn, EN_CURSO while commanded, FALLIDA or past its deadline → EN_REINTENTO (R6–R8) →
 * ESCALADA (R9); COMPLETADA or RECHAZADA when the stage answers. The names are the column's values.
 */
enum EstadoEtapa {
  PENDIENTE,
  EN_CURSO,
  COMPLETADA,
  FALLIDA,
  EN_REINTENTO,
  ESCALADA,
  RECHAZADA
}
