package ccp.vigilancia;

import ccp.platform.config.Settings;

import java.time.Duration;

/**
 * The {@code vigilancia} role's settings: how often the standby tries the leadership, the leader sweeps deadlines and
 * probes the stages' consumers, and the ASR-3 budget.
 */
public record VigilanciaConfig(int liderazgoMs, int barridoMs, int sondeoMs, Duration asr3Budget) {

  public static VigilanciaConfig from(Settings settings) {
    return new VigilanciaConfig(settings.integer("vigilancia.liderazgo-ms"), settings.integer("vigilancia.barrido-ms"),
      settings.integer("vigilancia.sondeo-ms"), settings.millis("asr3.budget-ms"));
  }
}
