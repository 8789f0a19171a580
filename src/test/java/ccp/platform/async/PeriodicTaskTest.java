package ccp.platform.async;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.Checkpoint;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Each task lives on one event loop, as in a verticle; the test thread only watches its counters. */
@ExtendWith(VertxExtension.class)
@DisplayName("PeriodicTask: a periodic task that never overlaps itself")
class PeriodicTaskTest {

  private static final Duration WAIT = Duration.ofSeconds(5);

  @Test
  @DisplayName("a tick while a run is in flight is skipped, and the ticks after it run again")
  void aTickDuringARunIsSkipped(Vertx vertx, VertxTestContext test) {
    Context loop = vertx.getOrCreateContext();
    AtomicInteger runs = new AtomicInteger();
    Promise<Void> first = Promise.promise();
    AtomicReference<PeriodicTask> task = new AtomicReference<>();
    Checkpoint secondRun = test.checkpoint();
    loop.runOnContext(v -> task.set(PeriodicTask.every(vertx, 10, "prueba", () -> {
      if (runs.incrementAndGet() == 1) return first.future();
      task.get().cancel();
      secondRun.flag();
      return Future.succeededFuture();
    })));

    await("the first run").atMost(WAIT).until(() -> runs.get() == 1);
    await("no second run while the first is in flight").during(Duration.ofMillis(200)).atMost(WAIT).until(() -> runs.get() == 1);
    loop.runOnContext(v -> test.verify(() -> {
      assertThat(task.get().runNow().succeeded()).as("runNow while a run is in flight answers at once").isTrue();
      assertThat(runs.get()).as("runs").isEqualTo(1);
      first.complete();
    }));
  }

  @Test
  @DisplayName("runNow answers the run; a failed or throwing run does not keep the next one from running")
  void aFailedRunDoesNotStopTheNext(Vertx vertx, VertxTestContext test) {
    AtomicInteger runs = new AtomicInteger();
    vertx.getOrCreateContext().runOnContext(v -> {
      PeriodicTask task = PeriodicTask.every(vertx, 60_000, "prueba", () -> switch (runs.incrementAndGet()) {
        case 1 -> Future.failedFuture("database unavailable");
        case 2 -> throw new IllegalStateException("a bug");
        default -> Future.succeededFuture();
      });
      task.runNow()
        .transform(failed -> {
          test.verify(() -> assertThat(failed.cause()).hasMessage("database unavailable"));
          return task.runNow();
        })
        .transform(thrown -> {
          test.verify(() -> assertThat(thrown.cause()).isInstanceOf(IllegalStateException.class));
          return task.runNow();
        })
        .onComplete(test.succeeding(done -> test.verify(() -> {
          assertThat(runs.get()).isEqualTo(3);
          task.cancel();
          test.completeNow();
        })));
    });
  }

  @Test
  @DisplayName("ticks go on after a failed run")
  void ticksGoOnAfterAFailure(Vertx vertx, VertxTestContext test) {
    AtomicInteger runs = new AtomicInteger();
    Checkpoint threeRuns = test.checkpoint(3);
    AtomicReference<PeriodicTask> task = new AtomicReference<>();
    vertx.getOrCreateContext().runOnContext(v -> task.set(PeriodicTask.every(vertx, 10, "prueba", () -> {
      int run = runs.incrementAndGet();
      if (run == 3) task.get().cancel();
      if (run <= 3) threeRuns.flag();
      return Future.failedFuture("database unavailable");
    })));
  }

  @Test
  @DisplayName("cancel stops the ticks")
  void cancelStopsIt(Vertx vertx) {
    AtomicInteger runs = new AtomicInteger();
    AtomicReference<PeriodicTask> task = new AtomicReference<>();
    vertx.getOrCreateContext().runOnContext(v -> task.set(PeriodicTask.every(vertx, 10, "prueba", () -> {
      if (runs.incrementAndGet() == 2) task.get().cancel();
      return Future.succeededFuture();
    })));

    await("two runs").atMost(WAIT).until(() -> runs.get() == 2);
    await("no run after cancel").during(Duration.ofMillis(200)).atMost(WAIT).until(() -> runs.get() == 2);
  }
}
