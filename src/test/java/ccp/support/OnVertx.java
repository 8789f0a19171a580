package ccp.support;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.function.Supplier;

/**
 * Makes a Vert.x client's call on a context of {@code vertx}, as the system always does. Vert.x 5.0.7's HTTP client,
 * called from a thread outside Vert.x (a test's own), left 2–4 requests of 1,200 unsent with its own timeouts never
 * firing; on a context, none of 2,400 (docs/design.md, Bounded waits).
 */
public final class OnVertx {

  private OnVertx() {}

  public static <T> Future<T> call(Vertx vertx, Supplier<Future<T>> call) {
    Promise<T> answer = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> call.get().onComplete(answer));
    return answer.future();
  }
}
