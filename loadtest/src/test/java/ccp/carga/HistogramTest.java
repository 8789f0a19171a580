package ccp.carga;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

@DisplayName("A histogram read from two scrapes reports quantiles as Prometheus interpolates them, never above the maximum")
class HistogramTest {

  private static final String BEFORE = """
    asr2_seconds_bucket{le="0.5"} 0
    asr2_seconds_bucket{le="1.0"} 0
    asr2_seconds_bucket{le="2.5"} 0
    asr2_seconds_bucket{le="+Inf"} 0
    asr2_seconds_count 0
    asr2_seconds_max 0.0
    """;

  @Test
  @DisplayName("100 observations, 90 under 0.5 s and 10 in (1 s, 2.5 s] with the largest 1.3241 s: p50 interpolated, p99 at most 1,324.1 ms")
  void quantileNeverAboveTheMaximum() {
    String after = """
      asr2_seconds_bucket{le="0.5"} 90
      asr2_seconds_bucket{le="1.0"} 90
      asr2_seconds_bucket{le="2.5"} 100
      asr2_seconds_bucket{le="+Inf"} 100
      asr2_seconds_count 100
      asr2_seconds_max 1.3241
      """;
    Histogram before = Histogram.parse(BEFORE, "asr2_seconds");
    Histogram run = Histogram.parse(after, "asr2_seconds");

    assertThat(run.quantileMillisSince(before, 0.50)).isCloseTo(277.8, within(0.1));
    assertThat(run.quantileMillisSince(before, 0.99)).isLessThanOrEqualTo(1000 * 1.3241).isCloseTo(1324.1, within(0.01));
    assertThat(run.describeSince(before)).isEqualTo("p50 277.8 ms, p99 1324.1 ms, max 1324.1 ms (n=100)");
  }

  @Test
  @DisplayName("below the top bucket the quantile is interpolated as before; a maximum older than the run bounds nothing")
  void interpolatedBelowTheTop() {
    String after = """
      asr2_seconds_bucket{le="0.5"} 50
      asr2_seconds_bucket{le="1.0"} 100
      asr2_seconds_bucket{le="2.5"} 100
      asr2_seconds_bucket{le="+Inf"} 100
      asr2_seconds_count 100
      asr2_seconds_max 0.2
      """;
    Histogram before = Histogram.parse(BEFORE, "asr2_seconds");
    Histogram run = Histogram.parse(after, "asr2_seconds");

    assertThat(run.quantileMillisSince(before, 0.25)).isCloseTo(250.0, within(0.1));
    assertThat(run.quantileMillisSince(before, 0.99)).isCloseTo(990.0, within(0.1));
  }
}
