package ccp.platform.kafka;

import io.vertx.core.Context;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.kafka.client.consumer.KafkaConsumer;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A {@link ReliableConsumer} in a verticle of its own, over a {@link MockConsumer}: the test plays the broker and the
 * group coordinator (assigns partitions, offers records) and reads what the consumer committed and paused. Everything
 * the consumer owns is touched on the verticle's event loop ({@link #onLoop}), as in production.
 */
final class MockConsumerHost implements AutoCloseable {

  static final String GROUP = "grupo-prueba";

  private final Vertx vertx;
  private final String topic;
  private final Host host;
  private final String deployment;

  private MockConsumerHost(Vertx vertx, String topic, Host host) {
    this.vertx = vertx;
    this.topic = topic;
    this.host = host;
    this.deployment = vertx.deployVerticle(host).await();
  }

  /** Deploys and subscribes a consumer of {@code topic}; {@code deadLetters} may be null where none is expected. */
  static MockConsumerHost start(Vertx vertx, String topic, KafkaConfig kafka, EventPublisher deadLetters,
                                ReliableConsumer.Handler handler, Predicate<KafkaConsumerRecord<String, String>> concerns) {
    return start(vertx, GROUP, topic, kafka, deadLetters, handler, concerns);
  }

  /** The same, as a member of consumer group {@code group}. */
  static MockConsumerHost start(Vertx vertx, String group, String topic, KafkaConfig kafka, EventPublisher deadLetters,
                                ReliableConsumer.Handler handler, Predicate<KafkaConsumerRecord<String, String>> concerns) {
    return start(vertx, group, topic, kafka, deadLetters, handler, concerns, ReliableConsumer.RetryPolicy.DEAD_LETTER_WHEN_EXHAUSTED,
      () -> Future.succeededFuture(true));
  }

  /** The same, with a retry policy and the process's readiness as {@code ready} answers it. */
  static MockConsumerHost start(Vertx vertx, String group, String topic, KafkaConfig kafka, EventPublisher deadLetters,
                                ReliableConsumer.Handler handler, Predicate<KafkaConsumerRecord<String, String>> concerns,
                                ReliableConsumer.RetryPolicy policy, Supplier<Future<Boolean>> ready) {
    return start(vertx, group, topic, kafka, deadLetters, handler, concerns, policy, ready, Priority.NONE);
  }

  /** The same, with its place among the consumers of its process. */
  static MockConsumerHost start(Vertx vertx, String group, String topic, KafkaConfig kafka, EventPublisher deadLetters,
                                ReliableConsumer.Handler handler, Predicate<KafkaConsumerRecord<String, String>> concerns,
                                ReliableConsumer.RetryPolicy policy, Supplier<Future<Boolean>> ready, Priority priority) {
    return new MockConsumerHost(vertx, topic, new Host(kafka, group, topic, deadLetters, handler, concerns, policy, ready, priority));
  }

  /** {@code kafka.*} as the tests need them: no broker, the given commit interval and in-flight limit. */
  static KafkaConfig kafka(int commitIntervalMs, int maxInFlight) {
    return kafka(commitIntervalMs, maxInFlight, 30_000);
  }

  /** The same, with a failing record retried for {@code retryMs} before it is a dead letter. */
  static KafkaConfig kafka(int commitIntervalMs, int maxInFlight, int retryMs) {
    return new KafkaConfig("mock:9092", "ccp-mock", "mock", 6_000, commitIntervalMs, maxInFlight, 1, 500, retryMs, 500, 2);
  }

  /** An envelope whose subject names the record ({@code partition@offset}), as the handler will see it. */
  static String value(int partition, long offset) {
    return Envelope.create("prueba.hecha", "/prueba", at(partition, offset), new JsonObject().put("n", offset)).encode();
  }

  static String at(int partition, long offset) {
    return partition + "@" + offset;
  }

