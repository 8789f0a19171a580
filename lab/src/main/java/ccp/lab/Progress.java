package ccp.lab;

import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/** Shows on stderr, every two seconds, how far the current run is; stdout keeps only the report. */
final class Progress implements AutoCloseable {

  private final ScheduledExecutorService printer;
  private LongAdder done = new LongAdder();
  private ScheduledFuture<?> ticking;

  private Progress(ScheduledExecutorService printer) {
    this.printer = printer;
  }

  static Progress toStderr() {
    return new Progress(Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "lab-progress");
      t.setDaemon(true);
      return t;
    }));
  }

  static Progress silent() {
    return new Progress(null);
  }

  /** The counter the next run's workers increment. */
  LongAdder begin(String label, long total) {
    LongAdder counter = new LongAdder();
    done = counter;
    if (printer != null) {
      System.err.printf(Locale.ROOT, "lab: %s, %,d requests…%n", label, total);
      long began = System.nanoTime();
      ticking = printer.scheduleAtFixedRate(() -> System.err.printf(Locale.ROOT, "  %s: %,d/%,d (%.0f %%) after %.0f s%n",
        label, counter.sum(), total, 100.0 * counter.sum() / total, (System.nanoTime() - began) / 1e9), 2, 2, TimeUnit.SECONDS);
    }
    return counter;
  }

  void end() {
    if (ticking != null) ticking.cancel(false);
  }

  void note(String line) {
    if (printer != null) System.err.println("lab: " + line);
  }

  @Override
  public void close() {
    if (printer != null) printer.shutdownNow();
  }
}
