package ccp.platform.kafka;

import ccp.platform.config.Settings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.kafka.client.producer.KafkaProducer;
import io.vertx.kafka.client.producer.KafkaProducerRecord;
import io.vertx.kafka.client.producer.RecordMetadata;

import java.util.HashMap;
import java.util.Map;

/**
 * The process's asynchronous Kafka producer, shared inside one Vert.x instance: every verticle takes its own reference
 * in {@code start()} and closes it in {@code stop()}; the client closes when the last reference does. One producer
 * for all verticles fills fuller batches (fewer produce requests for the broker) than one per consumer group.
 * A publish completes when the broker has acknowledged the record on all in-sync replicas.
 */
public final class EventPublisher {

  private static final long CLOSE_TIMEOUT_MS = 5_000;
  private static final String NAME = "ccp-eventos";

  private final KafkaProducer<String, String> producer;

  private EventPublisher(KafkaProducer<String, String> producer) {
    this.producer = producer;
  }

  public static EventPublisher create(Vertx vertx, Settings settings) {
    Map<String, String> config = new HashMap<>();
    config.put("bootstrap.servers", settings.text("kafka.bootstrap"));
    config.put("client.id", NAME);
    config.put("acks", "all");
    config.put("enable.idempotence", "true");
    config.put("linger.ms", "5");
    config.put("max.block.ms", "5000");
    config.put("delivery.timeout.ms", "30000");
    config.put("request.timeout.ms", "10000");
    return new EventPublisher(KafkaProducer.createShared(vertx, NAME, config, String.class, String.class));
  }

  public Future<RecordMetadata> publish(String topic, String key, Envelope envelope) {
    return producer.send(KafkaProducerRecord.create(topic, key, envelope.encode()));
  }

  /** Publishes with one header, which consumers can read without parsing the envelope. */
  public Future<RecordMetadata> publish(String topic, String key, Envelope envelope, String header, String value) {
    return producer.send(KafkaProducerRecord.create(topic, key, envelope.encode()).addHeader(header, value));
  }

  /** Publishes an envelope already encoded (an outbox row stores the exact bytes to send). */
  public Future<RecordMetadata> publishEncoded(String topic, String key, String encodedEnvelope) {
    return producer.send(KafkaProducerRecord.create(topic, key, encodedEnvelope));
  }

  public Future<Void> close() {
    return producer.close(CLOSE_TIMEOUT_MS);
  }
}
