package ccp.cadena;

import ccp.platform.config.Settings;

import java.time.Duration;

/**
 * The {@code cadena} role's settings: its Bandeja's port, a stage's deadline, the most confirmations or chains one
 * statement carries, the Reanudador's wait for a retried stage, the ASR-4 budget and the ASR-3 budget (the joint
 * budget, a stage stopped → the Bandeja holds it, is their sum).
 */
public record CadenaConfig(int port, int plazoEtapaMs, int loteMax, int esperaReintentoMs, Duration asr4Budget,
                           Duration asr3Budget) {

  public static CadenaConfig from(Settings settings) {
    return new CadenaConfig(settings.integer("cadena.port"), settings.integer("cadena.plazo-etapa-ms"),
      settings.integer("cadena.lote-max"), settings.integer("reanudador.espera-ms"), settings.millis("asr4.budget-ms"),
      settings.millis("asr3.budget-ms"));
  }
}
