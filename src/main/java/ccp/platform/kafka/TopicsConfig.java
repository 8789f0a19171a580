package ccp.platform.kafka;

import ccp.platform.config.Settings;

/**
 * How the project's topics are created ({@code kafka.partitions.*}, {@code kafka.replication-factor}).
 *
 * @param securityPartitions the partitions of the topics only seguridad reads ({@code sesion.abierta},
 *                           {@code alerta.seguridad}), read by its active process: a Verificador consumer each
 * @param chainPartitions    the chain's P, the most replicas of a chain role that can share the work; also
 *                           {@code escritura.realizada}'s, which starts the chain
 */
public record TopicsConfig(int securityPartitions, int chainPartitions, int replicationFactor) {

  public static TopicsConfig from(Settings settings) {
    return new TopicsConfig(settings.integer("kafka.partitions.security"), settings.integer("kafka.partitions.chain"),
      settings.integer("kafka.replication-factor"));
  }
}
