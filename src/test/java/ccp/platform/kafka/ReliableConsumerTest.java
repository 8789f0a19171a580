package ccp.platform.kafka;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.Checkpoint;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static ccp.platform.kafka.MockConsumerHost.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@ExtendWith(VertxExtension.class)
@DisplayName("ReliableConsumer: what it commits, in which order it handles, when it pauses — on a MockConsumer")
class ReliableConsumerTest {

  private static final String TOPIC = "prueba";
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final Held held = new Held();
  private Vertx vertx;
  private MockConsumerHost consumer;

  @BeforeEach
  void vertx(Vertx vertx) {
    this.vertx = vertx;
  }

  @AfterEach
  void stop() {
    if (consumer != null) consumer.close();
  }

  @Test
  @DisplayName("the commit is one past the highest contiguous handled record: a later record done first does not move it")
  void commitsOnlyPastContiguousRecords() {
    consumer = MockConsumerHost.start(vertx, TOPIC, MockConsumerHost.kafka(10, 100), null, held, r -> true).assign(0);
    consumer.offerKeys(0, 0, "a", "b", "c", "d");
    held.awaitStarted(at(0, 0), at(0, 1), at(0, 2), at(0, 3));

    held.finish(consumer, at(0, 0));
    await("commit past 0@0").atMost(WAIT).until(() -> consumer.committed(0) == 1);

    held.finish(consumer, at(0, 2));
    held.finish(consumer, at(0, 3));
    await("commit held before the unfinished 0@1").during(Duration.ofMillis(300)).atMost(WAIT)
      .until(() -> consumer.committed(0) == 1);

    held.finish(consumer, at(0, 1));
    await("commit past 0@3").atMost(WAIT).until(() -> consumer.committed(0) == 4);
  }

  @Test
  @DisplayName("its lag gauge counts the records not handled past the commit point, and keeps counting while it is paused")
  void lagCountsWhatIsNotHandled() {
    consumer = MockConsumerHost.start(vertx, TOPIC, MockConsumerHost.kafka(10, 2), null, held, r -> true).assign(0);
    consumer.offerKeys(0, 0, "a", "b", "c", "d", "e", "f", "g", "h", "i", "j");
    held.awaitStarted(at(0, 0), at(0, 1));
    held.finish(consumer, at(0, 0));
    held.finish(consumer, at(0, 1));
    held.awaitStarted(at(0, 2), at(0, 3));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    consumer.lagOn(registry, Map.of(0, 10L));

    await("10 in the log, 2 handled").atMost(Duration.ofSeconds(15))
      .until(() -> registry.find("kafka_consumer_lag").gauge() != null && registry.get("kafka_consumer_lag").gauge().value() == 8);
    assertThat(registry.get("kafka_consumer_lag").tag("group", MockConsumerHost.GROUP).tag("topic", TOPIC).gauge()).isNotNull();
    consumer.endOffsets(Map.of(0, 50L));
    await("the log grows while the member is paused").atMost(Duration.ofSeconds(15))
      .until(() -> registry.get("kafka_consumer_lag").gauge().value() == 48);
  }

  @Test
  @DisplayName("its lag gauge counts from the group's committed offset before the member has fetched anything")
  void lagCountsFromTheCommittedOffsetBeforeAnyFetch() {
    consumer = MockConsumerHost.start(vertx, TOPIC, MockConsumerHost.kafka(10, 2), null, held, r -> true).assignCommitted(0, 4);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    consumer.lagOn(registry, Map.of(0, 10L));

    await("10 in the log, 4 committed by the group").atMost(Duration.ofSeconds(15))
      .until(() -> registry.find("kafka_consumer_lag").gauge() != null && registry.get("kafka_consumer_lag").gauge().value() == 6);
    consumer.endOffsets(Map.of(0, 30L));
    await("the log grows, nothing fetched").atMost(Duration.ofSeconds(15))
      .until(() -> registry.get("kafka_consumer_lag").gauge().value() == 26);
  }