  /** The group gives this member {@code partitions} of the topic, each read from offset 0. */
  MockConsumerHost assign(int... partitions) {
    Map<TopicPartition, Long> beginning = new HashMap<>();
    for (int p : partitions) beginning.put(partition(p), 0L);
    host.mock.updateBeginningOffsets(beginning);
    host.mock.rebalance(beginning.keySet());
    return this;
  }

  /** The group gives this member {@code partition}, where it had committed {@code offset} before. */
  MockConsumerHost assignCommitted(int partition, long offset) {
    host.mock.commitSync(Map.of(partition(partition), new OffsetAndMetadata(offset)));
    return assign(partition);
  }

  /** Offers records ({@code key, value} per offset from {@code firstOffset}) to the consumer, all in one poll. */
  void offer(int partition, long firstOffset, String... keysAndValues) {
    host.mock.schedulePollTask(() -> {
      for (int i = 0; i < keysAndValues.length; i += 2) {
        host.mock.addRecord(new ConsumerRecord<>(topic, partition, firstOffset + i / 2, keysAndValues[i], keysAndValues[i + 1]));
      }
    });
  }

  /** Offers one record of key {@code key}, valued {@link #value}, produced at {@code timestampMs}. */
  void offerProducedAt(int partition, long offset, String key, long timestampMs) {
    host.mock.schedulePollTask(() -> host.mock.addRecord(new ConsumerRecord<>(topic, partition, offset, timestampMs,
      TimestampType.CREATE_TIME, -1, -1, key, value(partition, offset), new RecordHeaders(), Optional.empty())));
  }

  /** Offers records of the given keys from {@code firstOffset}, each valued {@link #value}. */
  void offerKeys(int partition, long firstOffset, String... keys) {
    String[] keysAndValues = new String[keys.length * 2];
    for (int i = 0; i < keys.length; i++) {
      keysAndValues[2 * i] = keys[i];
      keysAndValues[2 * i + 1] = value(partition, firstOffset + i);
    }
    offer(partition, firstOffset, keysAndValues);
  }

  /** The highest offset committed for {@code partition} so far, -1 if none. */
  long committed(int partition) {
    return host.mock.commits.stream().map(c -> c.get(partition(partition))).filter(o -> o != null)
      .mapToLong(OffsetAndMetadata::offset).max().orElse(-1);
  }

  /** Every commit, in order: partition → offset. */
  List<Map<Integer, Long>> commits() {
    return host.mock.commits.stream()
      .map(c -> c.entrySet().stream().collect(Collectors.toMap(e -> e.getKey().partition(), e -> e.getValue().offset())))
      .toList();
  }

  /**
   * Runs {@code action} on the consumer's event loop, then answers the partitions paused once every pause and resume
   * it asked for meanwhile has reached the client (they share one queue to the client's thread).
   */
  Set<Integer> pausedAfter(Runnable action) {
    return onLoop(() -> {
      action.run();
      return host.client.paused();
    }).map(paused -> paused.stream().map(io.vertx.kafka.client.common.TopicPartition::getPartition).collect(Collectors.toSet()))
      .await();
  }

  /** The log's end of each partition as the broker would answer it, then this member's lag gauge on {@code registry}. */
  void lagOn(MeterRegistry registry, Map<Integer, Long> ends) {
    Map<TopicPartition, Long> byPartition = new HashMap<>();
    ends.forEach((p, end) -> byPartition.put(partition(p), end));
    host.mock.updateEndOffsets(byPartition);
    run(() -> host.consumer.lagOn(registry));
  }

  /** This member's retrying gauge on {@code registry}. */
  void retryingOn(MeterRegistry registry) {
    run(() -> host.consumer.retryingOn(registry));
  }

  /** The log's end moves on (records the member has not fetched, e.g. while it is paused). */
  void endOffsets(Map<Integer, Long> ends) {
    Map<TopicPartition, Long> byPartition = new HashMap<>();
    ends.forEach((p, end) -> byPartition.put(partition(p), end));
    host.mock.updateEndOffsets(byPartition);
  }

