package ccp.platform.db;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.sqlclient.Row;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Combining, the critical-section lab's answer applied to one verticle's statements: while one statement is in
 * flight, what arrives queues here — in the verticle's own state, no lock — and the next statement takes it all. Under
 * load, one statement (one transaction, one commit) then serves a whole poll of records instead of one each; when idle
 * an item goes at once, alone.
 * <p>
 * A batch holds at most one item per key, so the statement can join its answer back by key; a second item of a key
 * waits for the next batch, after the first. When a statement of several items fails, each of them is sent again
 * alone, at once, so that one item the statement cannot take (or a deadlock with another process) fails only itself;
 * an item that fails alone fails its caller, whose consumer retries the record.
 * <p>
 * A statement in flight longer than {@link #IN_FLIGHT_BOUND_MS} (a server that stopped answering, a connection gone
 * half-open) fails its whole batch with a {@link TimeoutException}, not item by item — the items are not at fault — and
 * the next batch goes: the callers retry, and the combiner is never wedged behind one lost answer. The bound lies above
 * {@code pg.statement-timeout-ms}'s default, so a server that answers cancels a slow statement first.
 *
 * @param <K> what identifies an item in its batch (the order)
 * @param <E> an item
 * @param <R> its answer; {@code null} when the statement gave none for its key
 */
public final class Combiner<K, E, R> {

  private static final Logger LOG = LoggerFactory.getLogger(Combiner.class);

  static final long IN_FLIGHT_BOUND_MS = 15_000;

  private record Pending<E, R>(E item, Promise<R> answer, boolean alone) {}

  private final int maxBatch;
  private final long boundMs;
  private final Function<E, K> key;
  private final Function<List<E>, Future<Map<K, R>>> statement;
  private final ArrayDeque<Pending<E, R>> pending = new ArrayDeque<>();
  private boolean inFlight;
  /** In {@link #next}'s loop: a statement that answers within its own call asks for the next one through it. */
  private boolean sending;
  private boolean sendAgain;

  /**
   * @param statement applies a batch in one atomic statement and answers per key; it must never see two items of one key
   */
  public Combiner(int maxBatch, Function<E, K> key, Function<List<E>, Future<Map<K, R>>> statement) {
    this(maxBatch, IN_FLIGHT_BOUND_MS, key, statement);
  }

  Combiner(int maxBatch, long boundMs, Function<E, K> key, Function<List<E>, Future<Map<K, R>>> statement) {
    if (maxBatch < 1) throw new IllegalArgumentException("maxBatch must be at least 1, was " + maxBatch);
    this.maxBatch = maxBatch;
    this.boundMs = boundMs;
    this.key = key;
    this.statement = statement;
  }

  /** Must be called on the owning verticle's context. */
  public Future<R> submit(E item) {
    Promise<R> answer = Promise.promise();
    pending.add(new Pending<>(item, answer, false));
    if (!inFlight) next();
    return answer.future();
  }

  /**
   * Sends the next batch. A statement that fails within its call (a closed pool) completes at once, and its handler
   * asks for the next batch before this call returns: that ask only sets {@link #sendAgain}, and this loop sends it,
   * so a full queue failing item by item is answered at a constant stack depth instead of one nested call per item.
   */
  private void next() {
    if (sending) {
      sendAgain = true;
      return;
    }
    sending = true;
    try {
      do {
        sendAgain = false;
        send();
      } while (sendAgain);
    } finally {
      sending = false;
    }
  }

  private void send() {
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
    answers.timeout(boundMs, TimeUnit.MILLISECONDS).onComplete(done -> {
      try {
        if (done.failed() && batch.size() > 1 && !(done.cause() instanceof TimeoutException)) {
          for (int i = batch.size() - 1; i >= 0; i--) {
            Pending<E, R> p = batch.get(i);
            pending.addFirst(new Pending<>(p.item(), p.answer(), true));
          }
        } else {
          Map<K, R> byKey = done.succeeded() && done.result() != null ? done.result() : Map.of();
          for (Pending<E, R> p : batch) {
            // A caller's own failure must not stop the others' answers, nor the next batch.
            try {
              if (done.succeeded()) p.answer().complete(byKey.get(key.apply(p.item())));
              else p.answer().fail(done.cause());
            } catch (RuntimeException e) {
              LOG.warn("A caller's handler of a combined answer threw; the others are answered all the same", e);
            }
          }
        }
      } finally {
        next();
      }
    });
  }

  /**
   * The oldest items, one per key, up to the batch size; the others keep their place in the queue. An item being
   * retried alone goes alone.
   */
  private List<Pending<E, R>> take() {
    if (pending.peekFirst().alone()) return List.of(pending.poll());
    List<Pending<E, R>> batch = new ArrayList<>(Math.min(maxBatch, pending.size()));
    Set<K> keys = new HashSet<>();
    List<Pending<E, R>> later = null;
    while (batch.size() < maxBatch && !pending.isEmpty() && !pending.peekFirst().alone()) {
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