  @Test
  @DisplayName("stopping commits what is handled up to the first unfinished record, and no further")
  void stopCommitsTheContiguousPart() {
    consumer = MockConsumerHost.start(vertx, TOPIC, MockConsumerHost.kafka(60_000, 100), null, held, r -> true).assign(0);
    consumer.offerKeys(0, 0, "a", "b", "c");
    held.awaitStarted(at(0, 0), at(0, 1), at(0, 2));
    held.finish(consumer, at(0, 0));
    held.finish(consumer, at(0, 2));

    consumer.close();

    assertThat(consumer.commits()).containsExactly(Map.of(0, 1L));
  }

  @Test
  @DisplayName("records finishing after the stop do not touch the closed client: it would reopen itself on a second thread, and its member keep its partitions")
  void noCallAfterTheClose() {
    consumer = MockConsumerHost.start(vertx, TOPIC, MockConsumerHost.kafka(10, 2), null, held, r -> true).assign(0);
    consumer.offerKeys(0, 0, "a", "b");
    held.awaitStarted(at(0, 0), at(0, 1));
    assertThat(consumer.pausedAfter(() -> {})).as("paused at max-in-flight").containsExactly(0);

    consumer.close();
    // Below half of max-in-flight: a live consumer would resume its partitions here.
    held.finish(consumer, at(0, 0));
    held.finish(consumer, at(0, 1));

    await("no call of the client after its close").during(Duration.ofMillis(500)).atMost(WAIT)
      .until(() -> consumer.callsAfterClose().isEmpty());
  }

  @Test
  @DisplayName("records of one key are handled one after another in offset order; other keys meanwhile")
  void oneKeyAtATimeOtherKeysMeanwhile(VertxTestContext test) throws Exception {
    int records = 60;
    String[] keys = new String[records];
    for (int i = 0; i < records; i++) keys[i] = "k" + i % 3;
    Checkpoint handled = test.checkpoint(records);
    // Touched only on the consumer's event loop, where the handler and its timers run.
    Set<String> busyKeys = new HashSet<>();
    Map<String, Long> lastOffsetByKey = new HashMap<>();
    AtomicInteger mostKeysAtOnce = new AtomicInteger();
    ReliableConsumer.Handler handler = envelope -> {
      long offset = envelope.data().getLong("n");
      String key = keys[(int) offset];
      test.verify(() -> {
        assertThat(busyKeys).as("keys in flight when %s@%d starts", key, offset).doesNotContain(key);
        assertThat(offset).as("offset of %s after %s", key, lastOffsetByKey.get(key))
          .isGreaterThan(lastOffsetByKey.getOrDefault(key, -1L));
      });
      busyKeys.add(key);
      mostKeysAtOnce.accumulateAndGet(busyKeys.size(), Math::max);
      // Unequal durations, so that later records of other keys finish before earlier ones.
      return vertx.timer(1 + (offset * 7) % 5).onComplete(done -> {
        busyKeys.remove(key);
        lastOffsetByKey.put(key, offset);
        handled.flag();
      });
    };
    consumer = MockConsumerHost.start(vertx, TOPIC, MockConsumerHost.kafka(10, 1_000), null, handler, r -> true).assign(0);
    consumer.offerKeys(0, 0, keys);

    assertThat(test.awaitCompletion(20, TimeUnit.SECONDS)).as("every record handled").isTrue();
    if (test.failed()) return; // the extension reports why
    assertThat(mostKeysAtOnce.get()).as("keys handled at the same time").isEqualTo(3);
    await("commit past every record").atMost(WAIT).until(() -> consumer.committed(0) == records);
  }

