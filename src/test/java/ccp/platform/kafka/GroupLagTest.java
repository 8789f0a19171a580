package ccp.platform.kafka;

import ccp.platform.config.Settings;
import ccp.support.SharedInfra;
import ccp.support.Topic;
import io.vertx.core.Vertx;
import io.vertx.kafka.admin.KafkaAdminClient;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * GroupLag keeps the topics' partitions between readings (they change only when the operator grows a topic) and
 * describes them again as soon as a group commits on one it does not know: a record waiting on a new partition counts
 * at once, not a minute later.
 */
@DisplayName("GroupLag: a partition added to a watched topic counts as soon as its group commits on it")
class GroupLagTest {

  @Test
  @DisplayName("a topic grown while watched: the record waiting on its new partition is told within a few readings")
  void particionNueva() throws Exception {
    Settings settings = SharedInfra.settings();
    String topic = "test.group-lag-" + UUID.randomUUID();
    String group = "test.group-lag-" + UUID.randomUUID();
    Map<String, Object> config = new HashMap<>(Topic.admin(settings));
    Vertx vertx = Vertx.vertx();
    try (Admin admin = Admin.create(config)) {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
      Map<String, Object> member = new HashMap<>(config);
      member.put("group.id", group);
      member.put("enable.auto.commit", "false");
      try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(member, new StringDeserializer(), new StringDeserializer());
           KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
        consumer.subscribe(List.of(topic));
        await("the member joined").atMost(Duration.ofSeconds(30)).until(() -> {
          consumer.poll(Duration.ofMillis(100));
          return !consumer.assignment().isEmpty();
        });
        consumer.commitSync(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(0)));
        GroupLag lag = new GroupLag(KafkaAdminClient.create(vertx, Topic.admin(settings)), Map.of(group, topic));
        assertThat(lag.read().await(10, TimeUnit.SECONDS)).as("nothing waits").containsEntry(group, 0L);

        admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(2))).all().get(30, TimeUnit.SECONDS);
        producer.send(new ProducerRecord<>(topic, 1, "k", "esperando")).get(10, TimeUnit.SECONDS);
        // The member has not been given the new partition yet (its metadata is up to five minutes old): it commits the
        // record's offset there, as a consumer does that has not handled it.
        consumer.commitSync(Map.of(new TopicPartition(topic, 1), new OffsetAndMetadata(0)));
        // Within seconds: were the partitions described only once they are a minute old, it would take a minute.
        await("the new partition's record told as waiting").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(300))
          .until(() -> lag.read().await(10, TimeUnit.SECONDS).get(group), espera -> espera > 0);
      } finally {
        admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
      }
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }
}
