package ccp.platform.async;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import io.vertx.junit5.VertxExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@ExtendWith(VertxExtension.class)
@DisplayName("Retry: an attempt again after each failure, as long as the caller's judgement says so")
class RetryTest {

  @Test
  @DisplayName("a failing attempt is tried again after the wait its failure was judged to need, until it succeeds")
  void retriesUntilSuccess(Vertx vertx) {
    AtomicInteger attempts = new AtomicInteger();
    List<String> judged = new ArrayList<>();
    long started = System.nanoTime();
    String result = Retry.until(vertx,
      () -> attempts.incrementAndGet() < 3 ? Future.<String>failedFuture("down " + attempts.get()) : Future.succeededFuture("done"),
      err -> {
        judged.add(err.getMessage());
        return Future.succeededFuture(100L);
      }).timeout(5, TimeUnit.SECONDS).await();

    assertThat(result).isEqualTo("done");
    assertThat(judged).containsExactly("down 1", "down 2");
    assertThat((System.nanoTime() - started) / 1_000_000).as("two waits of 100 ms").isGreaterThanOrEqualTo(200);
  }

  @Test
  @DisplayName("a failure judged final ends the loop with the judgement's failure, and no further attempt is made")
  void aFinalFailureEndsIt(Vertx vertx) {
    AtomicInteger attempts = new AtomicInteger();
    Future<Void> run = Retry.until(vertx, () -> {
      attempts.incrementAndGet();
      return Future.failedFuture(new IllegalStateException("poison"));
    }, err -> err instanceof IllegalStateException ? Future.failedFuture("given up: " + err.getMessage()) : Future.succeededFuture(1L));

    assertThatThrownBy(() -> run.timeout(5, TimeUnit.SECONDS).await()).hasMessage("given up: poison");
    assertThat(attempts).hasValue(1);
  }

  @Test
  @DisplayName("an attempt that throws is a failure like any other: judged, and tried again")
  void aThrowIsAFailure(Vertx vertx) {
    AtomicInteger attempts = new AtomicInteger();
    Integer result = Retry.until(vertx, () -> {
      if (attempts.incrementAndGet() == 1) throw new IllegalArgumentException("bug");
      return Future.succeededFuture(attempts.get());
    }, err -> Future.succeededFuture(0L)).timeout(5, TimeUnit.SECONDS).await();

    assertThat(result).isEqualTo(2);
  }
}
