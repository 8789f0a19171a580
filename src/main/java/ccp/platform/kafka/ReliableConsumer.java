package ccp.platform.kafka;

import ccp.platform.async.PeriodicTask;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.kafka.client.common.TopicPartition;
import io.vertx.kafka.client.consumer.KafkaConsumer;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * At-least-once consumption of one topic by one consumer group ("queue" of the view), for the verticle that
 * creates it in its {@code start()}; all its state is confined to that verticle's event loop. Its parts:
 * <ul>
 *   <li>{@link KeyOrder}: one key's records one after another, in partition order; other keys meanwhile.</li>
 *   <li>{@link Offsets}: the offset committed for a partition is the one after the highest <em>contiguous</em> handled
 *       record, so a crash never skips an unhandled one (handlers must be idempotent: they are).</li>
 *   <li>{@link RecordHandling}, {@link Retries}, {@link DeadLetters}: a handler failure is retried with back-off; a
 *       {@link PoisonMessageException} (or an unparseable envelope) sends the original record to {@code cola.fallidos}
 *       with its reason, as does one failing past {@code kafka.consumer.retry-ms} ({@link RetryPolicy}); a failure
 *       while the process is not ready pauses the consumer until it is — an outage is waited out.</li>
 *   <li>{@link Throttle}: past {@code kafka.consumer.max-in-flight} records in progress, or four times as many fetched
 *       records waiting behind an unfinished one for their commit, the assigned partitions are paused.</li>
 * </ul>
 * {@link MemberGauges} shows its lag, how long it has retried its oldest failing record, and whether it yields.
 */
public final class ReliableConsumer {

  /** What becomes of a record whose handling keeps failing while the process is ready. */
  public enum RetryPolicy {
    /** After {@code kafka.consumer.retry-ms} of failures it goes to {@code cola.fallidos}, and the consumer moves on. */
    DEAD_LETTER_WHEN_EXHAUSTED,
    /** Retried until it succeeds: a consumer that fails closed, for which a record set aside is a check not made. */
    UNTIL_DONE
  }

  /** Handles one record; the returned future completes when its effect is durable. */
  @FunctionalInterface
  public interface Handler {
    Future<?> handle(Envelope envelope);
  }

  private static final Logger LOG = LoggerFactory.getLogger(ReliableConsumer.class);
  /** The longest any one of the client's calls may block its thread (see {@link #start}). */
  private static final int API_TIMEOUT_MS = 10_000;

  private final Vertx vertx;
  private final KafkaConfig kafka;
  private final String group;
  private final String topic;
  private final Predicate<KafkaConsumerRecord<String, String>> concerns;
  private final Function<Map<String, String>, KafkaConsumer<String, String>> clients;
  private final Offsets offsets = new Offsets();
  private final KeyOrder keys = new KeyOrder();
  private final Retries retries;
  private final RecordHandling handling;
  private final Throttle throttle;
  private final Set<TopicPartition> assigned = new HashSet<>();
  private KafkaConsumer<String, String> consumer;
  private MemberGauges gauges;
  private PeriodicTask commits;
  private Priority priority = Priority.NONE;
  private int inFlight;
  /** When a record last completed, or the first one was taken after none was in flight: how long it has not moved. */
  private long progressedAt = System.nanoTime();
  private boolean joined;
  private boolean closed;
  /**
   * The client's close is asked: nothing may call the client again. The Vert.x client reopens itself on any call after
   * its close (a second thread on the same Kafka consumer, its poll loop again): the close then fails on the
   * consumer's multi-threaded access and never ends, and the member, still heartbeating, keeps its partitions.
   */
  private boolean released;

  /**
   * {@code concerns} tells, from the record's key and headers alone, whether this group has anything to do with it
   * (a group that shares a topic with others); records it does not concern pass without being parsed.
   * {@code dependenciesReady} answers whether the process is ready (its database and broker answer): a failure while
   * it is not pauses the consumer instead of counting against the record.
   */
  public ReliableConsumer(Vertx vertx, KafkaConfig kafka, String group, String topic, EventPublisher deadLetters, Handler handler,
                          Predicate<KafkaConsumerRecord<String, String>> concerns, RetryPolicy policy,
                          Supplier<Future<Boolean>> dependenciesReady) {
    this(vertx, kafka, group, topic, deadLetters, handler, concerns, policy, dependenciesReady,
      config -> KafkaConsumer.create(vertx, config, String.class, String.class));
  }

  /** {@code clients} makes the Kafka client from its configuration: the tests put a {@code MockConsumer} under it. */
  ReliableConsumer(Vertx vertx, KafkaConfig kafka, String group, String topic, EventPublisher deadLetters, Handler handler,
                   Predicate<KafkaConsumerRecord<String, String>> concerns, RetryPolicy policy,
                   Supplier<Future<Boolean>> dependenciesReady,
                   Function<Map<String, String>, KafkaConsumer<String, String>> clients) {
    this.vertx = vertx;
    this.kafka = kafka;
    this.group = group;
    this.topic = topic;
    this.concerns = concerns;
    this.clients = clients;
    this.retries = new Retries(vertx, group, kafka.retryMs(), dependenciesReady, this::flow);
    this.handling = new RecordHandling(handler, policy, retries,
      new DeadLetters(group, (to, key, letter) -> deadLetters.publish(to, key, letter)));
    this.throttle = new Throttle(vertx, kafka, partitions -> consumer.pause(partitions), partitions -> consumer.resume(partitions));
  }

