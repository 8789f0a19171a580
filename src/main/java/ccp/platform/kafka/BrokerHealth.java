package ccp.platform.kafka;

import ccp.platform.http.Health;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.healthchecks.Status;
import io.vertx.kafka.admin.KafkaAdminClient;
import io.vertx.kafka.admin.TopicDescription;
import io.vertx.kafka.client.common.Node;
import io.vertx.kafka.client.common.TopicPartitionInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Readiness of the process's broker: it answers, every partition of the project's topics has a leader, and the
 * process's publishes are not failing. A consumer that joined its group stays "joined" while the broker behind it has
 * lost its log directory; these see it.
 */
public final class BrokerHealth extends VerticleBase {

  private static final long CHECK_TIMEOUT_MS = 2_000;
  private static final long ADMIN_TIMEOUT_MS = 1_500;
  private static final String CHECK = "kafka";

  private final KafkaConfig kafka;
  private final List<String> topics;
  private final Health health;
  private KafkaAdminClient admin;

  /** {@code topics}: those whose partitions must each have a leader. */
  public BrokerHealth(KafkaConfig kafka, List<String> topics, Health health) {
    this.kafka = kafka;
    this.topics = List.copyOf(topics);
    this.health = health;
  }

  /** Registers the check as {@code kafka}; undeploying (or closing Vert.x) removes it and closes its admin client. */
  @Override
  public Future<?> start() {
    admin = KafkaAdminClient.create(vertx, Map.of(
      "bootstrap.servers", kafka.bootstrap(),
      "request.timeout.ms", String.valueOf(ADMIN_TIMEOUT_MS),
      "default.api.timeout.ms", String.valueOf(ADMIN_TIMEOUT_MS)));
    // The admin's own timeout is a little shorter than the check's, so that its error, not a bare timeout, answers.
    health.readiness().register(CHECK, CHECK_TIMEOUT_MS, promise -> check(admin, topics, EventPublisher.outcomes(vertx))
      .onSuccess(promise::tryComplete)
      .onFailure(err -> promise.tryComplete(Status.KO(new JsonObject().put("error", String.valueOf(err.getMessage()))))));
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    health.forget(CHECK);
    return admin.close(ADMIN_TIMEOUT_MS);
  }

  private static Future<Status> check(KafkaAdminClient admin, List<String> topics, JsonObject publishing) {
    return admin.describeTopics(topics).map(described -> {
      List<String> leaderless = new ArrayList<>();
      for (TopicDescription topic : described.values()) {
        for (TopicPartitionInfo partition : topic.getPartitions()) {
          Node leader = partition.getLeader();
          if (leader == null || leader.isEmpty() || leader.getId() < 0) leaderless.add(topic.getName() + "-" + partition.getPartition());
        }
      }
      JsonObject data = new JsonObject().put("topics", described.size()).put("publishing", publishing);
      if (!leaderless.isEmpty()) return Status.KO(data.put("partitions_without_leader", new JsonArray(leaderless)));
      if (!publishing.getBoolean("ok")) return Status.KO(data);
      return Status.OK(data);
    });
  }
}
