package ccp.platform.http;

import io.vertx.core.Vertx;

/**
 * How late one event loop runs what it is given, measured by a timer on it: every {@value #TICK_MS} ms a tick notes how
 * much later than due it ran. The standing delay is the smallest lateness of the last {@value #WINDOW_MS} ms window (the
 * idea of CoDel's standing queue): one long pause (a collection, a slow statement) moves one tick, not the minimum,
 * while a loop with more work than it can do is late at every tick. {@link Admission} refuses by it the requests that
 * wait where its concurrency limit cannot see: in the event loop's queue, before any handler runs. Confined to the
 * context that made it.
 */
final class EventLoopDelay {

  static final long TICK_MS = 10;
  static final long WINDOW_MS = 250;

  private long due;
  private long windowEnds;
  private long windowMin = Long.MAX_VALUE;
  private long standingMs;

  private EventLoopDelay() {}

  /** Starts measuring the event loop of the calling context (a verticle's: the timer ends with it). */
  static EventLoopDelay start(Vertx vertx) {
    EventLoopDelay delay = new EventLoopDelay();
    long now = System.nanoTime();
    delay.due = now + TICK_MS * 1_000_000;
    delay.windowEnds = now + WINDOW_MS * 1_000_000;
    vertx.setPeriodic(TICK_MS, id -> delay.tick());
    return delay;
  }

  private void tick() {
    long now = System.nanoTime();
    long late = Math.max(0, now - due) / 1_000_000;
    due = now + TICK_MS * 1_000_000;
    windowMin = Math.min(windowMin, late);
    if (now >= windowEnds) {
      standingMs = windowMin;
      windowMin = Long.MAX_VALUE;
      windowEnds = now + WINDOW_MS * 1_000_000;
    }
  }

  /** The standing delay of the last full window, in milliseconds. */
  long standingMs() {
    // A loop so busy that no tick ran for a whole window is at least that late.
    long sinceDue = (System.nanoTime() - due) / 1_000_000;
    return Math.max(standingMs, sinceDue > WINDOW_MS ? sinceDue : 0);
  }
}