  /** Its place among the consumers of its process ({@link Priority}); before {@link #start}. */
  public ReliableConsumer priority(Priority priority) {
    this.priority = priority;
    return this;
  }

  /** Subscribes; completes once the subscription is registered (readiness waits for the first assignment). */
  public Future<Void> start() {
    String clientId = group + "-" + UUID.randomUUID().toString().substring(0, 8);
    // Every blocking call of the client (a commit, the log's end for the lag) runs on the consumer's one thread, which
    // the close waits behind: bounded well below the client's 60 s default, so a stop during a rebalance stays short.
    consumer = clients.apply(kafka.consumer(group, clientId, API_TIMEOUT_MS));
    consumer.exceptionHandler(err -> LOG.warn("Consumer {} of {}: {}", group, topic, err.toString()));
    consumer.partitionsAssignedHandler(this::onAssigned);
    consumer.partitionsRevokedHandler(this::onRevoked);
    consumer.handler(this::onRecord);
    gauges = new MemberGauges(group, topic, clientId, MemberGauges.Log.of(consumer), offsets, assigned, () -> closed);
    commits = PeriodicTask.every(vertx, kafka.commitIntervalMs(), "Committing group " + group, this::commit);
    throttle.start(priority, clientId, this::flow);
    return consumer.subscribe(topic);
  }

  /** Gauges ({@link MemberGauges}), each to be removed on stop: {@code kafka_consumer_lag}. */
  Gauge lagOn(MeterRegistry registry) {
    return gauges.lagOn(vertx, registry);
  }

  /** {@code kafka_consumer_retrying_seconds}. */
  Gauge retryingOn(MeterRegistry registry) {
    return gauges.retryingOn(registry, retries::oldestFailingSeconds);
  }

  /** {@code kafka_consumer_yielding}, a chain member's. */
  Gauge yieldingOn(MeterRegistry registry) {
    return gauges.yieldingOn(registry, throttle::yieldingNow);
  }

  /** Ready once the group has given this member its share (possibly none: a standby). */
  public JsonObject readiness() {
    return new JsonObject()
      .put("ready", joined)
      .put("group", group)
      .put("topic", topic)
      .put("partitions", assigned.stream().map(TopicPartition::getPartition).sorted().toList())
      .put("in_flight", inFlight)
      .put("stalled_ms", stalledMs())
      .put("waiting_for_commit", offsets.waiting())
      .put("paused", throttle.paused())
      .put("paused_for_outage", retries.outage())
      .put("yielding_to_security", throttle.yielding());
  }

  /** How long it has held records without finishing any (0 with none): a member alive but hung shows here. */
  public long stalledMs() {
    return inFlight == 0 ? 0 : (System.nanoTime() - progressedAt) / 1_000_000;
  }

  /** Commits what is handled (after any commit in flight) and leaves the group. */
  public Future<Void> stop() {
    closed = true;
    if (commits != null) commits.cancel();
    if (gauges != null) gauges.stop();
    throttle.stop();
    retries.stop();
    // Each wait bounded: a commit whose callback never comes, or a close stuck in the client, would otherwise hold the
    // process's stop for ever (the seguridad leadership's lock held behind it). What is not committed is redelivered,
    // and every effect is idempotent.
    return offsets.lastCommit().timeout(API_TIMEOUT_MS, TimeUnit.MILLISECONDS)
      .recover(err -> {
        LOG.warn("Group {}: the commit in flight did not end within {} ms of the stop ({})", group, API_TIMEOUT_MS, err.toString());
        return Future.succeededFuture();
      })
      .eventually(this::commit)
      .eventually(() -> release()
        .timeout(2L * API_TIMEOUT_MS, TimeUnit.MILLISECONDS)
        .onFailure(err -> LOG.warn("Group {}: the consumer's close did not end ({}); left to the process's end", group, err.toString()))
        .otherwiseEmpty());
  }

  private Future<Void> release() {
    released = true;
    return consumer.close();
  }

  private void onAssigned(Set<TopicPartition> partitions) {
    joined = true;
    assigned.addAll(partitions);
    offsets.assigned(partitions);
    throttle.assigned();
    flow();
    LOG.info("Group {} assigned {}", group, partitions);
  }

  /** Runs after the rebalance: a commit here could move the new owner's offset back, so none is made. */
  private void onRevoked(Set<TopicPartition> partitions) {
    assigned.removeAll(partitions);
    offsets.revoked(partitions);
    LOG.info("Group {} revoked {}", group, partitions);
  }

  private void onRecord(KafkaConsumerRecord<String, String> record) {
    Offsets.Ticket ticket = offsets.fetched(new TopicPartition(record.topic(), record.partition()), record.offset());
    if (!concerns.test(record)) {
      offsets.done(ticket);
      flow();
      return;
    }
    if (inFlight == 0) progressedAt = System.nanoTime();
    inFlight++;
    throttle.taken(record.timestamp());
    flow();
    // A record without a key has no order to keep with any other.
    String key = record.key() != null ? record.key() : RecordHandling.name(record);
    keys.after(key, () -> handling.handle(record)).onComplete(result -> {
      inFlight--;
      progressedAt = System.nanoTime();
      if (result.succeeded()) offsets.done(ticket);
      flow();
    });
  }

  /** Pauses or resumes the assigned partitions ({@link Throttle}); a record finishing after the stop touches nothing. */
  private void flow() {
    if (!released) throttle.flow(inFlight, offsets.waiting(), retries.outage(), assigned);
  }

  private Future<Void> commit() {
    return consumer == null || released ? Future.succeededFuture() : offsets.commit(consumer::commit, group);
  }
}
