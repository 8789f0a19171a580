package ccp.platform.outbox;

import ccp.platform.config.Settings;

/** How a RelevoOutbox drains ({@code outbox.*}). */
public record OutboxConfig(int pollMs, int batchSize, int claimTimeoutMs, int admissionMaxAgeMs) {

  public static OutboxConfig from(Settings settings) {
    return new OutboxConfig(settings.integer("outbox.poll-ms"), settings.integer("outbox.batch-size"),
      settings.integer("outbox.claim-timeout-ms"), settings.integer("outbox.admission-max-age-ms"));
  }
}
