package ccp.support;

import ccp.app.KafkaAccess;
import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.platform.kafka.KafkaConfig;
import ccp.platform.kafka.KafkaCredentials;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Direct access to the real broker: what a misbehaving producer would send, and what a topic really holds. A record is
 * sent as the role the ACL table names as a producer of its topic (a duplicate or a poison record from that very
 * producer); a topic is read as the broker's super user, an operator looking into it.
 */
public final class Topic {

  private Topic() {}

  public static void send(Settings settings, String topic, String key, String value) {
    Map<String, Object> config = new HashMap<>(as(settings, producerOf(topic)));
    config.put("acks", "all");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
      producer.send(new ProducerRecord<>(topic, key, value)).get();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Every record that the topic holds now (all partitions, up to their current end) and that matches. */
  public static List<ConsumerRecord<String, String>> read(Settings settings, String topic, Predicate<ConsumerRecord<String, String>> filter) {
    Map<String, Object> config = new HashMap<>(admin(settings));
    config.put("enable.auto.commit", "false");
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
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

  /** A client's configuration that authenticates as {@code role}'s principal. */
  public static Map<String, String> as(Settings settings, Role role) {
    return KafkaConfig.of(settings, role.id()).client();
  }

  /** A client's configuration that authenticates as the embedded broker's super user (its password from the data dir). */
  public static Map<String, String> admin(Settings settings) {
    try {
      return KafkaConfig.client(settings.text("kafka.bootstrap"), "admin", KafkaCredentials.read(settings.dataDir()).admin());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Role producerOf(String topic) {
    return KafkaAccess.TABLE.entrySet().stream().filter(e -> e.getValue().writes().contains(topic)).map(Map.Entry::getKey)
      .findFirst().orElseThrow(() -> new IllegalArgumentException("no role writes " + topic));
  }
}
