package ccp.seguridad;

import ccp.platform.async.Backoff;
import ccp.platform.config.Settings;

import java.time.Duration;
import java.util.Optional;

/**
 * The seguridad role's settings.
 *
 * @param port            the security area's API ({@code seguridad.port})
 * @param gestorUrl       the Gestor, asked for permissions (B5) and told to block (B10)
 * @param pedidosUrl      Pedidos, told to annul the improper order (B11)
 * @param detectorLoteMax the writers the Detector asks the Gestor about in one request ({@code detector.lote-max})
 * @param revocacionHoras how long the Reacción's revocation lasts once its reaction finished; it does not
 *                        expire before ({@code reaccion.revocacion-horas})
 * @param reanudarTrasMs  a reaction not moved for this long has lost its runner and is resumed
 *                        ({@code reaccion.reanudar-tras-ms})
 * @param liderazgoMs     how often the standby tries to take the group's leadership ({@code seguridad.liderazgo-ms})
 * @param webhook         the security area's webhook; absent when {@code notificador.webhook-url} is empty
 * @param asr1Budget      ASR-1's budget, t0 → notified
 * @param asr2Budget      ASR-2's budget, t_det → notified; past it a reaction (or the Detector) a peer holds is told
 *                        to the area and the Bandeja
 */
public record SeguridadConfig(int port, String gestorUrl, String pedidosUrl, int detectorLoteMax, int revocacionHoras,
                              long reanudarTrasMs, long liderazgoMs, Optional<Webhook> webhook, Duration asr1Budget, Duration asr2Budget) {

  /** Where the Notificador POSTs each alert, how long it waits for an answer, and how it backs off between tries. */
  public record Webhook(String url, long timeoutMs, Backoff reintento) {}

  public static SeguridadConfig from(Settings settings) {
    String url = settings.text("notificador.webhook-url");
    Optional<Webhook> webhook = url.isEmpty() ? Optional.empty() : Optional.of(new Webhook(url,
      settings.integer("notificador.webhook-timeout-ms"),
      new Backoff(settings.integer("notificador.retry-initial-ms"), settings.integer("notificador.retry-max-ms"))));
    return new SeguridadConfig(settings.integer("seguridad.port"), settings.text("gestor.url"), settings.text("pedidos.url"),
      settings.integer("detector.lote-max"), settings.integer("reaccion.revocacion-horas"),
      settings.integer("reaccion.reanudar-tras-ms"), settings.integer("seguridad.liderazgo-ms"), webhook, settings.millis("asr1.budget-ms"), settings.millis("asr2.budget-ms"));
  }
}
