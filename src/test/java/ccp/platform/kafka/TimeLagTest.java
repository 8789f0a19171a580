package ccp.platform.kafka;

import io.vertx.kafka.client.common.TopicPartition;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("TimeLag: how long a group's first unfinished record has waited, from sampled end offsets")
class TimeLagTest {

  private static final TopicPartition P = new TopicPartition("etapa.ejecutar", 0);
  private static final long S = 1_000_000_000L;

  @Test
  @DisplayName("nothing waits when the committed offset is at the end, or the partition was never sampled")
  void nadaEspera() {
    TimeLag lag = new TimeLag();
    assertThat(lag.ageMs(P, 5, 10 * S)).isZero();
    lag.sample(P, 100, 0);
    lag.sample(P, 200, S);
    assertThat(lag.ageMs(P, 200, 5 * S)).isZero();
    assertThat(lag.ageMs(P, 250, 5 * S)).as("committed past the last sampled end").isZero();
  }

  @Test
  @DisplayName("a record is placed in time between the samples around its offset, and ages from there")
  void interpola() {
    TimeLag lag = new TimeLag();
    lag.sample(P, 100, 0);
    lag.sample(P, 200, S);
    lag.sample(P, 300, 2 * S);
    // Offset 149 is the 50th record written after the end was 100 at 0 s, of 100 written by 1 s: written at 0.5 s.
    assertThat(lag.ageMs(P, 149, 2 * S)).isEqualTo(1_500);
    // Offset 200 was not yet written at 1 s, and was by 2 s.
    assertThat(lag.ageMs(P, 200, 3 * S)).isEqualTo(1_990);
    assertThat(lag.ageMs(P, 299, 3 * S)).isEqualTo(1_000);
  }

  @Test
  @DisplayName("a record older than every sample kept is as old as the oldest sample; samples past the horizon are dropped")
  void horizonte() {
    TimeLag lag = new TimeLag();
    lag.sample(P, 100, 0);
    assertThat(lag.ageMs(P, 40, 3 * S)).isEqualTo(3_000);
    lag.sample(P, 100, 61 * S);
    lag.sample(P, 100, 62 * S);
    assertThat(lag.ageMs(P, 40, 62 * S)).as("the sample at 0 s is past the 60 s horizon").isEqualTo(1_000);
  }

  @Test
  @DisplayName("a stuck head keeps ageing while no new record comes: the last sample before its offset is the bound")
  void cabezaAtascada() {
    TimeLag lag = new TimeLag();
    lag.sample(P, 10, 0);
    lag.sample(P, 11, S);
    for (long t = 2; t <= 10; t++) lag.sample(P, 11, t * S);
    assertThat(lag.ageMs(P, 10, 10 * S)).isEqualTo(9_000);
  }
}
