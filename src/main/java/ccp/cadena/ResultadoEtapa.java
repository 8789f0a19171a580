package ccp.cadena;

/**
 * What a stage did with a command (step 8): the {@code resultado} of {@code etapa.completada}, by name, as its
 * EtapaProcesada recorded it. COMPLETADA moves the chain on (step 11), RECHAZADA stops it (no stock), COMPENSADA answers
 * a compensation.
 */
public enum ResultadoEtapa {
  COMPLETADA,
  RECHAZADA,
  COMPENSADA
}