  JsonObject readiness() {
    return onLoop(() -> Future.succeededFuture(host.consumer.readiness())).await();
  }

  /** Runs {@code action} on the consumer's event loop and waits for it. */
  void run(Runnable action) {
    onLoop(() -> {
      action.run();
      return Future.succeededFuture();
    }).await();
  }

  private <T> Future<T> onLoop(Supplier<Future<T>> action) {
    Promise<T> answer = Promise.promise();
    host.context().runOnContext(v -> action.get().onComplete(answer));
    return answer.future().timeout(10, TimeUnit.SECONDS);
  }

  /** Stops the consumer as its verticle's undeployment does: commits what is handled and leaves the group. */
  @Override
  public void close() {
    if (vertx.deploymentIDs().contains(deployment)) vertx.undeploy(deployment).timeout(10, TimeUnit.SECONDS).await();
  }

  private TopicPartition partition(int p) {
    return new TopicPartition(topic, p);
  }

  /** The client's calls that came after its close, by name. */
  List<String> callsAfterClose() {
    return List.copyOf(host.mock.afterClose);
  }

  /**
   * Keeps every commit the consumer makes (the Vert.x client commits through {@code commitSync}, which lands here), and
   * the calls made once it is closed.
   */
  private static final class Recording extends MockConsumer<String, String> {
    private final List<Map<TopicPartition, OffsetAndMetadata>> commits = new CopyOnWriteArrayList<>();
    private final List<String> afterClose = new CopyOnWriteArrayList<>();

    Recording() {
      super(OffsetResetStrategy.EARLIEST);
    }

    private void called(String name) {
      if (closed()) afterClose.add(name);
    }

    @Override
    public synchronized void pause(Collection<TopicPartition> partitions) {
      called("pause");
      super.pause(partitions);
    }

    @Override
    public synchronized void resume(Collection<TopicPartition> partitions) {
      called("resume");
      super.resume(partitions);
    }

    @Override
    public synchronized ConsumerRecords<String, String> poll(Duration timeout) {
      called("poll");
      return super.poll(timeout);
    }

    @Override
    public synchronized void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
      called("commitSync");
      super.commitSync(offsets);
    }

    @Override
    public synchronized Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
      called("endOffsets");
      return super.endOffsets(partitions);
    }

    @Override
    public synchronized void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
      commits.add(Map.copyOf(offsets));
      super.commitAsync(offsets, callback);
    }
  }

  private static final class Host extends VerticleBase {
    private final Recording mock = new Recording();
    private final KafkaConfig kafka;
    private final String group;
    private final String topic;
    private final EventPublisher deadLetters;
    private final ReliableConsumer.Handler handler;
    private final Predicate<KafkaConsumerRecord<String, String>> concerns;
    private final ReliableConsumer.RetryPolicy policy;
    private final Supplier<Future<Boolean>> ready;
    private final Priority priority;
    private ReliableConsumer consumer;
    private KafkaConsumer<String, String> client;

    Host(KafkaConfig kafka, String group, String topic, EventPublisher deadLetters, ReliableConsumer.Handler handler,
         Predicate<KafkaConsumerRecord<String, String>> concerns, ReliableConsumer.RetryPolicy policy,
         Supplier<Future<Boolean>> ready, Priority priority) {
      this.priority = priority;
      this.policy = policy;
      this.ready = ready;
      this.kafka = kafka;
      this.group = group;
      this.topic = topic;
      this.deadLetters = deadLetters;
      this.handler = handler;
      this.concerns = concerns;
    }

    Context context() {
      return context;
    }

    @Override
    public Future<?> start() {
      consumer = new ReliableConsumer(vertx, kafka, group, topic, deadLetters, handler, concerns, policy, ready, config -> {
        client = KafkaConsumer.create(vertx, mock);
        return client;
      }).priority(priority);
      return consumer.start();
    }

    @Override
    public Future<?> stop() {
      return consumer.stop();
    }
  }
}
