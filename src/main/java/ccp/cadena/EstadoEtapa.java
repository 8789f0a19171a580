package ccp.cadena;

/**
 * The state of one stage of an order's chain ({@code cadena.cadena_etapa.estado}, CadenaEtapa {guarded} of ADR-002):
 * PENDIENTE until its turn, EN_CURSO while commanded, past its deadline (or its consumers gone) → EN_REINTENTO (R6–R8)
 * → ESCALADA (R9); COMPLETADA or RECHAZADA when the stage answers. The names are the column's values. Only the stages of
 * a chain that runs ({@link EstadoCadena#EN_CURSO}) are signalled, retried and escalated: a stopped order's stage that
 * never answers is left as it is.
 * <p>
 * There is no FALLIDA: no stage reports a technical failure (it answers COMPLETADA, RECHAZADA or COMPENSADA, see
 * {@link ResultadoEtapa}); when its effect fails, its consumer retries the command with back-off, and a stage that
 * never answers is caught by its deadline or by SondeoSalud, so the view's "etapas fallidas o vencidas" (R1–R3) both end in
 * the Reanudador's retry. FALLIDA was read but never written; migration V5 forbids it in the column.
 */
enum EstadoEtapa {
  PENDIENTE,
  EN_CURSO,
  COMPLETADA,
  EN_REINTENTO,
  ESCALADA,
  RECHAZADA
}
