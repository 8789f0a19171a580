package ccp.platform.async;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("Backoff: capped exponential waits")
class BackoffTest {

  @Test
  @DisplayName("the first failure waits the initial delay, each further one twice as long, up to the cap")
  void doublesUpToTheCap() {
    assertThat(delays(new Backoff(100, 5_000), 8)).containsExactly(100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000);
  }

  @Test
  @DisplayName("the cap holds for any number of failures, and need not be a doubling of the initial delay")
  void theCapHolds() {
    assertThat(new Backoff(100, 5_000).delayMs(Integer.MAX_VALUE)).isEqualTo(5_000);
    assertThat(delays(new Backoff(100, 250), 4)).containsExactly(100, 200, 250, 250);
    assertThat(delays(new Backoff(50, 50), 3)).containsExactly(50, 50, 50);
  }

  @Test
  @DisplayName("no failure waits nothing")
  void noFailureWaitsNothing() {
    assertThat(new Backoff(100, 5_000).delayMs(0)).isZero();
  }

  @Test
  @DisplayName("a delay that is not positive, or a cap below it, is refused with the values")
  void invalidArgumentsAreRefused() {
    assertThatThrownBy(() -> new Backoff(0, 5_000)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0..5000");
    assertThatThrownBy(() -> new Backoff(-1, 5_000)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(200, 100)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("200..100");
  }

  /** The waits after 1, 2, … {@code failures} consecutive failures. */
  private static long[] delays(Backoff backoff, int failures) {
    return IntStream.rangeClosed(1, failures).mapToLong(backoff::delayMs).toArray();
  }
}
