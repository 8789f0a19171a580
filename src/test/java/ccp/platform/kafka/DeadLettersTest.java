package ccp.platform.kafka;

import io.vertx.core.Future;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;
import io.vertx.kafka.client.consumer.impl.KafkaConsumerRecordImpl;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("DeadLetters: a poison record goes to cola.fallidos as it came, with its reason, under one id per record and group")
class DeadLettersTest {

  private final List<Envelope> sent = new ArrayList<>();
  private final List<String> keys = new ArrayList<>();

  @Test
  @DisplayName("the dead letter carries the record, its group and the reason, and is named after the record")
  void carriesTheRecordAndItsReason() {
    DeadLetters letters = letters("grupo");
    letters.send(record("pedidos", 2, 41, "k", "{not json"), "value is not a JSON object");

    assertThat(keys).containsExactly("k");
    Envelope letter = sent.get(0);
    assertThat(letter.type()).isEqualTo(EventTypes.MENSAJE_FALLIDO);
    assertThat(letter.subject()).isEqualTo("pedidos-2@41");
    assertThat(letter.data().getString("topic")).isEqualTo("pedidos");
    assertThat(letter.data().getLong("offset")).isEqualTo(41);
    assertThat(letter.data().getString("grupo")).isEqualTo("grupo");
    assertThat(letter.data().getString("valor")).isEqualTo("{not json");
    assertThat(letter.data().getString("motivo")).isEqualTo("value is not a JSON object");
  }

  @Test
  @DisplayName("the same record is the same dead letter for its group, another for another group")
  void oneIdPerRecordAndGroup() {
    KafkaConsumerRecord<String, String> poison = record("pedidos", 0, 7, "k", "x");
    assertThat(letters("grupo").id(poison)).isEqualTo(letters("grupo").id(record("pedidos", 0, 7, "otra", "y")))
      .isNotEqualTo(letters("otro").id(poison))
      .isNotEqualTo(letters("grupo").id(record("pedidos", 0, 8, "k", "x")));
  }

  @Test
  @DisplayName("a record of cola.fallidos itself is left there: no dead letter of a dead letter")
  void aDeadLetterIsNotDeadLetteredAgain() {
    Future<Void> done = letters("grupo").send(record(Topics.COLA_FALLIDOS, 0, 1, "k", "x"), "unreadable");
    assertThat(done.succeeded()).isTrue();
    assertThat(sent).isEmpty();
  }

  private DeadLetters letters(String group) {
    return new DeadLetters(group, (topic, key, letter) -> {
      assertThat(topic).isEqualTo(Topics.COLA_FALLIDOS);
      keys.add(key);
      sent.add(letter);
      return Future.succeededFuture();
    });
  }

  static KafkaConsumerRecord<String, String> record(String topic, int partition, long offset, String key, String value) {
    return new KafkaConsumerRecordImpl<>(new ConsumerRecord<>(topic, partition, offset, key, value));
  }
}
