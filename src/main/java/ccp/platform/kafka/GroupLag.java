package ccp.platform.kafka;

import io.vertx.core.Future;
import io.vertx.kafka.admin.KafkaAdminClient;
import io.vertx.kafka.admin.ListOffsetsResultInfo;
import io.vertx.kafka.admin.OffsetSpec;
import io.vertx.kafka.client.common.TopicPartition;
import io.vertx.kafka.client.consumer.OffsetAndMetadata;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How long consumer groups have kept the first record they have not finished waiting, read from the broker by an admin
 * client: each group's committed offsets against the log's end, partition by partition (one it never committed from
 * the log's start), placed in time by {@link TimeLag}. Only groups with a
 * live member are told: records behind a group nobody reads wait for an outage to end, which readiness and the
 * Monitor report, not for a queue to drain. The admin's principal needs DESCRIBE on each group and on its topic. A
 * group commits every {@code kafka.commit-interval-ms}, so a group that keeps up is told up to that much behind.
 * Confined to the verticle that reads.
 */
public final class GroupLag {

  /** How long the topics' partitions are taken as known: a topic grows only when its operator grows it. */
  private static final long PARTITIONS_KNOWN_NS = TimeUnit.SECONDS.toNanos(60);

  private final KafkaAdminClient admin;
  private final Map<String, String> groups;
  private final TimeLag lag = new TimeLag();
  /** The topics' partitions, as last described; null: to be described at the next read. */
  private List<TopicPartition> partitions;
  private long describedAt;

  /** {@code groups}: consumer group → the topic it reads. */
  public GroupLag(KafkaAdminClient admin, Map<String, String> groups) {
    this.admin = admin;
    this.groups = Map.copyOf(groups);
  }

  /** Consumer group → how long, in ms, its first unfinished record has waited; the groups with a live member only. */
  public Future<Map<String, Long>> read() {
    return partitions().compose(known -> {
      Map<String, Future<Map<TopicPartition, OffsetAndMetadata>>> committed = new HashMap<>();
      Map<String, Future<Boolean>> live = new HashMap<>();
      groups.keySet().forEach(group -> {
        committed.put(group, admin.listConsumerGroupOffsets(group)
          .recover(e -> notFound(e) ? Future.succeededFuture(Map.of()) : Future.failedFuture(e)));
        live.put(group, hasLiveMember(admin, group));
      });
      Future<Map<TopicPartition, ListOffsetsResultInfo>> ends = admin.listOffsets(spec(known, OffsetSpec.LATEST));
      Future<Map<TopicPartition, ListOffsetsResultInfo>> starts = admin.listOffsets(spec(known, OffsetSpec.EARLIEST));
      List<Future<?>> asked = new ArrayList<>(List.of(ends, starts));
      asked.addAll(committed.values());
      asked.addAll(live.values());
      return Future.all(asked).map(x -> {
        long now = System.nanoTime();
        ends.result().forEach((tp, end) -> lag.sample(tp, end.getOffset(), now));
        Map<String, Long> ages = new HashMap<>();
        groups.forEach((group, topic) -> {
          if (!live.get(group).result()) return;
          Map<TopicPartition, OffsetAndMetadata> offsets = committed.get(group).result();
          // A partition committed but not described: the topic grew since; the next read describes it again.
          if (offsets.keySet().stream().anyMatch(tp -> tp.getTopic().equals(topic) && !known.contains(tp))) partitions = null;
          long age = 0;
          for (TopicPartition tp : known) {
            if (!tp.getTopic().equals(topic)) continue;
            // A partition the group never committed is read from its start (auto.offset.reset=earliest), as is one whose
            // committed records the broker has since deleted.
            long start = starts.result().get(tp).getOffset();
            long position = offsets.containsKey(tp) ? Math.max(start, offsets.get(tp).getOffset()) : start;
            age = Math.max(age, lag.ageMs(tp, position, now));
          }
          ages.put(group, age);
        });
        return ages;
      });
    });
  }

  /** The watched topics' partitions: described again once {@link #PARTITIONS_KNOWN_NS} old, or when found incomplete. */
  private Future<List<TopicPartition>> partitions() {
    if (partitions != null && System.nanoTime() - describedAt < PARTITIONS_KNOWN_NS) return Future.succeededFuture(partitions);
    long now = System.nanoTime();
    return admin.describeTopics(groups.values().stream().distinct().toList()).map(described -> {
      List<TopicPartition> found = new ArrayList<>();
      described.forEach((topic, d) -> d.getPartitions().forEach(p -> found.add(new TopicPartition(topic, p.getPartition()))));
      partitions = List.copyOf(found);
      describedAt = now;
      return partitions;
    });
  }

  private static Map<TopicPartition, OffsetSpec> spec(List<TopicPartition> partitions, OffsetSpec spec) {
    Map<TopicPartition, OffsetSpec> map = new HashMap<>();
    partitions.forEach(tp -> map.put(tp, spec));
    return map;
  }

  /**
   * Whether {@code group} has a live member. Each group is asked apart: Kafka 4's group coordinator answers a group
   * that no consumer ever joined with GroupIdNotFoundException, where Kafka 3 described it empty; that is no member.
   */
  public static Future<Boolean> hasLiveMember(KafkaAdminClient admin, String group) {
    return admin.describeConsumerGroups(List.of(group))
      .map(found -> found.get(group) != null && !found.get(group).getMembers().isEmpty())
      .recover(e -> notFound(e) ? Future.succeededFuture(false) : Future.failedFuture(e));
  }

  private static boolean notFound(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof GroupIdNotFoundException) return true;
    }
    return false;
  }
}
