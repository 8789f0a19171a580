package ccp.lab;

import ccp.platform.config.Settings;
import ccp.support.SharedInfra;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

@DisplayName("Two JVMs on one PostgreSQL stock: stock 1,000, 5,000 requests, half from a child JVM")
class DosInstanciasTest {

  private static final TrabajoLento NADA = new TrabajoLento(0, 0, 0, 0, 0);

  private static Settings settings;
  private static Vertx vertx;
  private static LabDb db;

  @BeforeAll
  static void open() {
    settings = SharedInfra.settings();
    vertx = Vertx.vertx();
    db = LabDb.abrir(vertx, settings);
  }

  @AfterAll
  static void close() {
    db.close();
    vertx.close().await();
  }

  @Test
  @DisplayName("the atomic statement never oversells across the two processes")
  void atomicNeverOversells() {
    DosInstancias.Resultado r = DosInstancias.correr(settings, db, DosInstancias.Variante.ATOMICA, 1_000, 5_000, 50, NADA);
    System.out.println(r.block());

    assertThat(r.aprobadas()).isEqualTo(1_000);
    assertThat(r.finalStock()).isZero();
    assertThat(r.consistencia().total()).isZero();
  }

  @Test
  @DisplayName("a local lock around a read-then-write does not coordinate them: it oversells (within 3 runs)")
  void localLockOversells() {
    for (int attempt = 1; attempt <= 3; attempt++) {
      DosInstancias.Resultado r = DosInstancias.correr(settings, db, DosInstancias.Variante.LOCK_LOCAL, 1_000, 5_000, 50, NADA);
      System.out.println(r.block());
      if (r.consistencia().oversold() > 0) {
        assertThat(r.aprobadas()).isGreaterThan(1_000);
        assertThat(r.aprobadasAqui()).isPositive();
        assertThat(r.aprobadasHijo()).isPositive();
        return;
      }
    }
    fail("two processes with local locks never oversold in 3 runs");
  }
}
