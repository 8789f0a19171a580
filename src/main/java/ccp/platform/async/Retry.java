package ccp.platform.async;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The retry loop: an attempt, and after each failure the caller's judgement of it — how long to wait before the next
 * attempt (usually a {@link Backoff}'s delay), or a failed future to give up with. The caller keeps its own count of
 * failures, so that it may keep it where it must live (a database row) or start it afresh (after an outage).
 */
public final class Retry {

  private Retry() {}

  /**
   * Runs {@code attempt} until it succeeds, or until {@code afterFailure} answers a failure; a wait of 0 or less tries
   * again at once. Runs on the caller's context, as do its timers.
   */
  public static <T> Future<T> until(Vertx vertx, Supplier<Future<T>> attempt, Function<Throwable, Future<Long>> afterFailure) {
    Future<T> run;
    try {
      run = attempt.get();
    } catch (RuntimeException e) {
      run = Future.failedFuture(e);
    }
    return run.recover(err -> afterFailure.apply(err)
      .compose(waitMs -> waitMs <= 0 ? Future.succeededFuture() : vertx.timer(waitMs))
      .compose(waited -> until(vertx, attempt, afterFailure)));
  }
}
