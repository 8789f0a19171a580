package ccp.platform.kafka;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

/**
 * A consumer group's poison records, each sent to {@code cola.fallidos} as it came with the reason it could not be
 * handled: how such a failure reaches a person, while the group goes on past it.
 */
final class DeadLetters {

  /** Where a dead letter goes: {@link EventPublisher#publish(String, String, Envelope)} in production. */
  @FunctionalInterface
  interface Sink {
    Future<?> publish(String topic, String key, Envelope letter);
  }

  private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);

  private final String group;
  private final Sink sink;

  DeadLetters(String group, Sink sink) {
    this.group = group;
    this.sink = sink;
  }

  /** Sends {@code record} to {@code cola.fallidos}, unless it comes from there. */
  Future<Void> send(KafkaConsumerRecord<String, String> record, String reason) {
    String name = RecordHandling.name(record);
    if (Topics.COLA_FALLIDOS.equals(record.topic())) {
      // A dead letter cannot be dead-lettered again without a loop: it stays in cola.fallidos, named in the log.
      LOG.error("Group {}: record {} of the dead-letter queue cannot be handled ({}); left there", group, name, reason);
      return Future.succeededFuture();
    }
    LOG.warn("Group {}: record {} is poison ({}); sending it to {}", group, name, reason, Topics.COLA_FALLIDOS);
    JsonObject data = new JsonObject()
      .put("topic", record.topic())
      .put("partition", record.partition())
      .put("offset", record.offset())
      .put("grupo", group)
      .put("clave", record.key())
      .put("valor", record.value())
      .put("motivo", reason);
    Envelope letter = new Envelope(id(record), EventTypes.MENSAJE_FALLIDO, "/" + group, Instant.now(), name, data);
    return sink.publish(Topics.COLA_FALLIDOS, record.key(), letter).mapEmpty();
  }

  /**
   * One id per record and group: a poison record redelivered (a crash before the commit) is dead-lettered again
   * under the same id, so the Bandeja files it once; another group failing on it is another failure. A topic name
   * has no '/', so the name is unambiguous.
   */
  String id(KafkaConsumerRecord<String, String> record) {
    String name = record.topic() + "/" + record.partition() + "/" + record.offset() + "/" + group;
    return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
  }
}
