package ccp.lab;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

@DisplayName("No synchronization")
class SinSincronizacionTest {

  private static final int ATTEMPTS = 10;

  @Test
  @DisplayName("loses updates or oversells: shown within a bounded number of runs")
  void losesUpdates() {
    Bench bench = new Bench(null, null, Duration.ofSeconds(1), 1, Progress.silent());
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      // As much stock as requests: every request must be approved, so any interleaving shows as a lost update.
      Outcome outcome = bench.run(Catalogo.SIN_SINCRONIZACION, new Workload(200_000, 200_000, 50, 1, new TrabajoLento(0, 0, 0, 0, 0)), "");
      if (outcome.consistencia().total() > 0) {
        System.out.printf("attempt %d: %s%n", attempt, outcome.block());
        assertThat(outcome.consistencia().lostUpdates() + outcome.consistencia().oversold()).isPositive();
        assertThat(outcome.approved()).isGreaterThan(outcome.carga().stock() - outcome.finalStock());
        return;
      }
    }
    fail("no synchronization kept the stock consistent in " + ATTEMPTS + " runs of 200,000 requests");
  }
}
