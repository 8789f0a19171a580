package ccp.cadena;

/** The three stages of DG-CON-003, in the order the chain runs them (ADR-003: one stage at a time). */
public enum Etapa {
  FACTURACION,
  INVENTARIO,
  DESPACHO;

  /**
   * The header of a command on {@code etapa.ejecutar} that names its stage: the three stage groups read the same
   * topic, and each lets the other two stages' commands pass without parsing them.
   */
  public static final String CABECERA = "ccp-etapa";

  /** The stage after this one, or null after the last. */
  Etapa siguiente() {
    return ordinal() + 1 < values().length ? values()[ordinal() + 1] : null;
  }

  /** The consumer group of this stage on {@code etapa.ejecutar}. */
  public String cola() {
    return "cola.etapa." + name().toLowerCase(java.util.Locale.ROOT);
  }
}
