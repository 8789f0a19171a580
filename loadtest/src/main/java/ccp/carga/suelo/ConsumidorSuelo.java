package ccp.carga.suelo;

import ccp.platform.kafka.EventPublisher;
import ccp.platform.kafka.KafkaConfig;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.kafka.client.consumer.KafkaConsumer;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;

import java.util.Map;

/**
 * A floor consumer: reads one topic with the roles' consumer settings, hands each record to {@link #procesar} (which
 * may publish onward through {@link #publisher}, with the roles' producer settings), and
 * commits the polled positions every {@code kafka.commit-interval-ms}. It counts the records it has processed and
 * answers that count on the event bus at {@code suelo.hechos.<topic>}, for the driver to know the load's last effect.
 */
abstract class ConsumidorSuelo extends VerticleBase {

  private final KafkaConfig kafka;
  private final String topic;
  private final String grupo;
  private KafkaConsumer<String, String> consumer;
  private EventPublisher publisher;
  private long hechos;

  ConsumidorSuelo(KafkaConfig kafka, String topic, String grupo) {
    this.kafka = kafka;
    this.topic = topic;
    this.grupo = grupo;
  }

  abstract Future<?> procesar(KafkaConsumerRecord<String, String> record);

  EventPublisher publisher() {
    return publisher;
  }

  static String hechos(String topic) {
    return "suelo.hechos." + topic;
  }

  @Override
  public Future<?> start() {
    publisher = EventPublisher.create(vertx, kafka);
    Map<String, String> config = kafka.client();
    config.put("group.id", grupo);
    config.put("enable.auto.commit", "false");
    config.put("auto.offset.reset", "earliest");
    config.put("max.poll.records", "500");
    config.put("fetch.min.bytes", String.valueOf(kafka.fetchMinBytes()));
    config.put("fetch.max.wait.ms", String.valueOf(kafka.fetchMaxWaitMs()));
    consumer = KafkaConsumer.create(vertx, config, String.class, String.class);
    consumer.handler(record -> procesar(record).onSuccess(x -> hechos++));
    vertx.setPeriodic(kafka.commitIntervalMs(), id -> consumer.commit());
    vertx.eventBus().consumer(hechos(topic), message -> message.reply(hechos));
    return consumer.subscribe(topic);
  }

  @Override
  public Future<?> stop() {
    return consumer.close().eventually(() -> publisher.close());
  }
}