  @Test
  @DisplayName("at max-in-flight records in progress the partitions are paused, and resumed at half of it")
  void pausesAtMaxInFlightAndResumesAtHalf() {
    consumer = MockConsumerHost.start(vertx, TOPIC, MockConsumerHost.kafka(10, 4), null, held, r -> true).assign(0, 1);
    consumer.offerKeys(0, 0, "a", "b", "c");
    held.awaitStarted(at(0, 0), at(0, 1), at(0, 2));
    assertThat(consumer.pausedAfter(() -> {})).as("paused with 3 in flight").isEmpty();

    consumer.offerKeys(1, 0, "d");
    held.awaitStarted(at(1, 0));
    assertThat(consumer.pausedAfter(() -> {})).as("paused with 4 in flight").containsExactlyInAnyOrder(0, 1);
    assertThat(consumer.readiness().getInteger("in_flight")).isEqualTo(4);

    consumer.offerKeys(0, 3, "e");
    await("no record fetched while paused").during(Duration.ofMillis(300)).atMost(WAIT)
      .until(() -> !held.started.contains(at(0, 3)));

    assertThat(consumer.pausedAfter(held.finishing(at(0, 0)))).as("paused with 3 in flight").containsExactlyInAnyOrder(0, 1);
    assertThat(consumer.pausedAfter(held.finishing(at(1, 0)))).as("paused with 2 in flight").isEmpty();
    held.awaitStarted(at(0, 3));
  }

  @Test
  @DisplayName("a chain consumer yields to a security consumer of its process at its in-flight limit: it pauses at yield-in-flight, and is back at max-in-flight once the security consumer has room")
  void chainYieldsToSecuritySaturated() {
    consumer = chain();
    Held seguro = new Held();
    try (MockConsumerHost seguridad = MockConsumerHost.start(vertx, "seguridad", "prueba-seguridad", MockConsumerHost.kafka(10, 1),
      null, seguro, r -> true, ReliableConsumer.RetryPolicy.UNTIL_DONE, () -> Future.succeededFuture(true), Priority.SECURITY)
      .assign(0)) {
      consumer.offerKeys(0, 0, "a", "b", "c");
      held.awaitStarted(at(0, 0), at(0, 1), at(0, 2));
      assertThat(consumer.readiness().getBoolean("yielding_to_security")).isFalse();

      seguridad.offerProducedAt(0, 0, "s", System.currentTimeMillis());
      seguro.awaitStarted(at(0, 0));
      // yield-in-flight is 2 (MockConsumerHost.kafka): 3 in flight is over it.
      await("the chain yields").atMost(WAIT).until(() -> consumer.pausedAfter(() -> {}).equals(Set.of(0)));
      assertThat(consumer.readiness().getBoolean("yielding_to_security")).isTrue();
      consumer.offerKeys(0, 3, "d");
      await("nothing new fetched while it yields").during(Duration.ofMillis(400)).atMost(WAIT)
        .until(() -> !held.started.contains(at(0, 3)));

      seguro.finish(seguridad, at(0, 0));
      held.awaitStarted(at(0, 3));
      assertThat(consumer.readiness().getBoolean("yielding_to_security")).isFalse();
    }
  }

  @Test
  @DisplayName("a chain consumer yields while a security consumer of its process takes records that waited past yield-delay, not while it takes them on time")
  void chainYieldsToSecurityLate() {
    consumer = chain();
    try (MockConsumerHost seguridad = MockConsumerHost.start(vertx, "seguridad", "prueba-seguridad", MockConsumerHost.kafka(10, 100),
      null, envelope -> Future.succeededFuture(), r -> true, ReliableConsumer.RetryPolicy.UNTIL_DONE,
      () -> Future.succeededFuture(true), Priority.SECURITY).assign(0)) {
      consumer.offerKeys(0, 0, "a", "b", "c");
      held.awaitStarted(at(0, 0), at(0, 1), at(0, 2));
      AtomicInteger offset = new AtomicInteger();
      long onTime = vertx.setPeriodic(50, id -> seguridad.offerProducedAt(0, offset.getAndIncrement(), "s", System.currentTimeMillis()));
      await("records taken on time change nothing").during(Duration.ofMillis(500)).atMost(WAIT)
        .until(() -> consumer.pausedAfter(() -> {}).isEmpty());
      vertx.cancelTimer(onTime);

      // yield-delay is 500 ms (MockConsumerHost.kafka): records that waited 2 s are late.
      long late = vertx.setPeriodic(50, id -> seguridad.offerProducedAt(0, offset.getAndIncrement(), "s", System.currentTimeMillis() - 2_000));
      await("the chain yields").atMost(WAIT).until(() -> consumer.pausedAfter(() -> {}).equals(Set.of(0)));
      vertx.cancelTimer(late);
      await("on time again: the chain resumes").atMost(WAIT).until(() -> consumer.pausedAfter(() -> {}).isEmpty());
    }
  }

