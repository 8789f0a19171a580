package ccp.platform.kafka;

import io.vertx.core.Future;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Runs of one key one after another, in the order they are given; runs of different keys concurrently. A key is
 * forgotten once its last run ends, so memory follows the keys in flight. Confined to the consumer's event loop.
 */
final class KeyOrder {

  private final Map<String, Future<Void>> tails = new HashMap<>();

  /** Starts {@code run} once every earlier run of {@code key} has ended, however it ended. */
  Future<Void> after(String key, Supplier<Future<Void>> run) {
    Future<Void> previous = tails.get(key);
    Future<Void> next = previous == null ? run.get() : previous.transform(ended -> run.get());
    tails.put(key, next);
    next.onComplete(ended -> {
      if (tails.get(key) == next) tails.remove(key);
    });
    return next;
  }

  /** Keys with a run in flight or queued. */
  int keys() {
    return tails.size();
  }
}
