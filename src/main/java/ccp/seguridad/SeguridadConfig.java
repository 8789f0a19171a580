package ccp.seguridad;

import ccp.platform.config.Settings;
import ccp.platform.db.Liderazgo;
import ccp.seguridad.ssf.SsfConfig;

import java.time.Duration;

/**
 * The seguridad role's settings.
 *
 * @param port            the security area's API ({@code seguridad.port})
 * @param gestorUrl       the Gestor, asked for permissions (B5) and told to block (B10)
 * @param pedidosUrl      Pedidos, told to annul the improper order (B11)
 * @param inventarioUrl   Inventario, told to revert the improper stock adjustment (B11)
 * @param verificadores   the Verificador's consumers in the active process, one per partition of {@code sesion.abierta}
 *                        ({@code kafka.partitions.security})
 * @param detectorLoteMax the writers the Detector asks the Gestor about in one request ({@code detector.lote-max})
 * @param revocacionHoras how long the Reacción's revocation lasts once its reaction finished; it does not
 *                        expire before ({@code reaccion.revocacion-horas})
 * @param reanudarTrasMs  a reaction not moved for this long has lost its runner and is resumed
 *                        ({@code reaccion.reanudar-tras-ms})
 * @param ssf             the Shared Signals transmitter and receiver
 * @param liderazgo       how often the standby tries to take the group's leadership ({@code seguridad.liderazgo-ms}), and
 *                        the bounds of a leader cut off from PostgreSQL ({@code liderazgo.*})
 * @param asr1Budget      ASR-1's budget, t0 → notified
 * @param asr2Budget      ASR-2's budget, t_det → notified; past it a reaction (or the Detector) a peer holds is told
 *                        to the area and the Bandeja
 */
public record SeguridadConfig(int port, String gestorUrl, String pedidosUrl, String inventarioUrl, int verificadores,
                              int detectorLoteMax,
                              int revocacionHoras, long reanudarTrasMs, Liderazgo.Plazos liderazgo, SsfConfig ssf, Duration asr1Budget,
                              Duration asr2Budget) {

  public static SeguridadConfig from(Settings settings) {
    return new SeguridadConfig(settings.integer("seguridad.port"), settings.text("gestor.url"), settings.text("pedidos.url"),
      settings.text("inventario.url"), settings.integer("kafka.partitions.security"), settings.integer("detector.lote-max"), settings.integer("reaccion.revocacion-horas"),
      settings.integer("reaccion.reanudar-tras-ms"), Liderazgo.Plazos.from(settings, "seguridad.liderazgo-ms"), SsfConfig.from(settings),
      settings.millis("asr1.budget-ms"), settings.millis("asr2.budget-ms"));
  }
}
