package ccp.platform.kafka;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(VertxExtension.class)
@DisplayName("RecordHandling: a record's value to the handler, or to cola.fallidos with the reason it could not be")
class RecordHandlingTest {

  private final List<JsonObject> letters = new CopyOnWriteArrayList<>();
  private final AtomicInteger publishes = new AtomicInteger();
  private Vertx vertx;
  private Context loop;

  @BeforeEach
  void vertx(Vertx vertx) {
    this.vertx = vertx;
    loop = vertx.getOrCreateContext();
  }

  @Test
  @DisplayName("a record handled is no dead letter")
  void handled() {
    List<String> seen = new CopyOnWriteArrayList<>();
    handle(envelope -> {
      seen.add(envelope.subject());
      return Future.succeededFuture();
    }, MockConsumerHost.value(0, 4));
    assertThat(seen).containsExactly("0@4");
    assertThat(letters).isEmpty();
  }

  @Test
  @DisplayName("an unparseable value is a dead letter saying so; the handler never sees it")
  void unparseable() {
    handle(envelope -> {
      throw new AssertionError("handled");
    }, "not an envelope");
    assertThat(letters).singleElement().satisfies(letter -> assertThat(letter.getString("motivo")).contains("not a JSON object"));
  }

  @Test
  @DisplayName("a handler that throws is a dead letter naming what it threw, not retried")
  void aThrowIsPoison() {
    AtomicInteger calls = new AtomicInteger();
    handle(envelope -> {
      calls.incrementAndGet();
      throw new IllegalStateException("a handler's bug");
    }, MockConsumerHost.value(0, 4));
    assertThat(calls).hasValue(1);
    assertThat(letters).singleElement().satisfies(letter ->
      assertThat(letter.getString("motivo")).startsWith("handler rejected the record").contains("a handler's bug"));
  }

  @Test
  @DisplayName("a dead letter whose publish fails is published again until it is")
  void theDeadLetterIsPublishedUntilItIs() {
    publishes.set(-2);
    handle(envelope -> Future.failedFuture(new PoisonMessageException("unknown product")), MockConsumerHost.value(0, 4));
    assertThat(publishes).as("two failures, then the dead letter").hasValue(1);
    assertThat(letters).singleElement().satisfies(letter -> assertThat(letter.getString("motivo")).isEqualTo("unknown product"));
  }

  private void handle(ReliableConsumer.Handler handler, String value) {
    KafkaConsumerRecord<String, String> record = DeadLettersTest.record("prueba", 0, 4, "k", value);
    Promise<Void> done = Promise.promise();
    loop.runOnContext(v -> {
      Retries retries = new Retries(vertx, "grupo", 60_000, () -> Future.succeededFuture(true), () -> {});
      DeadLetters deadLetters = new DeadLetters("grupo", (topic, key, letter) -> {
        if (publishes.incrementAndGet() <= 0) return Future.failedFuture("broker away");
        letters.add(letter.data());
        return Future.succeededFuture();
      });
      new RecordHandling(handler, ReliableConsumer.RetryPolicy.DEAD_LETTER_WHEN_EXHAUSTED, retries, deadLetters)
        .handle(record).onComplete(done);
    });
    done.future().timeout(10, TimeUnit.SECONDS).await();
  }
}
