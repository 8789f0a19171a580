package ccp.etapas;

import ccp.platform.config.Settings;
import ccp.platform.outbox.OutboxConfig;

/**
 * The stages' settings: how many orders one statement of a stage may apply, and Inventario's door.
 *
 * @param loteMax           Facturación's and Validación de despacho's batch ({@code cadena.lote-max}, the chain's)
 * @param inventarioLoteMax Inventario's batch of reservations ({@code inventario.lote-max}; 1 turns combining off)
 * @param inventarioPort    the port Inventario's HiloPeticion listens on ({@code inventario.port})
 * @param outbox            how Inventario's RelevoOutbox drains ({@code outbox.*})
 */
public record EtapasConfig(int loteMax, int inventarioLoteMax, int inventarioPort, OutboxConfig outbox) {

  public static EtapasConfig from(Settings settings) {
    return new EtapasConfig(settings.integer("cadena.lote-max"), settings.integer("inventario.lote-max"),
      settings.integer("inventario.port"), OutboxConfig.from(settings));
  }
}
