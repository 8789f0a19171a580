package ccp.support;

import ccp.app.KafkaAccess;
import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.platform.kafka.KafkaConfig;
import ccp.platform.kafka.KafkaCredentials;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.awaitility.Awaitility.await;

/**
 * Direct access to the real broker: what a misbehaving producer would send, what a topic really holds, and how far a
 * consumer group has handled it. A record is sent as the role the ACL table names as a producer of its topic (a
 * duplicate or a poison record from that very producer); a topic and a group's offsets are read as the broker's super
 * user, an operator looking into them.
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

  /**
   * Waits until consumer group {@code group} has handled every record of {@code topic} keyed {@code key} (waiting for the
   * first to arrive): the group's committed offset on their partition is past the last of them. A group commits past a
   * record only once it and every earlier record of its partition are handled ({@code ReliableConsumer}), so this is
   * the proof that a later record of another key cannot give: that one may sit on another partition, and even on the
   * same one it is handled beside the first, not after it.
   */
  public static void awaitHandled(Settings settings, String group, String topic, String key) {
    ConsumerRecord<String, String> last = await("a record keyed " + key + " on " + topic).atMost(Duration.ofSeconds(20))
      .until(() -> read(settings, topic, r -> key.equals(r.key())), found -> !found.isEmpty())
      .stream().max(Comparator.comparingLong(ConsumerRecord::offset)).orElseThrow();
    TopicPartition partition = new TopicPartition(topic, last.partition());
    try (Admin admin = Admin.create(new HashMap<String, Object>(admin(settings)))) {
      await(group + " past " + partition + "@" + last.offset()).atMost(Duration.ofSeconds(20))
        .until(() -> committed(admin, group, partition) > last.offset());
    }
  }

  private static long committed(Admin admin, String group, TopicPartition partition) throws Exception {
    OffsetAndMetadata committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
      .get(10, TimeUnit.SECONDS).get(partition);
    return committed == null ? -1 : committed.offset();
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
