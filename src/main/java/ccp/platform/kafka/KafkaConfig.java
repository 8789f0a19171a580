package ccp.platform.kafka;

import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;

import java.util.HashMap;
import java.util.Map;

/**
 * What every producer, consumer and admin client of one role is built with ({@code kafka.*}): the broker, the role's
 * own SCRAM-SHA-512 identity ({@code ccp-<role>}, {@code kafka.password.<role>}) and the consumers' tuning, with how
 * long a consumer retries a failing record before it is a dead letter ({@code retryMs}), and when the chain's consumers
 * yield to the security consumers of their process ({@code yieldDelayMs}, {@code yieldInFlight}: {@link Priority}).
 */
public record KafkaConfig(String bootstrap, String user, String password, int sessionTimeoutMs, int commitIntervalMs,
                          int maxInFlight, int fetchMinBytes, int fetchMaxWaitMs, int retryMs, int yieldDelayMs,
                          int yieldInFlight) {

  /** The settings key of role {@code role}'s Kafka password. */
  public static String passwordKey(String role) {
    return "kafka.password." + role;
  }

  /**
   * Role {@code role}'s clients.
   *
   * @throws ConfigException when its password is not set (in production it comes from the role's Kafka user secret)
   */
  public static KafkaConfig of(Settings settings, String role) {
    String key = passwordKey(role);
    String password = settings.text(key);
    if (password.isEmpty()) {
      throw new ConfigException(Settings.envName(key) + " is not set: role " + role + " authenticates to Kafka as "
        + KafkaGrant.userOf(role) + " with it (the Secret " + KafkaGrant.userOf(role) + ", key password)");
    }
    return new KafkaConfig(settings.text("kafka.bootstrap"), KafkaGrant.userOf(role), password,
      settings.integer("kafka.session-timeout-ms"), settings.integer("kafka.commit-interval-ms"),
      settings.integer("kafka.consumer.max-in-flight"), settings.integer("kafka.consumer.fetch-min-bytes"),
      settings.integer("kafka.consumer.fetch-max-wait-ms"), settings.integer("kafka.consumer.retry-ms"),
      settings.integer("kafka.consumer.yield-delay-ms"), settings.integer("kafka.consumer.yield-in-flight"));
  }

  /** The bootstrap address and this identity, the base of every client's configuration. */
  public Map<String, String> client() {
    return client(bootstrap, user, password);
  }

  /**
   * A group member's client: offsets committed by hand, read from the earliest when the group has none, and every
   * blocking call bounded by {@code apiTimeoutMs}.
   */
  Map<String, String> consumer(String group, String clientId, int apiTimeoutMs) {
    Map<String, String> config = client();
    config.put("group.id", group);
    config.put("client.id", clientId);
    config.put("enable.auto.commit", "false");
    config.put("auto.offset.reset", "earliest");
    config.put("session.timeout.ms", String.valueOf(sessionTimeoutMs));
    config.put("heartbeat.interval.ms", String.valueOf(Math.max(1000, sessionTimeoutMs / 3)));
    config.put("max.poll.records", "500");
    config.put("fetch.min.bytes", String.valueOf(fetchMinBytes));
    config.put("fetch.max.wait.ms", String.valueOf(fetchMaxWaitMs));
    config.put("default.api.timeout.ms", String.valueOf(apiTimeoutMs));
    config.put("request.timeout.ms", String.valueOf(apiTimeoutMs));
    return config;
  }

  /** A client of {@code bootstrap} that authenticates as {@code user} with SCRAM-SHA-512. */
  public static Map<String, String> client(String bootstrap, String user, String password) {
    Map<String, String> config = new HashMap<>();
    config.put("bootstrap.servers", bootstrap);
    config.put("security.protocol", "SASL_PLAINTEXT");
    config.put("sasl.mechanism", "SCRAM-SHA-512");
    config.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
      + user + "\" password=\"" + password + "\";");
    return config;
  }

  @Override
  public String toString() {
    return "KafkaConfig[" + bootstrap + " as " + user + "]";
  }
}