  private MockConsumerHost chain() {
    return MockConsumerHost.start(vertx, "cadena", TOPIC, MockConsumerHost.kafka(10, 100), null, held, r -> true,
      ReliableConsumer.RetryPolicy.DEAD_LETTER_WHEN_EXHAUSTED, () -> Future.succeededFuture(true), Priority.CHAIN).assign(0);
  }

  @Test
  @DisplayName("records waiting behind an unfinished one for their commit are bounded: at four times max-in-flight the partitions pause")
  void pausesWhenTooManyRecordsWaitForTheirCommit() {
    ReliableConsumer.Handler handler = envelope -> "0@0".equals(envelope.subject()) ? held.handle(envelope) : Future.succeededFuture();
    consumer = MockConsumerHost.start(vertx, TOPIC, MockConsumerHost.kafka(10, 4), null, handler, r -> true).assign(0);
    consumer.offerKeys(0, 0, "a");
    held.awaitStarted(at(0, 0));
    String[] quick = new String[15];
    for (int i = 0; i < quick.length; i++) quick[i] = "k" + i;
    consumer.offerKeys(0, 1, quick);
    await("16 records waiting for their commit").atMost(WAIT).until(() -> consumer.readiness().getInteger("waiting_for_commit") == 16);
    assertThat(consumer.pausedAfter(() -> {})).as("paused with one record in flight and 16 waiting").containsExactly(0);
    assertThat(consumer.readiness().getInteger("in_flight")).isEqualTo(1);

    consumer.offerKeys(0, 16, "z");
    await("nothing fetched while paused").during(Duration.ofMillis(300)).atMost(WAIT)
      .until(() -> consumer.readiness().getInteger("waiting_for_commit") == 16);

    held.finish(consumer, at(0, 0));
    await("resumed: the next record handled and committed").atMost(WAIT).until(() -> consumer.committed(0) == 17);
    assertThat(consumer.pausedAfter(() -> {})).isEmpty();
  }

  @Test
  @DisplayName("a handler's failure is retried with back-off, and the commit waits for the retry")
  void aFailureIsRetried() {
    List<String> attempts = new CopyOnWriteArrayList<>();
    ReliableConsumer.Handler handler = envelope -> {
      attempts.add(envelope.subject());
      return attempts.size() == 1 ? Future.failedFuture("database unavailable") : Future.succeededFuture();
    };
    consumer = MockConsumerHost.start(vertx, TOPIC, MockConsumerHost.kafka(10, 100), null, handler, r -> true).assign(0);
    consumer.offerKeys(0, 0, "a");

    await("commit past the retried record").atMost(WAIT).until(() -> consumer.committed(0) == 1);
    assertThat(attempts).containsExactly(at(0, 0), at(0, 0));
  }

