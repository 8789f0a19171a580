package ccp.platform.kafka;

import ccp.app.Role;
import ccp.support.SharedInfra;
import ccp.support.Topic;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static ccp.platform.kafka.MockConsumerHost.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dead-letter path needs a real {@link EventPublisher}, hence the shared broker (publishing as a stage's principal,
 * which may write {@code cola.fallidos}); the records still come from a MockConsumer, on a topic of this test's own.
 */
@ExtendWith(VertxExtension.class)
@DisplayName("ReliableConsumer: a poison record goes to cola.fallidos with its reason, and the commit moves past it")
class ReliableConsumerDeadLetterTest {

  private static final int RETRY_MS = 1_500;

  @Test
  @DisplayName("an unparseable record, a PoisonMessageException and a handler that throws each become a dead letter")
  void poisonGoesToColaFallidos(Vertx vertx) {
    KafkaConfig broker = KafkaConfig.of(SharedInfra.settings(), Role.FACTURACION.id());
    String topic = "prueba-" + UUID.randomUUID();
    ReliableConsumer.Handler handler = envelope -> switch (envelope.subject()) {
      case "0@1" -> Future.failedFuture(new PoisonMessageException("producto desconocido"));
      case "0@2" -> throw new IllegalStateException("a handler's bug");
      default -> Future.succeededFuture();
    };
    EventPublisher deadLetters = EventPublisher.create(vertx, broker);
    try (MockConsumerHost consumer = MockConsumerHost.start(vertx, topic, MockConsumerHost.kafka(10, 100), deadLetters, handler,
      r -> true).assign(0)) {
      consumer.offer(0, 0, "k0", "not an envelope", "k1", MockConsumerHost.value(0, 1), "k2", MockConsumerHost.value(0, 2),
        "k3", MockConsumerHost.value(0, 3));
      await("commit past the three dead letters").atMost(Duration.ofSeconds(30)).until(() -> consumer.committed(0) == 4);
    } finally {
      deadLetters.close().timeout(10, TimeUnit.SECONDS).await();
    }

    Map<Long, Envelope> letters = Topic.read(SharedInfra.settings(), Topics.COLA_FALLIDOS, r -> r.value().contains(topic)).stream()
      .map(r -> Envelope.parse(r.value()))
      .collect(Collectors.toMap(letter -> letter.data().getLong("offset"), letter -> letter));
    assertThat(letters).as("dead letters by offset").containsOnlyKeys(0L, 1L, 2L);
    assertThat(letters.values()).allSatisfy(letter -> {
      assertThat(letter.type()).isEqualTo(EventTypes.MENSAJE_FALLIDO);
      assertThat(letter.subject()).isEqualTo(topic + "-" + at(0, letter.data().getLong("offset")));
      assertThat(letter.data().getString("topic")).isEqualTo(topic);
      assertThat(letter.data().getString("grupo")).isEqualTo(MockConsumerHost.GROUP);
    });
    JsonObject unparseable = letters.get(0L).data();
    assertThat(unparseable.getString("clave")).isEqualTo("k0");
    assertThat(unparseable.getString("valor")).isEqualTo("not an envelope");
    assertThat(unparseable.getString("motivo")).contains("not a JSON object");
    assertThat(letters.get(1L).data().getString("motivo")).isEqualTo("producto desconocido");
    assertThat(letters.get(2L).data().getString("motivo")).contains("a handler's bug");
  }

  @Test
  @DisplayName("a poison record redelivered to its group (a crash before the commit) is the same dead letter; another group's is another")
  void aRedeliveredPoisonRecordKeepsItsDeadLetterId(Vertx vertx) {
    KafkaConfig broker = KafkaConfig.of(SharedInfra.settings(), Role.FACTURACION.id());
    String topic = "prueba-" + UUID.randomUUID();
    EventPublisher deadLetters = EventPublisher.create(vertx, broker);
    try {
      deadLetterOffsetZero(vertx, MockConsumerHost.GROUP, topic, deadLetters);
      deadLetterOffsetZero(vertx, MockConsumerHost.GROUP, topic, deadLetters);
      deadLetterOffsetZero(vertx, "otro-grupo", topic, deadLetters);
    } finally {
      deadLetters.close().timeout(10, TimeUnit.SECONDS).await();
    }

    Map<String, List<String>> idsByGroup = Topic.read(SharedInfra.settings(), Topics.COLA_FALLIDOS, r -> r.value().contains(topic)).stream()
      .map(r -> Envelope.parse(r.value()))
      .collect(Collectors.groupingBy(letter -> letter.data().getString("grupo"), Collectors.mapping(Envelope::id, Collectors.toList())));
    assertThat(idsByGroup.get(MockConsumerHost.GROUP)).as("the record dead-lettered twice by its group").hasSize(2)
      .containsOnly(idsByGroup.get(MockConsumerHost.GROUP).get(0));
    assertThat(idsByGroup.get("otro-grupo")).hasSize(1).doesNotContain(idsByGroup.get(MockConsumerHost.GROUP).get(0));
  }

