package ccp.platform.db;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.sqlclient.Row;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Combining, the critical-section lab's answer applied to one verticle's statements: while one statement is in
 * flight, what arrives queues here — in the verticle's own state, no lock — and the next statement takes it all. Under
 * load, one statement (one transaction, one commit) then serves a whole poll of records instead of one each; when idle
 * an item goes at once, alone.
 * <p>
 * A batch holds at most one item per key, so the statement can join its answer back by key; a second item of a key
 * waits for the next batch, after the first. A statement that fails fails every item of its batch (the consumer
 * retries each record).
 *
 * @param <K> what identifies an item in its batch (the order)
 * @param <E> an item
 * @param <R> its answer; {@code null} when the statement gave none for its key
 */
public final class Combiner<K, E, R> {

  private record Pending<E, R>(E item, Promise<R> answer) {}

  private final int maxBatch;
  private final Function<E, K> key;
  private final Function<List<E>, Future<Map<K, R>>> statement;
  private final ArrayDeque<Pending<E, R>> pending = new ArrayDeque<>();
  private boolean inFlight;

  /**
   * @param statement applies a batch in one atomic statement and answers per key; it must never see two items of one key
   */
  public Combiner(int maxBatch, Function<E, K> key, Function<List<E>, Future<Map<K, R>>> statement) {
    if (maxBatch < 1) throw new IllegalArgumentException("maxBatch must be at least 1, was " + maxBatch);
    this.maxBatch = maxBatch;
    this.key = key;
    this.statement = statement;
  }

  /** Must be called on the owning verticle's context. */
  public Future<R> submit(E item) {
    Promise<R> answer = Promise.promise();
    pending.add(new Pending<>(item, answer));
    if (!inFlight) next();
    return answer.future();
  }

  private void next() {
    if (pending.isEmpty()) {
      inFlight = false;
      return;
    }
    inFlight = true;
    List<Pending<E, R>> batch = take();
    List<E> items = new ArrayList<>(batch.size());
    for (Pending<E, R> p : batch) items.add(p.item());
    Future<Map<K, R>> answers;
    try {
      answers = statement.apply(items);
    } catch (RuntimeException e) {
      answers = Future.failedFuture(e);
    }
    answers.onComplete(done -> {
      for (Pending<E, R> p : batch) {
        if (done.succeeded()) p.answer().complete(done.result().get(key.apply(p.item())));
        else p.answer().fail(done.cause());
      }
      next();
    });
  }

  /** The oldest items, one per key, up to the batch size; the others keep their place in the queue. */
  private List<Pending<E, R>> take() {
    List<Pending<E, R>> batch = new ArrayList<>(Math.min(maxBatch, pending.size()));
    Set<K> keys = new HashSet<>();
    List<Pending<E, R>> later = null;
    while (batch.size() < maxBatch && !pending.isEmpty()) {
      Pending<E, R> p = pending.poll();
      if (keys.add(key.apply(p.item()))) {
        batch.add(p);
      } else {
        if (later == null) later = new ArrayList<>();
        later.add(p);
      }
    }
    if (later != null) {
      for (int i = later.size() - 1; i >= 0; i--) pending.addFirst(later.get(i));
    }
    return batch;
  }

  /** What the statement gave, by key, from its answer rows: a helper for the usual shape of a batch statement. */
  public static <K, R> Map<K, R> byKey(Iterable<Row> rows, Function<Row, K> key, Function<Row, R> answer) {
    Map<K, R> map = new HashMap<>();
    for (Row row : rows) map.put(key.apply(row), answer.apply(row));
    return map;
  }
}
