package ccp.etapas;

import ccp.platform.config.Settings;

/**
 * The stages' settings: how many orders one statement of a stage may apply.
 *
 * @param loteMax           Facturación's and Validación de despacho's batch ({@code cadena.lote-max}, the chain's)
 * @param inventarioLoteMax Inventario's batch of reservations ({@code inventario.lote-max}; 1 turns combining off)
 */
public record EtapasConfig(int loteMax, int inventarioLoteMax) {

  public static EtapasConfig from(Settings settings) {
    return new EtapasConfig(settings.integer("cadena.lote-max"), settings.integer("inventario.lote-max"));
  }
}
