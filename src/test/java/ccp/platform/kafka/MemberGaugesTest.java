package ccp.platform.kafka;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.kafka.client.common.TopicPartition;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("MemberGauges: the lag is the log's end minus where the group stands; the gauges carry the member's tags")
class MemberGaugesTest {

  private static final TopicPartition P0 = new TopicPartition("prueba", 0);
  private static final TopicPartition P1 = new TopicPartition("prueba", 1);

  private final Offsets offsets = new Offsets();
  private final Set<TopicPartition> assigned = new HashSet<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final MemberGauges gauges = new MemberGauges("grupo", "prueba", "grupo-1", new MemberGauges.Log() {
    @Override
    public Future<Map<TopicPartition, Long>> ends(Set<TopicPartition> partitions) {
      Map<TopicPartition, Long> ends = new HashMap<>(Map.of(P0, 10L, P1, 30L));
      ends.keySet().retainAll(partitions);
      return Future.succeededFuture(ends);
    }

    @Override
    public Future<Long> position(TopicPartition partition) {
      return Future.succeededFuture(partition.equals(P1) ? 25L : 0L);
    }
  }, offsets, assigned, closed::get);

  @Test
  @DisplayName("past the handled records where some are, from the client's position where nothing was fetched")
  void lag() {
    assigned.addAll(Set.of(P0, P1));
    offsets.assigned(assigned);
    offsets.done(offsets.fetched(P0, 0));
    offsets.done(offsets.fetched(P0, 1));
    offsets.fetched(P0, 2);

    gauges.measureLag();
    assertThat(gauges.lag()).as("P0: 10 - 2; P1: 30 - 25").isEqualTo(13);
  }

  @Test
  @DisplayName("0 once the member holds nothing, or is stopped")
  void noneWhenNothingHeld() {
    assigned.add(P1);
    gauges.measureLag();
    assertThat(gauges.lag()).isEqualTo(5);
    closed.set(true);
    gauges.measureLag();
    assertThat(gauges.lag()).isZero();
  }

  @Test
  @DisplayName("the retrying and yielding gauges read what they are given, tagged with group and client")
  void gauges() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    AtomicBoolean yielding = new AtomicBoolean();
    gauges.retryingOn(registry, () -> 2.5);
    gauges.yieldingOn(registry, yielding::get);

    assertThat(registry.get("kafka_consumer_retrying_seconds").tag("group", "grupo").tag("topic", "prueba")
      .tag("client", "grupo-1").gauge().value()).isEqualTo(2.5);
    assertThat(registry.get("kafka_consumer_yielding").tag("client", "grupo-1").gauge().value()).isZero();
    yielding.set(true);
    assertThat(registry.get("kafka_consumer_yielding").gauge().value()).isEqualTo(1);
  }
}
