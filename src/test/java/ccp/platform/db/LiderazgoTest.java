package ccp.platform.db;

import ccp.platform.config.Settings;
import ccp.support.Db;
import ccp.support.SharedInfra;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Liderazgo: one leader among the processes of a group; a stop, even during a try, leaves no lock behind")
class LiderazgoTest {

  /** A key of this test's own, so that no role's process of another suite takes part. */
  private static final long KEY = 0x7465_7374_6C69_6465L;
  private static Settings settings;
  private static Vertx vertx;

  @BeforeAll
  static void start() {
    settings = SharedInfra.settings();
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  /** A process of the group: what it runs as leader is a counter's turn. */
  private static final class Miembro extends VerticleBase {
    private final AtomicInteger liderando;
    private Liderazgo liderazgo;

    Miembro(AtomicInteger liderando) {
      this.liderando = liderando;
    }

    @Override
    public Future<?> start() {
      liderazgo = new Liderazgo(vertx, PgConfig.of(settings, "vigilancia").connectOptions(), KEY, "the test group",
        () -> Future.succeededFuture(liderando.incrementAndGet()), () -> Future.succeededFuture(liderando.decrementAndGet()));
      liderazgo.start(new Liderazgo.Plazos(100, 1_000, 3_000));
      return Future.succeededFuture();
    }

    @Override
    public Future<?> stop() {
      return liderazgo.stop();
    }
  }

  private static long locksHeld() {
    return Db.count(settings, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted");
  }

  @Test
  @DisplayName("of two members one leads; when it stops the other leads within a period, and never both at once")
  void unoALaVez() throws Exception {
    AtomicInteger liderando = new AtomicInteger();
    String uno = vertx.deployVerticle(new Miembro(liderando)).await(10, TimeUnit.SECONDS);
    String dos = vertx.deployVerticle(new Miembro(liderando)).await(10, TimeUnit.SECONDS);
    await().atMost(Duration.ofSeconds(5)).until(liderando::get, n -> n == 1);
    await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(liderando::get, n -> n == 1);
    vertx.undeploy(uno).await(10, TimeUnit.SECONDS);
    vertx.undeploy(dos).await(10, TimeUnit.SECONDS);
    assertThat(liderando).hasValue(0);
    await().atMost(Duration.ofSeconds(5)).until(LiderazgoTest::locksHeld, n -> n == 0);
  }

  /** Stopped as soon as started: its first try (connect, then the lock) is still in flight. */
  @Test
  @DisplayName("stopped while its first try is in flight, a member leaves neither the lock nor a leader's work behind")
  void paradaDuranteElIntento() throws Exception {
    AtomicInteger liderando = new AtomicInteger();
    for (int i = 0; i < 20; i++) {
      String id = vertx.deployVerticle(new Miembro(liderando)).await(10, TimeUnit.SECONDS);
      vertx.undeploy(id).await(10, TimeUnit.SECONDS);
      assertThat(liderando).as("leader's work running after stop %d", i).hasValue(0);
    }
    await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(liderando::get, n -> n == 0);
    await().atMost(Duration.ofSeconds(5)).until(LiderazgoTest::locksHeld, n -> n == 0);
  }
}
