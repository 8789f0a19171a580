package ccp.lab;

import java.util.Arrays;
import java.util.Locale;

/** What one strategy did with one workload: the reference's report block, and the figures the table and charts use. */
record Outcome(Catalogo estrategia, Workload carga, String tramo, long approved, long rejected, long busy, long failed,
               String failure, long finalStock, double seconds, double meanMs, double p99Ms, long waits, double waitMeanMicros,
               double waitMaxMs, long retries, Consistencia consistencia) {

  /**
   * Units that do not add up, per product: sold beyond the initial stock, below zero, approvals that did not
   * decrement (or decrements nobody was told of), and approvals missing while a definite answer was given with
   * stock left. A busy or failed request gave no definite answer, so it is not counted as missing.
   */
  record Consistencia(long oversold, long negative, long lostUpdates, long approvalsShort) {

    long total() {
      return oversold + negative + lostUpdates + approvalsShort;
    }

    static Consistencia of(Existencias existencias, Runner.Tally tally, int[] finals) {
      int products = existencias.productos();
      long[] approved = new long[products];
      long[] answered = new long[products];
      byte[] outcomes = tally.outcomes();
      for (int r = 0; r < outcomes.length; r++) {
        if (outcomes[r] == Runner.APROBADA) approved[r % products]++;
        if (outcomes[r] == Runner.APROBADA || outcomes[r] == Runner.RECHAZADA) answered[r % products]++;
      }
      Consistencia sum = new Consistencia(0, 0, 0, 0);
      for (int p = 0; p < products; p++) sum = sum.plus(of(existencias.inicial(p), approved[p], answered[p], finals[p]));
      return sum;
    }

    /** One product: {@code answered} requests got a definite approval or rejection. */
    static Consistencia of(long initial, long approved, long answered, long finalStock) {
      return new Consistencia(Math.max(0, approved - initial), Math.max(0, -finalStock), Math.abs(initial - finalStock - approved),
        Math.max(0, Math.min(initial, answered) - approved));
    }

    Consistencia plus(Consistencia o) {
      return new Consistencia(oversold + o.oversold, negative + o.negative, lostUpdates + o.lostUpdates, approvalsShort + o.approvalsShort);
    }

    String describe() {
      return String.format(Locale.ROOT, "%,d (oversold %,d, negative stock %,d, lost updates %,d, approvals short %,d)",
        total(), oversold, negative, lostUpdates, approvalsShort);
    }
  }

  static Outcome of(Catalogo estrategia, Workload carga, String tramo, Existencias existencias, Runner.Tally tally, int[] finals,
                    LockWait wait, long retries) {
    long[] sorted = tally.latenciesNanos().clone();
    Arrays.sort(sorted);
    double meanMs = Arrays.stream(sorted).average().orElse(0) / 1e6;
    double p99Ms = sorted.length == 0 ? 0 : sorted[(int) Math.ceil(0.99 * sorted.length) - 1] / 1e6;
    return new Outcome(estrategia, carga, tramo, tally.count(Runner.APROBADA), tally.count(Runner.RECHAZADA),
      tally.count(Runner.OCUPADA), tally.count(Runner.FALLIDA),
      tally.firstFailure() == null ? "" : String.valueOf(tally.firstFailure().getMessage()),
      Arrays.stream(finals).asLongStream().sum(), tally.seconds(), meanMs, p99Ms,
      wait.count(), wait.meanMicros(), wait.maxMillis(), retries, Consistencia.of(existencias, tally, finals));
  }

  double throughput() {
    return carga.requests() / seconds;
  }

  /** The reference's report block, plus the lock wait, tail latency and consistency it asks to measure. */
  String block() {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "Strategy: %s — %s%n", estrategia.clave, estrategia.descripcion));
    if (!tramo.isEmpty()) b.append("Bounded slice: ").append(tramo).append('\n');
    b.append(String.format(Locale.ROOT, "Requests: %,d (%d workers, %,d product%s, initial stock %,d)%n", carga.requests(),
      carga.workers(), carga.products(), carga.products() == 1 ? "" : "s", carga.stock()));
    b.append(String.format(Locale.ROOT, "Approved reservations: %,d%n", approved));
    b.append(String.format(Locale.ROOT, "Rejected reservations: %,d%n", rejected));
    if (busy > 0 || estrategia == Catalogo.CON_TIMEOUT) b.append(String.format(Locale.ROOT, "Busy errors (lock timeout): %,d%n", busy));
    if (failed > 0) b.append(String.format(Locale.ROOT, "Failed requests: %,d (first: %s)%n", failed, failure));
    b.append(String.format(Locale.ROOT, "Final inventory: %,d%n", finalStock));
    b.append(String.format(Locale.ROOT, "Execution time: %.4f seconds%n", seconds));
    b.append(String.format(Locale.ROOT, "Average latency: %.4f milliseconds, p99 latency: %.4f milliseconds%n", meanMs, p99Ms));
    b.append(String.format(Locale.ROOT, "Throughput: %,.2f operations/second%n", throughput()));
    b.append(waits == 0 ? "Lock wait: none (nothing to acquire)\n"
      : String.format(Locale.ROOT, "Lock wait: mean %.1f µs, max %.2f ms (%,d acquisitions)%n", waitMeanMicros, waitMaxMs, waits));
    if (retries > 0) b.append(String.format(Locale.ROOT, "Retries (lost races): %,d%n", retries));
    b.append("Consistency errors: ").append(consistencia.describe()).append('\n');
    return b.toString();
  }
}
