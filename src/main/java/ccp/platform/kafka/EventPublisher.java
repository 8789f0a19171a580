package ccp.platform.kafka;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.Shareable;
import io.vertx.kafka.client.producer.KafkaProducer;
import io.vertx.kafka.client.producer.KafkaProducerRecord;
import io.vertx.kafka.client.producer.RecordMetadata;
import org.apache.kafka.common.errors.RetriableException;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A role's asynchronous Kafka producer, shared inside one Vert.x instance by every verticle of that role (of that
 * principal: in a process of several roles each publishes as itself): every verticle takes its own reference in
 * {@code start()} and closes it in {@code stop()}; the client closes when the last reference does. One producer for
 * all of a role's verticles fills fuller batches (fewer produce requests for the broker) than one per consumer group.
 * A publish completes when the broker has acknowledged the record on all in-sync replicas.
 */
public final class EventPublisher {

  private static final long CLOSE_TIMEOUT_MS = 5_000;
  private static final String NAME = "ccp-eventos";
  static final long FAILING_FOR_MS = 30_000;

  private final KafkaProducer<String, String> producer;
  private final Outcomes outcomes;

  private EventPublisher(KafkaProducer<String, String> producer, Outcomes outcomes) {
    this.producer = producer;
    this.outcomes = outcomes;
  }

  public static EventPublisher create(Vertx vertx, KafkaConfig kafka) {
    String name = NAME + "-" + kafka.user();
    Map<String, String> config = kafka.client();
    config.put("client.id", name);
    config.put("acks", "all");
    config.put("enable.idempotence", "true");
    config.put("linger.ms", "5");
    config.put("max.block.ms", "5000");
    config.put("delivery.timeout.ms", "30000");
    config.put("request.timeout.ms", "10000");
    return new EventPublisher(KafkaProducer.createShared(vertx, name, config, String.class, String.class), outcomesOf(vertx));
  }

  /**
   * How the process's publishes have been going: {@code ok} unless the last one to complete failed for a reason of
   * the broker's (no leader, its storage, no answer within the delivery timeout) less than
   * {@link #FAILING_FOR_MS} ago. A record the broker refuses for itself (too large) says nothing of the broker; a
   * process that publishes only when it has traffic is not held unready for ever by its last failure.
   */
  public static JsonObject outcomes(Vertx vertx) {
    Outcomes o = outcomesOf(vertx);
    long success = o.lastSuccess.get();
    long failure = o.lastFailure.get();
    boolean failing = o.failing && System.currentTimeMillis() - failure < FAILING_FOR_MS;
    JsonObject state = new JsonObject().put("ok", !failing);
    if (success > 0) state.put("last_success", Instant.ofEpochMilli(success).toString());
    if (failure > 0) state.put("last_failure", Instant.ofEpochMilli(failure).toString()).put("last_error", o.lastError.get());
    return state;
  }

  private static Outcomes outcomesOf(Vertx vertx) {
    return (Outcomes) vertx.sharedData().getLocalMap(NAME).computeIfAbsent("outcomes", k -> new Outcomes());
  }

  public Future<RecordMetadata> publish(String topic, String key, Envelope envelope) {
    return send(KafkaProducerRecord.create(topic, key, envelope.encode()));
  }

  /** Publishes with one header, which consumers can read without parsing the envelope. */
  public Future<RecordMetadata> publish(String topic, String key, Envelope envelope, String header, String value) {
    return send(KafkaProducerRecord.create(topic, key, envelope.encode()).addHeader(header, value));
  }

  /** Publishes an envelope already encoded (an outbox row stores the exact bytes to send). */
  public Future<RecordMetadata> publishEncoded(String topic, String key, String encodedEnvelope) {
    return send(KafkaProducerRecord.create(topic, key, encodedEnvelope));
  }

  private Future<RecordMetadata> send(KafkaProducerRecord<String, String> record) {
    return producer.send(record).andThen(sent -> {
      if (sent.succeeded()) {
        outcomes.lastSuccess.set(System.currentTimeMillis());
        outcomes.failing = false;
      } else if (sent.cause() instanceof RetriableException) {
        outcomes.lastError.set(String.valueOf(sent.cause()));
        outcomes.lastFailure.set(System.currentTimeMillis());
        outcomes.failing = true;
      }
    });
  }

  public Future<Void> close() {
    return producer.close(CLOSE_TIMEOUT_MS);
  }

  /** Shared by every publisher of one Vert.x instance (one process); written from any event loop, hence atomics. */
  private static final class Outcomes implements Shareable {
    private final AtomicLong lastSuccess = new AtomicLong();
    private final AtomicLong lastFailure = new AtomicLong();
    private final AtomicReference<String> lastError = new AtomicReference<>();
    private volatile boolean failing;
  }
}