  @Test
  @DisplayName("a record still failing after retry-ms with the process ready goes to cola.fallidos with its last error; the commit moves on")
  void aRecordFailingPastRetryMsIsADeadLetter(Vertx vertx) {
    KafkaConfig broker = KafkaConfig.of(SharedInfra.settings(), Role.FACTURACION.id());
    String topic = "prueba-" + UUID.randomUUID();
    ReliableConsumer.Handler handler = envelope -> "0@0".equals(envelope.subject())
      ? Future.failedFuture("database unavailable") : Future.succeededFuture();
    EventPublisher deadLetters = EventPublisher.create(vertx, broker);
    try {
      try (MockConsumerHost consumer = MockConsumerHost.start(vertx, MockConsumerHost.GROUP, topic, MockConsumerHost.kafka(10, 100, RETRY_MS),
        deadLetters, handler, r -> true, ReliableConsumer.RetryPolicy.DEAD_LETTER_WHEN_EXHAUSTED, () -> Future.succeededFuture(true)).assign(0)) {
        consumer.offerKeys(0, 0, "k0", "k1");
        await("commit past the record that kept failing").atMost(Duration.ofSeconds(30)).until(() -> consumer.committed(0) == 2);
      }
      // A consumer that fails closed keeps retrying the same record, past retry-ms, and never sets it aside.
      try (MockConsumerHost closed = MockConsumerHost.start(vertx, "grupo-cerrado", topic, MockConsumerHost.kafka(10, 100, RETRY_MS),
        deadLetters, handler, r -> true, ReliableConsumer.RetryPolicy.UNTIL_DONE, () -> Future.succeededFuture(true)).assign(0)) {
        closed.offerKeys(0, 0, "k0", "k1");
        await("the commit held before the failing record").during(Duration.ofMillis(3 * RETRY_MS)).atMost(Duration.ofSeconds(30))
          .until(() -> closed.committed(0) <= 0);
      }
    } finally {
      deadLetters.close().timeout(10, TimeUnit.SECONDS).await();
    }

    List<Envelope> letters = Topic.read(SharedInfra.settings(), Topics.COLA_FALLIDOS, r -> r.value().contains(topic)).stream()
      .map(r -> Envelope.parse(r.value())).toList();
    assertThat(letters).as("one dead letter, of the group that sets records aside").hasSize(1);
    JsonObject letter = letters.get(0).data();
    assertThat(letter.getLong("offset")).isZero();
    assertThat(letter.getString("grupo")).isEqualTo(MockConsumerHost.GROUP);
    assertThat(letter.getString("motivo")).contains("still failing after").contains("kafka.consumer.retry-ms").contains("database unavailable");
  }

  @Test
  @DisplayName("failures while the process is not ready pause the consumer, past retry-ms, with no dead letter; ready again, it resumes")
  void anOutagePausesInsteadOfDeadLettering(Vertx vertx) {
    KafkaConfig broker = KafkaConfig.of(SharedInfra.settings(), Role.FACTURACION.id());
    String topic = "prueba-" + UUID.randomUUID();
    AtomicBoolean databaseDown = new AtomicBoolean(true);
    AtomicInteger attempts = new AtomicInteger();
    ReliableConsumer.Handler handler = envelope -> {
      attempts.incrementAndGet();
      return databaseDown.get() ? Future.failedFuture("connection refused") : Future.succeededFuture();
    };
    EventPublisher deadLetters = EventPublisher.create(vertx, broker);
    try (MockConsumerHost consumer = MockConsumerHost.start(vertx, MockConsumerHost.GROUP, topic, MockConsumerHost.kafka(10, 100, RETRY_MS),
      deadLetters, handler, r -> true, ReliableConsumer.RetryPolicy.DEAD_LETTER_WHEN_EXHAUSTED,
      () -> Future.succeededFuture(!databaseDown.get())).assign(0)) {
      consumer.offerKeys(0, 0, "k0");
      await("paused for the outage").atMost(Duration.ofSeconds(10)).until(() -> consumer.readiness().getBoolean("paused_for_outage"));
      assertThat(consumer.pausedAfter(() -> {})).containsExactly(0);
      consumer.offerKeys(0, 1, "k1");
      await("held through the outage, past retry-ms").during(Duration.ofMillis(3 * RETRY_MS)).atMost(Duration.ofSeconds(30))
        .until(() -> consumer.committed(0) <= 0 && consumer.readiness().getBoolean("paused_for_outage") && attempts.get() == 1);

      databaseDown.set(false);
      await("resumed: both records handled and committed").atMost(Duration.ofSeconds(20)).until(() -> consumer.committed(0) == 2);
      assertThat(consumer.pausedAfter(() -> {})).isEmpty();
    } finally {
      deadLetters.close().timeout(10, TimeUnit.SECONDS).await();
    }
    assertThat(Topic.read(SharedInfra.settings(), Topics.COLA_FALLIDOS, r -> r.value().contains(topic))).as("dead letters").isEmpty();
  }

  /** A fresh member of {@code group} reads offset 0 of the topic, a record that is not an envelope, and dead-letters it. */
  private static void deadLetterOffsetZero(Vertx vertx, String group, String topic, EventPublisher deadLetters) {
    try (MockConsumerHost consumer = MockConsumerHost.start(vertx, group, topic, MockConsumerHost.kafka(10, 100), deadLetters,
      envelope -> Future.succeededFuture(), r -> true).assign(0)) {
      consumer.offer(0, 0, "k0", "not an envelope");
      await("commit past the dead letter").atMost(Duration.ofSeconds(30)).until(() -> consumer.committed(0) == 1);
    }
  }
}
