package ccp.platform.kafka;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Everything a {@link Retries} owns is touched on one event loop, as in a consumer; the test thread only watches. */
@ExtendWith(VertxExtension.class)
@DisplayName("Retries: a failing record is retried with back-off, given up past retry-ms, and waits out an outage")
class RetriesTest {

  private static final KafkaConsumerRecord<String, String> RECORD = DeadLettersTest.record("prueba", 0, 3, "k", "v");
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final AtomicBoolean ready = new AtomicBoolean(true);
  private final AtomicInteger outageChanges = new AtomicInteger();
  private Vertx vertx;
  private Context loop;
  private Retries retries;

  @BeforeEach
  void retries(Vertx vertx) {
    this.vertx = vertx;
    loop = vertx.getOrCreateContext();
    retries = new Retries(vertx, "grupo", 300, () -> Future.succeededFuture(ready.get()), outageChanges::incrementAndGet);
  }

  @Test
  @DisplayName("a failure is tried again until it succeeds; the record counts as failing meanwhile, and no longer once it ends")
  void retriedUntilItSucceeds() {
    AtomicInteger attempts = new AtomicInteger();
    Future<Void> run = onLoop(() -> retries.run(() -> attempts.incrementAndGet() < 3 ? Future.failedFuture("down")
      : Future.succeededFuture(), RECORD, ReliableConsumer.RetryPolicy.UNTIL_DONE));
    await().atMost(WAIT).until(() -> retries.oldestFailingSeconds() > 0 || run.isComplete());
    run.timeout(10, TimeUnit.SECONDS).await();
    loop.runOnContext(v -> retries.ended(RECORD));
    await().atMost(WAIT).until(() -> retries.oldestFailingSeconds() == 0);
    assertThat(attempts).hasValue(3);
  }

  @Test
  @DisplayName("under DEAD_LETTER_WHEN_EXHAUSTED, a record still failing after retry-ms is poison naming its last error")
  void exhaustedIsPoison() {
    Future<Void> run = onLoop(() -> retries.run(() -> Future.failedFuture("peer unavailable"), RECORD,
      ReliableConsumer.RetryPolicy.DEAD_LETTER_WHEN_EXHAUSTED));
    assertThatThrownBy(() -> run.timeout(10, TimeUnit.SECONDS).await())
      .isInstanceOf(PoisonMessageException.class)
      .hasMessageContaining("kafka.consumer.retry-ms 300").hasMessageContaining("peer unavailable");
  }

  @Test
  @DisplayName("a PoisonMessageException is not retried")
  void poisonIsNotRetried() {
    AtomicInteger attempts = new AtomicInteger();
    Future<Void> run = onLoop(() -> retries.run(() -> {
      attempts.incrementAndGet();
      return Future.failedFuture(new PoisonMessageException("unknown product"));
    }, RECORD, ReliableConsumer.RetryPolicy.UNTIL_DONE));
    assertThatThrownBy(() -> run.timeout(10, TimeUnit.SECONDS).await()).hasMessage("unknown product");
    assertThat(attempts).hasValue(1);
  }

  @Test
  @DisplayName("a failure while the process is not ready is an outage: nothing retried until it is ready, then the record again")
  void anOutageIsWaitedOut() {
    ready.set(false);
    AtomicInteger attempts = new AtomicInteger();
    Future<Void> run = onLoop(() -> retries.run(() -> attempts.incrementAndGet() == 1 ? Future.failedFuture("database down")
      : Future.succeededFuture(), RECORD, ReliableConsumer.RetryPolicy.DEAD_LETTER_WHEN_EXHAUSTED));
    await("the outage begins").atMost(WAIT).until(() -> outageChanges.get() == 1);
    assertThat(onLoop(() -> Future.succeededFuture(retries.outage())).await()).isTrue();
    await("nothing retried while not ready, well past retry-ms").during(Duration.ofMillis(1_500)).atMost(WAIT)
      .until(() -> attempts.get() == 1);

    ready.set(true);
    run.timeout(10, TimeUnit.SECONDS).await();
    assertThat(outageChanges).as("begun and ended").hasValue(2);
    assertThat(attempts).hasValue(2);
  }

  @Test
  @DisplayName("stopping fails what waits out an outage, and no attempt is made after it")
  void stopEndsTheWait() {
    ready.set(false);
    AtomicInteger attempts = new AtomicInteger();
    Future<Void> run = onLoop(() -> retries.run(() -> {
      attempts.incrementAndGet();
      return Future.failedFuture("database down");
    }, RECORD, ReliableConsumer.RetryPolicy.UNTIL_DONE));
    await().atMost(WAIT).until(() -> outageChanges.get() == 1);
    loop.runOnContext(v -> retries.stop());
    assertThatThrownBy(() -> run.timeout(10, TimeUnit.SECONDS).await()).hasMessageContaining("stopped");
    assertThat(attempts).hasValue(1);
  }

  private <T> Future<T> onLoop(Supplier<Future<T>> action) {
    Promise<T> answer = Promise.promise();
    loop.runOnContext(v -> action.get().onComplete(answer));
    return answer.future();
  }
}
