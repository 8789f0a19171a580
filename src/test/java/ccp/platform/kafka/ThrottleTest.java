package ccp.platform.kafka;

import io.vertx.kafka.client.common.TopicPartition;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("Throttle: when a consumer holds its partitions, and when it lets them go")
class ThrottleTest {

  private static final Set<TopicPartition> HELD = Set.of(new TopicPartition("prueba", 0), new TopicPartition("prueba", 1));

  private final List<String> calls = new ArrayList<>();
  /** max-in-flight 4 (so 16 waiting at the most), no Vert.x needed: a consumer of no priority never starts a timer. */
  private final Throttle throttle = new Throttle(null, MockConsumerHost.kafka(10, 4),
    partitions -> calls.add("pause " + partitions.size()), partitions -> calls.add("resume " + partitions.size()));

  @Test
  @DisplayName("held at max-in-flight, still held above half of it, let go at half")
  void inFlight() {
    throttle.flow(3, 3, false, HELD);
    assertThat(calls).isEmpty();
    throttle.flow(4, 4, false, HELD);
    assertThat(calls).containsExactly("pause 2");
    assertThat(throttle.paused()).isTrue();
    throttle.flow(3, 3, false, HELD);
    assertThat(calls).as("hysteresis").containsExactly("pause 2");
    throttle.flow(2, 2, false, HELD);
    assertThat(calls).containsExactly("pause 2", "resume 2");
  }

  @Test
  @DisplayName("held at four times max-in-flight records waiting for their commit, with one in flight")
  void waiting() {
    throttle.flow(1, 15, false, HELD);
    assertThat(calls).isEmpty();
    throttle.flow(1, 16, false, HELD);
    assertThat(calls).containsExactly("pause 2");
    throttle.flow(1, 8, false, HELD);
    assertThat(calls).containsExactly("pause 2", "resume 2");
  }

  @Test
  @DisplayName("held through an outage whatever is in flight, let go when it ends")
  void outage() {
    throttle.flow(0, 0, true, HELD);
    throttle.flow(0, 0, true, HELD);
    assertThat(calls).containsExactly("pause 2");
    throttle.flow(0, 0, false, HELD);
    assertThat(calls).containsExactly("pause 2", "resume 2");
  }

  @Test
  @DisplayName("nothing held without partitions; a rebalance's assignment counts as let go, so it is held again")
  void rebalance() {
    throttle.flow(4, 0, false, Set.of());
    assertThat(calls).isEmpty();
    throttle.flow(4, 0, false, HELD);
    throttle.assigned();
    throttle.flow(4, 0, false, HELD);
    assertThat(calls).containsExactly("pause 2", "pause 2");
  }
}
