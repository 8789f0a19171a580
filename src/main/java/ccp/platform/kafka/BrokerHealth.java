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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Readiness of the process's broker: it answers, every partition of the topics the process's roles use has a leader,
 * and the process's publishes are not failing. A consumer that joined its group stays "joined" while the broker behind
 * it has lost its log directory; these see it. Each role asks about its own topics as its own principal, which may
 * describe those and no others.
 */
public final class BrokerHealth extends VerticleBase {

  private static final long CHECK_TIMEOUT_MS = 2_000;
  private static final long ADMIN_TIMEOUT_MS = 1_500;
  private static final String CHECK = "kafka";

  private final Map<KafkaConfig, Set<String>> probes;
  private final Health health;
  private final Map<KafkaAdminClient, List<String>> admins = new LinkedHashMap<>();

  /** {@code probes}: a role's clients → the topics whose partitions must each have a leader. */
  public BrokerHealth(Map<KafkaConfig, Set<String>> probes, Health health) {
    this.probes = Map.copyOf(probes);
    this.health = health;
  }

  /** Registers the check as {@code kafka}; undeploying (or closing Vert.x) removes it and closes its admin client. */
  @Override
  public Future<?> start() {
    probes.forEach((kafka, topics) -> {
      Map<String, String> config = kafka.client();
      config.put("request.timeout.ms", String.valueOf(ADMIN_TIMEOUT_MS));
      config.put("default.api.timeout.ms", String.valueOf(ADMIN_TIMEOUT_MS));
      admins.put(KafkaAdminClient.create(vertx, config), List.copyOf(topics));
    });
    // The admin's own timeout is a little shorter than the check's, so that its error, not a bare timeout, answers.
    health.readiness().register(CHECK, CHECK_TIMEOUT_MS, promise -> check(EventPublisher.outcomes(vertx))
      .onSuccess(promise::tryComplete)
      .onFailure(err -> promise.tryComplete(Status.KO(new JsonObject().put("error", String.valueOf(err.getMessage()))))));
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    health.forget(CHECK);
    return Future.all(admins.keySet().stream().map(admin -> admin.close(ADMIN_TIMEOUT_MS)).toList());
  }

  private Future<Status> check(JsonObject publishing) {
    List<Future<Map<String, TopicDescription>>> asked = admins.entrySet().stream()
      .map(e -> e.getKey().describeTopics(e.getValue())).toList();
    return Future.all(asked).map(all -> {
      Map<String, TopicDescription> described = new TreeMap<>();
      asked.forEach(one -> described.putAll(one.result()));
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
