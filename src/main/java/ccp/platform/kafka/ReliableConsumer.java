package ccp.platform.kafka;

import ccp.platform.async.Backoff;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.kafka.client.common.TopicPartition;
import io.vertx.kafka.client.consumer.KafkaConsumer;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;
import io.vertx.kafka.client.consumer.OffsetAndMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * At-least-once consumption of one topic by one consumer group ("queue" of the view), for the verticle that
 * creates it in its {@code start()}; all its state is confined to that verticle's event loop.
 * <ul>
 *   <li>Records of one key are handled one after another, in partition order; different keys run concurrently.</li>
 *   <li>The offset committed for a partition is the one after the highest <em>contiguous</em> handled record, so a
 *       crash never skips an unhandled one (handlers must be idempotent: they are).</li>
 *   <li>A handler failure is retried with back-off; a {@link PoisonMessageException} (or an unparseable envelope)
 *       sends the original record to {@code cola.fallidos} with its reason, and the consumer goes on; the dead
 *       letter's id derives from the record and the group, so a redelivered poison record is the same dead letter.</li>
 *   <li>A record that keeps failing is not retried for ever ({@link RetryPolicy#DEAD_LETTER_WHEN_EXHAUSTED}): after
 *       {@code kafka.consumer.retry-ms} of failures it is a dead letter too, so its partition's commit moves on. Only
 *       failures while the process is ready count: a failure while a dependency is down (readiness failing) pauses the
 *       assigned partitions instead, until the process is ready again, and then the record's count starts afresh — an
 *       outage is waited out, not turned into dead letters. A consumer that must fail closed retries until done
 *       ({@link RetryPolicy#UNTIL_DONE}); how long the oldest failing record has been retried is a gauge
 *       ({@link #retryingOn}), so that a stuck one reaches a person.</li>
 *   <li>Past {@code kafka.consumer.max-in-flight} records in progress, or four times as many fetched records waiting
 *       behind an unfinished one for their commit, the assigned partitions are paused: memory stays bounded.</li>
 * </ul>
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
  private static final Backoff RETRY = new Backoff(100, 5_000);
  /** How long one answer of the process's readiness stands: many records failing at once ask it once. */
  private static final long READINESS_TTL_MS = 1_000;
  /** How often a consumer paused by an outage asks whether the process is ready again. */
  private static final long OUTAGE_PROBE_MS = 1_000;
  /** Fetched records that may wait behind an unfinished one for their commit, per record allowed in flight. */
  private static final int WAITING_PER_IN_FLIGHT = 4;
  /** How often a member measures its lag: one end-offsets request to the broker each time. */
  private static final long LAG_PERIOD_MS = 5_000;
  /** The longest any one of the client's calls may block its thread (see {@link #start}). */
  private static final int API_TIMEOUT_MS = 10_000;

  private final Vertx vertx;
  private final KafkaConfig kafka;
  private final String group;
  private final String topic;
  private final Handler handler;
  private final Predicate<KafkaConsumerRecord<String, String>> concerns;
  private final EventPublisher deadLetters;
  private final int maxInFlight;
  private final int maxWaiting;
  private final long retryMs;
  private final RetryPolicy policy;
  private final Supplier<Future<Boolean>> dependenciesReady;
  private final Function<Map<String, String>, KafkaConsumer<String, String>> clients;

  private final Map<TopicPartition, Progress> progress = new HashMap<>();
  private final Set<TopicPartition> assigned = new HashSet<>();
  private final Map<String, Future<Void>> tailByKey = new HashMap<>();
  private final FailingRecords failing = new FailingRecords();
  private KafkaConsumer<String, String> consumer;
  private String clientId;
  private long lagTimer = -1;
  /** Written on this consumer's context, read by the metrics scrape. */
  private volatile long lag;
  private boolean measuringLag;
  private long commitTimer = -1;
  private int inFlight;
  /** When a record last completed, or the first one was taken after none was in flight: how long it has not moved. */
  private long progressedAt = System.nanoTime();
  private boolean paused;
  private boolean saturated;
  /** Fetched records of the partitions held whose commit waits (unfinished, or finished behind an unfinished one). */
  private int waiting;
  /** Completed when the process is ready again; null while it is (no outage). */
  private Promise<Void> recovery;
  private long outageProbe = -1;
  private Future<Boolean> readiness;
  private long readinessAskedAt;
  private boolean committing;
  private Future<Void> lastCommit = Future.succeededFuture();
  private boolean joined;
  private boolean closed;
  /**
   * The client's close is asked: nothing may call the client again. The Vert.x client reopens itself on any call after
   * its close (a second thread on the same Kafka consumer, its poll loop again): the close then fails on the
   * consumer's multi-threaded access and never ends, and the member, still heartbeating, keeps its partitions.
   */
  private boolean released;
  private Priority priority = Priority.NONE;
  private SecurityPressure.Reporter pressure;
  private SecurityPressure.Listener yieldTo;
  private long pressureTimer = -1;
  /** Written on this consumer's context, read by the metrics scrape. */
  private volatile boolean yieldingNow;

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

  /** {@code clients} makes the Kafka client from its configuration: the unit tests put a {@code MockConsumer} under it. */
  ReliableConsumer(Vertx vertx, KafkaConfig kafka, String group, String topic, EventPublisher deadLetters, Handler handler,
                   Predicate<KafkaConsumerRecord<String, String>> concerns, RetryPolicy policy,
                   Supplier<Future<Boolean>> dependenciesReady,
                   Function<Map<String, String>, KafkaConsumer<String, String>> clients) {
    this.vertx = vertx;
    this.concerns = concerns;
    this.kafka = kafka;
    this.group = group;
    this.topic = topic;
    this.handler = handler;
    this.deadLetters = deadLetters;
    this.maxInFlight = kafka.maxInFlight();
    this.maxWaiting = WAITING_PER_IN_FLIGHT * kafka.maxInFlight();
    this.retryMs = kafka.retryMs();
    this.policy = policy;
    this.dependenciesReady = dependenciesReady;
    this.clients = clients;
  }

  /** Its place among the consumers of its process ({@link Priority}); before {@link #start}. */
  public ReliableConsumer priority(Priority priority) {
    this.priority = priority;
    return this;
  }

  /** Subscribes; completes once the subscription is registered (readiness waits for the first assignment). */
  public Future<Void> start() {
    int sessionTimeout = kafka.sessionTimeoutMs();
    Map<String, String> config = kafka.client();
    config.put("group.id", group);
    clientId = group + "-" + UUID.randomUUID().toString().substring(0, 8);
    config.put("client.id", clientId);
    config.put("enable.auto.commit", "false");
    config.put("auto.offset.reset", "earliest");
    config.put("session.timeout.ms", String.valueOf(sessionTimeout));
    config.put("heartbeat.interval.ms", String.valueOf(Math.max(1000, sessionTimeout / 3)));
    config.put("max.poll.records", "500");
    config.put("fetch.min.bytes", String.valueOf(kafka.fetchMinBytes()));
    config.put("fetch.max.wait.ms", String.valueOf(kafka.fetchMaxWaitMs()));
    // Every blocking call of the client (a commit, the log's end for the lag) runs on the consumer's one thread, which
    // the close waits behind: bounded well below the client's 60 s default, so a stop during a rebalance stays short.
    config.put("default.api.timeout.ms", String.valueOf(API_TIMEOUT_MS));
    config.put("request.timeout.ms", String.valueOf(API_TIMEOUT_MS));
    consumer = clients.apply(config);
    consumer.exceptionHandler(err -> LOG.warn("Consumer {} of {}: {}", group, topic, err.toString()));
    consumer.partitionsAssignedHandler(this::onAssigned);
    consumer.partitionsRevokedHandler(this::onRevoked);
    consumer.handler(this::onRecord);
    commitTimer = vertx.setPeriodic(kafka.commitIntervalMs(), id -> commitProgress());
    if (priority == Priority.SECURITY) {
      pressure = new SecurityPressure.Reporter(vertx, clientId, kafka.yieldDelayMs());
      pressureTimer = vertx.setPeriodic(SecurityPressure.PERIOD_MS, id -> pressure.report(saturated && recovery == null));
    } else if (priority == Priority.CHAIN) {
      yieldTo = new SecurityPressure.Listener(vertx, this::flow);
      // A member that went silent stops counting after a while: look again even when no one says anything.
      pressureTimer = vertx.setPeriodic(SecurityPressure.STALE_MS / 4, id -> flow());
    }
    return consumer.subscribe(topic);
  }

  /**
   * This member's lag as a gauge, {@code kafka_consumer_lag} tagged with its group and topic: the records of its
   * partitions not yet handled (the log's end minus the commit point), measured every {@link #LAG_PERIOD_MS}. A paused
   * consumer — the overload case — keeps counting, which the client's own fetch metrics would not. Remove it on stop.
   */
  Gauge lagOn(MeterRegistry registry) {
    lagTimer = vertx.setPeriodic(LAG_PERIOD_MS, id -> measureLag());
    return Gauge.builder("kafka_consumer_lag", this, consumer -> consumer.lag)
      .description("Records of the group member's partitions not yet handled: the log's end minus its commit point")
      .tag("group", group)
      .tag("topic", topic)
      .tag("client", clientId)
      .register(registry);
  }

  /**
   * How long this member has been retrying its oldest record still failing, as a gauge,
   * {@code kafka_consumer_retrying_seconds} tagged with its group and topic (0 when none is), from the record's first
   * failure, an outage's wait included. A record that keeps failing holds its partition's commit, and under
   * {@link RetryPolicy#UNTIL_DONE} nothing else tells anyone: this is what pages (k8s/monitoring/alerts.yaml). Remove
   * it on stop.
   */
  Gauge retryingOn(MeterRegistry registry) {
    return Gauge.builder("kafka_consumer_retrying_seconds", failing, FailingRecords::oldestSeconds)
      .description("How long the oldest record this group member is still retrying has been failing, 0 when none is")
      .tag("group", group)
      .tag("topic", topic)
      .tag("client", clientId)
      .register(registry);
  }

  /** A chain member's yielding to the security consumers of its process as a gauge, {@code kafka_consumer_yielding} (1 while it yields). */
  Gauge yieldingOn(MeterRegistry registry) {
    return Gauge.builder("kafka_consumer_yielding", this, consumer -> consumer.yieldingNow ? 1 : 0)
      .description("1 while this chain consumer yields to a security consumer of its process that is behind (issue 16)")
      .tag("group", group)
      .tag("client", clientId)
      .register(registry);
  }

  private void measureLag() {
    if (closed || assigned.isEmpty()) {
      lag = 0;
      return;
    }
    // One measurement at a time: its calls queue on the client's one thread, ahead of a close, and each may take up to
    // default.api.timeout.ms; new ones every period would pile up there (a stop's close was seen waiting past 20 s).
    if (measuringLag) return;
    measuringLag = true;
    Set<TopicPartition> partitions = new HashSet<>(assigned);
    consumer.endOffsets(partitions).compose(ends -> {
      if (closed) return Future.failedFuture("consumer stopped");
      List<Future<Long>> behind = new ArrayList<>();
      ends.forEach((tp, end) -> {
        Progress p = progress.get(tp);
        long done = p == null ? -1 : p.standing();
        // Nothing fetched since the assignment: the client's position is still the group's committed offset. (Not
        // committed(tp): the Vert.x 5.0 client calls a method of Kafka's consumer that Kafka 4 removed.)
        behind.add(done >= 0 ? Future.succeededFuture(Math.max(0, end - done))
          : consumer.position(tp).map(position -> Math.max(0, end - position)));
      });
      return Future.all(behind).map(all -> behind.stream().mapToLong(Future::result).sum());
    }).onSuccess(total -> lag = total)
      .onFailure(err -> LOG.debug("Group {}: lag not measured ({})", group, err.toString()))
      .onComplete(ignored -> measuringLag = false);
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
      .put("waiting_for_commit", waiting)
      .put("paused", paused)
      .put("paused_for_outage", recovery != null)
      .put("yielding_to_security", yielding());
  }

  /**
   * How long it has held records without finishing any (0 with none in hand): a consumer alive but hung — its effect
   * stuck behind a lock, a dependency that never answers — shows here while its group still counts it as a member.
   */
  public long stalledMs() {
    return inFlight == 0 ? 0 : (System.nanoTime() - progressedAt) / 1_000_000;
  }

  /** Commits what is handled (after any commit in flight) and leaves the group. */
  public Future<Void> stop() {
    closed = true;
    vertx.cancelTimer(commitTimer);
    vertx.cancelTimer(outageProbe);
    vertx.cancelTimer(lagTimer);
    vertx.cancelTimer(pressureTimer);
    if (pressure != null) pressure.stop();
    if (yieldTo != null) yieldTo.stop();
    if (recovery != null) recovery.tryFail("consumer stopped");
    // Each wait bounded: a commit whose callback never comes, or a close stuck in the client, would otherwise hold the
    // process's stop for ever (seen in the suite, the seguridad leadership's lock held behind it). What is not committed
    // is redelivered, and every effect is idempotent.
    return lastCommit.timeout(API_TIMEOUT_MS, TimeUnit.MILLISECONDS)
      .recover(err -> {
        LOG.warn("Group {}: the commit in flight did not end within {} ms of the stop ({})", group, API_TIMEOUT_MS, err.toString());
        committing = false;
        return Future.succeededFuture();
      })
      .eventually(this::commitProgress)
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
    for (TopicPartition tp : partitions) progress.putIfAbsent(tp, new Progress());
    // A rebalance resumes every partition it assigns: pause them again if the consumer is held.
    paused = false;
    flow();
    LOG.info("Group {} assigned {}", group, partitions);
  }

  /** Runs after the rebalance: a commit here could move the new owner's offset back, so none is made. */
  private void onRevoked(Set<TopicPartition> partitions) {
    assigned.removeAll(partitions);
    for (TopicPartition tp : partitions) {
      Progress gone = progress.remove(tp);
      if (gone != null) waiting -= gone.pending.size();
    }
    LOG.info("Group {} revoked {}", group, partitions);
  }

  private void onRecord(KafkaConsumerRecord<String, String> record) {
    TopicPartition tp = new TopicPartition(record.topic(), record.partition());
    Progress partition = progress.computeIfAbsent(tp, k -> new Progress());
    Slot slot = partition.track(record.offset());
    waiting++;
    if (!concerns.test(record)) {
      waiting -= partition.done(slot);
      flow();
      return;
    }
    if (inFlight == 0) progressedAt = System.nanoTime();
    inFlight++;
    if (pressure != null && record.timestamp() >= 0) pressure.taken(record.timestamp());
    flow();
    // A record without a key has no order to keep with any other.
    String key = record.key() != null ? record.key() : tp + "@" + record.offset();
    Future<Void> previous = tailByKey.get(key);
    Future<Void> run = previous == null ? handle(record) : previous.transform(ignored -> handle(record));
    tailByKey.put(key, run);
    run.onComplete(result -> {
      if (tailByKey.get(key) == run) tailByKey.remove(key);
      inFlight--;
      progressedAt = System.nanoTime();
      // A partition revoked meanwhile no longer counts: its records were taken off when it went.
      if (result.succeeded()) {
        int committable = partition.done(slot);
        if (progress.get(tp) == partition) waiting -= committable;
      }
      flow();
    });
  }

  /**
   * Pauses the assigned partitions while the consumer is saturated (max-in-flight records in progress — yield-in-flight
   * while it yields to a security consumer — or {@link #maxWaiting} fetched records waiting for their commit) or a
   * dependency is down; resumes them once in-flight and waiting records are down to half of their limits and the
   * process is ready.
   */
  private void flow() {
    // A record finishing after the stop would resume the partitions of a closed client.
    if (released) return;
    yieldingNow = yielding();
    int limit = yieldingNow ? Math.min(maxInFlight, kafka.yieldInFlight()) : maxInFlight;
    if (inFlight >= limit || waiting >= maxWaiting) saturated = true;
    else if (inFlight <= limit / 2 && waiting <= maxWaiting / 2) saturated = false;
    boolean hold = saturated || recovery != null;
    if (hold && !paused && !assigned.isEmpty()) {
      paused = true;
      consumer.pause(new HashSet<>(assigned));
    } else if (!hold && paused) {
      paused = false;
      consumer.resume(new HashSet<>(assigned));
    }
  }

  /** A chain consumer while a security consumer of its process is behind. */
  boolean yielding() {
    return yieldTo != null && yieldTo.yielding();
  }

  private Future<Void> handle(KafkaConsumerRecord<String, String> record) {
    return retrying(() -> {
      try {
        return handler.handle(Envelope.parse(record.value())).<Void>mapEmpty();
      } catch (PoisonMessageException e) {
        return Future.failedFuture(e);
      } catch (RuntimeException e) {
        // Thrown before any I/O, so deterministic for this record: no retry can help.
        return Future.failedFuture(new PoisonMessageException("handler rejected the record: " + e));
      }
    }, record, policy, new Attempts()).recover(err -> err instanceof PoisonMessageException
      // The dead letter itself is published until it is: it is how the failure reaches a person.
      ? retrying(() -> deadLetter(record, err.getMessage()), record, RetryPolicy.UNTIL_DONE, new Attempts())
      : Future.failedFuture(err))
      .andThen(ended -> failing.ended(record));
  }

  /**
   * Retries transient failures with capped exponential back-off until success, poison, stop or — under
   * {@link RetryPolicy#DEAD_LETTER_WHEN_EXHAUSTED} — {@link #retryMs} of failures while the process was ready, which
   * answers a {@link PoisonMessageException} naming the last error. A failure while the process is not ready waits for
   * it to be, and the count starts afresh.
   */
  private Future<Void> retrying(Supplier<Future<Void>> attempt, KafkaConsumerRecord<String, String> record, RetryPolicy retries,
                                Attempts attempts) {
    if (closed) return Future.failedFuture("consumer stopped");
    return attempt.get().recover(err -> {
      if (err instanceof PoisonMessageException || closed) return Future.failedFuture(err);
      failing.failed(record);
      return dependenciesReady().compose(ready -> {
        if (closed) return Future.failedFuture(err);
        if (!ready) {
          LOG.warn("Group {}: record {} failed ({}) while the process is not ready; retried once it is", group, name(record), err.toString());
          attempts.restart();
          return recovered().compose(ignored -> retrying(attempt, record, retries, attempts));
        }
        long failingMs = attempts.failed();
        if (retries == RetryPolicy.DEAD_LETTER_WHEN_EXHAUSTED && failingMs >= retryMs) {
          return Future.failedFuture(new PoisonMessageException("still failing after " + attempts.failures + " attempts in "
            + failingMs + " ms (kafka.consumer.retry-ms " + retryMs + "): " + err));
        }
        long delay = RETRY.delayMs(attempts.failures);
        LOG.warn("Group {}: record {} failed ({}); retrying in {} ms", group, name(record), err.toString(), delay);
        return vertx.timer(delay).compose(ignored -> retrying(attempt, record, retries, attempts));
      });
    });
  }

  /** The process's readiness, asked at most once per {@link #READINESS_TTL_MS}; a check that fails is "not ready". */
  private Future<Boolean> dependenciesReady() {
    long now = System.nanoTime();
    if (readiness == null || now - readinessAskedAt > READINESS_TTL_MS * 1_000_000) {
      readinessAskedAt = now;
      readiness = dependenciesReady.get().otherwise(false);
    }
    return readiness;
  }

  /** Pauses the partitions until the process is ready again; every record that failed meanwhile waits on the same answer. */
  private Future<Void> recovered() {
    if (recovery == null) {
      recovery = Promise.promise();
      flow();
      LOG.warn("Group {}: the process is not ready; its partitions are paused until it is", group);
      outageProbe = vertx.setPeriodic(OUTAGE_PROBE_MS, id -> dependenciesReady().onSuccess(ready -> {
        if (ready && recovery != null) {
          vertx.cancelTimer(outageProbe);
          Promise<Void> ended = recovery;
          recovery = null;
          flow();
          LOG.info("Group {}: the process is ready again; its partitions resume", group);
          ended.tryComplete();
        }
      }));
    }
    return recovery.future();
  }

  private static String name(KafkaConsumerRecord<String, String> record) {
    return record.topic() + "-" + record.partition() + "@" + record.offset();
  }

  private Future<Void> deadLetter(KafkaConsumerRecord<String, String> record, String reason) {
    if (Topics.COLA_FALLIDOS.equals(record.topic())) {
      // A dead letter cannot be dead-lettered again without a loop: it stays in cola.fallidos, named in the log.
      LOG.error("Group {}: record {}-{}@{} of the dead-letter queue cannot be handled ({}); left there",
        group, record.topic(), record.partition(), record.offset(), reason);
      return Future.succeededFuture();
    }
    LOG.warn("Group {}: record {}-{}@{} is poison ({}); sending it to {}",
      group, record.topic(), record.partition(), record.offset(), reason, Topics.COLA_FALLIDOS);
    JsonObject data = new JsonObject()
      .put("topic", record.topic())
      .put("partition", record.partition())
      .put("offset", record.offset())
      .put("grupo", group)
      .put("clave", record.key())
      .put("valor", record.value())
      .put("motivo", reason);
    String subject = record.topic() + "-" + record.partition() + "@" + record.offset();
    Envelope letter = new Envelope(deadLetterId(record), EventTypes.MENSAJE_FALLIDO, "/" + group, Instant.now(), subject, data);
    return deadLetters.publish(Topics.COLA_FALLIDOS, record.key(), letter).mapEmpty();
  }

  /**
   * One id per record and group: a poison record redelivered (a crash before the commit) is dead-lettered again
   * under the same id, so the Bandeja files it once; another group failing on it is another failure. A topic name
   * has no '/', so the name is unambiguous.
   */
  private String deadLetterId(KafkaConsumerRecord<String, String> record) {
    String name = record.topic() + "/" + record.partition() + "/" + record.offset() + "/" + group;
    return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
  }

  private Future<Void> commitProgress() {
    if (committing || consumer == null || released) return Future.succeededFuture();
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    progress.forEach((tp, p) -> {
      if (p.committable > p.committed) offsets.put(tp, new OffsetAndMetadata(p.committable, ""));
    });
    if (offsets.isEmpty()) return Future.succeededFuture();
    committing = true;
    lastCommit = consumer.commit(offsets)
      .onSuccess(done -> offsets.forEach((tp, o) -> {
        Progress p = progress.get(tp);
        if (p != null) p.committed = Math.max(p.committed, o.getOffset());
      }))
      .onFailure(err -> LOG.warn("Group {}: commit of {} failed ({}); it will be retried", group, offsets.keySet(), err.toString()))
      .onComplete(ignored -> committing = false)
      .<Void>mapEmpty()
      .otherwiseEmpty();
    return lastCommit;
  }

  /** Records of one partition in fetch order; the commit point moves past a record only when all before it are done. */
  private static final class Progress {
    private final ArrayDeque<Slot> pending = new ArrayDeque<>();
    private long committable = -1;
    private long committed = -1;

    Slot track(long offset) {
      Slot slot = new Slot(offset);
      pending.addLast(slot);
      return slot;
    }

    /**
     * Where the group stands: past what is handled, else at the first record fetched since the assignment (fetching
     * starts at the committed offset); -1 when nothing was fetched yet.
     */
    long standing() {
      long handled = Math.max(committable, committed);
      if (handled >= 0) return handled;
      return pending.isEmpty() ? -1 : pending.peekFirst().offset;
    }

    /** Answers how many records this made committable (0 while an earlier one is unfinished). */
    int done(Slot slot) {
      slot.done = true;
      int popped = 0;
      while (!pending.isEmpty() && pending.peekFirst().done) {
        committable = pending.pollFirst().offset + 1;
        popped++;
      }
      return popped;
    }
  }

  /** The failures of one record counted against {@link #retryMs}: those since the process was last ready. */
  private static final class Attempts {
    private int failures;
    private long since;

    /** Counts a failure; answers how long the record has been failing. */
    long failed() {
      long now = System.nanoTime();
      if (failures++ == 0) since = now;
      return (now - since) / 1_000_000;
    }

    void restart() {
      failures = 0;
    }
  }

  private static final class Slot {
    private final long offset;
    private boolean done;

    Slot(long offset) {
      this.offset = offset;
    }
  }
}
