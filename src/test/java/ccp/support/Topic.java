package ccp.support;

import ccp.platform.config.Settings;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** Direct access to the real broker: what a misbehaving producer would send, and what a topic really holds. */
public final class Topic {

  private Topic() {}

  public static void send(Settings settings, String topic, String key, String value) {
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
      "bootstrap.servers", settings.text("kafka.bootstrap"), "acks", "all"), new StringSerializer(), new StringSerializer())) {
      producer.send(new ProducerRecord<>(topic, key, value)).get();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Every record that the topic holds now (all partitions, up to their current end) and that matches. */
  public static List<ConsumerRecord<String, String>> read(Settings settings, String topic, Predicate<ConsumerRecord<String, String>> filter) {
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
      "bootstrap.servers", settings.text("kafka.bootstrap"), "enable.auto.commit", "false"),
      new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
        .map(p -> new TopicPartition(topic, p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      List<ConsumerRecord<String, String>> found = new ArrayList<>();
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        if (System.nanoTime() > deadline) throw new AssertionError("could not read " + topic + " to its end");
        consumer.poll(Duration.ofMillis(200)).forEach(r -> {
          if (filter.test(r)) found.add(r);
        });
      }
      return found;
    }
  }
}
