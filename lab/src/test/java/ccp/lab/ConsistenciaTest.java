package ccp.lab;

import ccp.support.SharedInfra;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("The reference's test_inventory_remains_consistent: stock 1,000, 5,000 requests of 1, 50 workers")
class ConsistenciaTest {

  /** The reference's slow work, a hundred times shorter, so the suite stays fast. */
  static final TrabajoLento BREVE = new TrabajoLento(0.01, 0.01, 0.01, 0.01, 0.01);

  private static Vertx vertx;
  private static LabDb db;

  @BeforeAll
  static void open() {
    vertx = Vertx.vertx();
    db = LabDb.abrir(vertx, SharedInfra.settings());
  }

  @AfterAll
  static void close() {
    db.close();
    vertx.close().await();
  }

  static Stream<Catalogo> correctas() {
    return Arrays.stream(Catalogo.values()).filter(c -> c.correcta);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("correctas")
  @DisplayName("every correct strategy approves exactly 1,000 and ends at stock 0, never negative")
  void remainsConsistent(Catalogo estrategia) {
    Outcome outcome = new Bench(vertx, db, Duration.ofSeconds(10), 10, Progress.silent())
      .run(estrategia, new Workload(1_000, 5_000, 50, 1, BREVE), "");

    assertThat(outcome.failed()).as(outcome.failure()).isZero();
    assertThat(outcome.busy()).isZero();
    assertThat(outcome.approved()).isEqualTo(1_000);
    assertThat(outcome.rejected()).isEqualTo(4_000);
    assertThat(outcome.finalStock()).isZero();
    assertThat(outcome.consistencia().total()).as(outcome.block()).isZero();
  }
}
