package ccp.platform.kafka;

import ccp.platform.async.PeriodicTask;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.kafka.client.common.TopicPartition;
import io.vertx.kafka.client.consumer.KafkaConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;

/**
 * A group member's gauges, each tagged with its group and client: its lag ({@code kafka_consumer_lag}), how long it has
 * been retrying its oldest failing record ({@code kafka_consumer_retrying_seconds}) and, for a chain consumer, whether
 * it yields ({@code kafka_consumer_yielding}). The lag is measured here on the consumer's event loop every
 * {@link #LAG_PERIOD_MS}, one measurement at a time: its calls queue on the client's one thread ahead of a close, and
 * each may take up to {@code default.api.timeout.ms}.
 */
final class MemberGauges {

  /** The client's calls the lag needs: the log's end of each partition, and the member's position in one. */
  interface Log {
    Future<Map<TopicPartition, Long>> ends(Set<TopicPartition> partitions);

    Future<Long> position(TopicPartition partition);

    static Log of(KafkaConsumer<?, ?> client) {
      return new Log() {
        @Override
        public Future<Map<TopicPartition, Long>> ends(Set<TopicPartition> partitions) {
          return client.endOffsets(partitions);
        }

        @Override
        public Future<Long> position(TopicPartition partition) {
          return client.position(partition);
        }
      };
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(MemberGauges.class);
  /** How often a member measures its lag: one end-offsets request to the broker each time. */
  static final long LAG_PERIOD_MS = 5_000;

  private final String group;
  private final String topic;
  private final String client;
  private final Log log;
  private final Offsets offsets;
  private final Set<TopicPartition> assigned;
  private final BooleanSupplier closed;
  private PeriodicTask lagTask;
  /** Written on the consumer's context, read by the metrics scrape. */
  private volatile long lag;

  /** {@code assigned} is the consumer's own set of partitions held, read when the lag is measured. */
  MemberGauges(String group, String topic, String client, Log log, Offsets offsets, Set<TopicPartition> assigned,
               BooleanSupplier closed) {
    this.group = group;
    this.topic = topic;
    this.client = client;
    this.log = log;
    this.offsets = offsets;
    this.assigned = assigned;
    this.closed = closed;
  }

  /**
   * The records of the member's partitions not yet handled (the log's end minus the commit point). A paused consumer —
   * the overload case — keeps counting, which the client's own fetch metrics would not. Remove it on stop.
   */
  Gauge lagOn(Vertx vertx, MeterRegistry registry) {
    lagTask = PeriodicTask.every(vertx, LAG_PERIOD_MS, "Measuring the lag of group " + group, this::measureLag);
    return Gauge.builder("kafka_consumer_lag", this, gauges -> gauges.lag)
      .description("Records of the group member's partitions not yet handled: the log's end minus its commit point")
      .tag("group", group)
      .tag("topic", topic)
      .tag("client", client)
      .register(registry);
  }

  /**
   * How long the oldest record still retried has been failing, from its first failure, an outage's wait included (0
   * when none is). A record that keeps failing holds its partition's commit, and under
   * {@link ReliableConsumer.RetryPolicy#UNTIL_DONE} nothing else tells anyone: this is what pages
   * (k8s/monitoring/alerts.yaml). Remove it on stop.
   */
  Gauge retryingOn(MeterRegistry registry, DoubleSupplier oldestFailingSeconds) {
    return Gauge.builder("kafka_consumer_retrying_seconds", oldestFailingSeconds::getAsDouble)
      .description("How long the oldest record this group member is still retrying has been failing, 0 when none is")
      .tag("group", group)
      .tag("topic", topic)
      .tag("client", client)
      .register(registry);
  }

  /** 1 while a chain consumer yields to a security consumer of its process. Remove it on stop. */
  Gauge yieldingOn(MeterRegistry registry, BooleanSupplier yielding) {
    return Gauge.builder("kafka_consumer_yielding", () -> yielding.getAsBoolean() ? 1 : 0)
      .description("1 while this chain consumer yields to a security consumer of its process that is behind: security first under overload")
      .tag("group", group)
      .tag("client", client)
      .register(registry);
  }

  long lag() {
    return lag;
  }

  /** Measures the lag now; never fails (a measurement that fails leaves the last one, and says so in the log). */
  Future<Void> measureLag() {
    if (closed.getAsBoolean() || assigned.isEmpty()) {
      lag = 0;
      return Future.succeededFuture();
    }
    return log.ends(new HashSet<>(assigned)).compose(ends -> {
      if (closed.getAsBoolean()) return Future.<Long>failedFuture("consumer stopped");
      List<Future<Long>> behind = new ArrayList<>();
      ends.forEach((tp, end) -> {
        long done = offsets.standing(tp);
        // Nothing fetched since the assignment: the client's position is still the group's committed offset. (Not
        // committed(tp): the Vert.x 5.0 client calls a method of Kafka's consumer that Kafka 4 removed.)
        behind.add(done >= 0 ? Future.succeededFuture(Math.max(0, end - done))
          : log.position(tp).map(position -> Math.max(0, end - position)));
      });
      return Future.all(behind).map(all -> behind.stream().mapToLong(Future::result).sum());
    }).onSuccess(total -> lag = total)
      .onFailure(err -> LOG.debug("Group {}: lag not measured ({})", group, err.toString()))
      .<Void>mapEmpty()
      .otherwiseEmpty();
  }

  void stop() {
    if (lagTask != null) lagTask.cancel();
  }
}
