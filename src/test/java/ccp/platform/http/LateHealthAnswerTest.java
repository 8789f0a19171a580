package ccp.platform.http;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.healthchecks.CheckResult;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Readiness: a check that answers after its bound")
class LateHealthAnswerTest {

  @Test
  @DisplayName("is reported down at its bound, and its late answer is dropped without an error on the context that brings it")
  void aLateAnswerIsDroppedQuietly() throws Exception {
    Vertx vertx = Vertx.vertx();
    List<Throwable> errors = new CopyOnWriteArrayList<>();
    vertx.exceptionHandler(errors::add);
    try {
      // A worker context kept busy past the check's bound: its state is read only after HealthChecks has failed it.
      Context owner = ((VertxInternal) vertx).createWorkerContext();
      Health health = new Health(vertx, 1_000);
      CountDownLatch answered = new CountDownLatch(1);
      health.readyWhen("busy-owner", owner, () -> {
        answered.countDown();
        return new JsonObject().put("ready", true);
      });
      owner.runOnContext(busy -> sleep(3_000));

      CheckResult result = health.readiness().checkStatus().await(10, TimeUnit.SECONDS);
      assertThat(result.getUp()).as("down while its owner has not answered").isFalse();

      assertThat(answered.await(10, TimeUnit.SECONDS)).as("the owner read its state late").isTrue();
      await("no error from the late answer").during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
        .untilAsserted(() -> assertThat(errors).isEmpty());
    } finally {
      vertx.close().await(30, TimeUnit.SECONDS);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
