package ccp.platform.kafka;

import ccp.platform.config.Settings;

/** What every producer and consumer of a process is built with ({@code kafka.*}). */
public record KafkaConfig(String bootstrap, int sessionTimeoutMs, int commitIntervalMs, int maxInFlight, int fetchMinBytes,
                          int fetchMaxWaitMs) {

  public static KafkaConfig from(Settings settings) {
    return new KafkaConfig(settings.text("kafka.bootstrap"), settings.integer("kafka.session-timeout-ms"),
      settings.integer("kafka.commit-interval-ms"), settings.integer("kafka.consumer.max-in-flight"),
      settings.integer("kafka.consumer.fetch-min-bytes"), settings.integer("kafka.consumer.fetch-max-wait-ms"));
  }
}