  @Test
  @DisplayName("its retrying gauge is how long the oldest record still failing has been retried: it rises while the record fails, falls to the next one's when it succeeds, and to 0 when none fails")
  void retryingGaugeFollowsTheOldestFailingRecord() {
    Set<String> healed = ConcurrentHashMap.newKeySet();
    ReliableConsumer.Handler handler = envelope -> healed.contains(envelope.subject()) ? Future.succeededFuture()
      : Future.failedFuture("peer unavailable");
    consumer = MockConsumerHost.start(vertx, MockConsumerHost.GROUP, TOPIC, MockConsumerHost.kafka(10, 100), null, handler,
      r -> true, ReliableConsumer.RetryPolicy.UNTIL_DONE, () -> Future.succeededFuture(true)).assign(0);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    consumer.retryingOn(registry);
    Gauge retrying = registry.get("kafka_consumer_retrying_seconds").tag("group", MockConsumerHost.GROUP).tag("topic", TOPIC).gauge();
    assertThat(retrying.value()).as("nothing failing yet").isZero();

    consumer.offerKeys(0, 0, "a");
    await("rising while 0@0 fails").atMost(WAIT).until(() -> retrying.value() >= 1.0);
    long secondOffered = System.nanoTime();
    consumer.offerKeys(0, 1, "b");
    await("rising on").atMost(WAIT).until(() -> retrying.value() >= 1.5);

    healed.add(at(0, 0));
    await("0@0 handled").atMost(WAIT).until(() -> consumer.committed(0) == 1);
    double left = retrying.value();
    assertThat(left).as("the one still failing, 0@1, failing since after it was offered")
      .isPositive().isLessThanOrEqualTo((System.nanoTime() - secondOffered) / 1e9);

    healed.add(at(0, 1));
    await("0 once none fails").atMost(WAIT).until(() -> retrying.value() == 0);
    await("commit past 0@1").atMost(WAIT).until(() -> consumer.committed(0) == 2);
  }

  @Test
  @DisplayName("a record the group has nothing to do with passes unparsed and its offset is committed")
  void aRecordOfNoConcernPasses() {
    consumer = MockConsumerHost.start(vertx, TOPIC, MockConsumerHost.kafka(10, 100), null, held,
      record -> !"ajena".equals(record.key())).assign(0);
    consumer.offer(0, 0, "ajena", "not an envelope", "propia", MockConsumerHost.value(0, 1));
    held.awaitStarted(at(0, 1));

    await("commit past the record of no concern").atMost(WAIT).until(() -> consumer.committed(0) == 1);
    held.finish(consumer, at(0, 1));
    await("commit past 0@1").atMost(WAIT).until(() -> consumer.committed(0) == 2);
    assertThat(held.started).containsExactly(at(0, 1));
  }

  @Test
  @DisplayName("a record of cola.fallidos that cannot be handled stays there, and the consumer goes on past it")
  void aPoisonDeadLetterIsLeftBehind() {
    List<String> handled = new CopyOnWriteArrayList<>();
    ReliableConsumer.Handler handler = envelope -> {
      handled.add(envelope.subject());
      return Future.succeededFuture();
    };
    // No publisher: a dead letter of a dead letter would fail this test instead of looping.
    consumer = MockConsumerHost.start(vertx, Topics.COLA_FALLIDOS, MockConsumerHost.kafka(10, 100), null, handler, r -> true)
      .assign(0);
    consumer.offer(0, 0, "k", "not an envelope", "k", MockConsumerHost.value(0, 1));

    await("commit past the poison dead letter").atMost(WAIT).until(() -> consumer.committed(0) == 2);
    assertThat(handled).containsExactly(at(0, 1));
  }

  /** A handler whose runs finish when the test says so; each run is named by its record ({@code partition@offset}). */
  private static final class Held implements ReliableConsumer.Handler {
    private final List<String> started = new CopyOnWriteArrayList<>();
    private final Map<String, Promise<Void>> runs = new ConcurrentHashMap<>();

    @Override
    public Future<?> handle(Envelope envelope) {
      Promise<Void> run = Promise.promise();
      runs.put(envelope.subject(), run);
      started.add(envelope.subject());
      return run.future();
    }

    void awaitStarted(String... records) {
      await("runs of " + List.of(records) + " started").atMost(WAIT).until(() -> started.containsAll(List.of(records)));
    }

    /** Finishes a run, on the consumer's event loop. */
    void finish(MockConsumerHost consumer, String record) {
      consumer.run(finishing(record));
    }

    Runnable finishing(String record) {
      return () -> runs.get(record).complete();
    }
  }
}
