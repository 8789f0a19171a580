package ccp.platform.async;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Supplier;

/**
 * A task run every {@code periodMs} on the calling verticle's event loop, never overlapping itself: a tick that comes
 * while the previous run is in flight is skipped, so a slow database never stacks runs. Its state is that verticle's.
 */
public final class PeriodicTask {

  private static final Logger LOG = LoggerFactory.getLogger(PeriodicTask.class);

  private final Vertx vertx;
  private final String name;
  private final Supplier<Future<?>> task;
  private final long timer;
  private boolean running;

  private PeriodicTask(Vertx vertx, String name, long periodMs, Supplier<Future<?>> task) {
    this.vertx = vertx;
    this.name = name;
    this.task = task;
    this.timer = vertx.setPeriodic(periodMs, id -> runNow());
  }

  /** Starts ticking; {@code name} says in the log which task failed. */
  public static PeriodicTask every(Vertx vertx, long periodMs, String name, Supplier<Future<?>> task) {
    return new PeriodicTask(vertx, name, periodMs, task);
  }

  /** Runs the task now unless a run is in flight; answers the run, or an empty success when one was in flight. */
  public Future<Void> runNow() {
    if (running) return Future.succeededFuture();
    running = true;
    Future<?> run;
    try {
      run = task.get();
    } catch (RuntimeException e) {
      run = Future.failedFuture(e);
    }
    return run.onFailure(err -> LOG.warn("{} failed: {}", name, err.toString()))
      .onComplete(done -> running = false)
      .<Void>mapEmpty();
  }

  public void cancel() {
    vertx.cancelTimer(timer);
  }
}
