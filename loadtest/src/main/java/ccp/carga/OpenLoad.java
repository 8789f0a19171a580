package ccp.carga;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.RequestOptions;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * An open-model load: requests start at a fixed rate whatever the answers do, so a slow system shows up as latency
 * and lower throughput instead of being hidden by a waiting client. Runs on one Vert.x context; its counters are
 * that context's own.
 */
final class OpenLoad {

  /** One request to start; {@code tag} counts its successes apart (e.g. "improper"). */
  record Shot(RequestOptions request, Buffer body, int expectedStatus, String tag) {}

  /**
   * @param latenciesMicros of the answers with the expected status
   * @param refusedMicros   of the 503 answers: overload refused at the door, which must come at once
   */
  record Result(long sent, long ok, Map<String, Long> okByTag, Map<String, Long> failures, double seconds, long[] latenciesMicros,
                long[] refusedMicros) {

    double perSecond() {
      return ok / seconds;
    }

    String latency() {
      return describe(latenciesMicros);
    }

    /** The refusals' count and latency, or "none". */
    String refused() {
      return refusedMicros.length == 0 ? "none" : refusedMicros.length + ", " + describe(refusedMicros);
    }

    /** Requests with no answer within {@link #TIMEOUT_MS}. */
    long timeouts() {
      return failures.getOrDefault(TIMEOUT, 0L);
    }

    private static String describe(long[] micros) {
      long[] sorted = micros.clone();
      Arrays.sort(sorted);
      return String.format(Locale.ROOT, "p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms",
        at(sorted, 0.50) / 1000.0, at(sorted, 0.95) / 1000.0, at(sorted, 0.99) / 1000.0, at(sorted, 1.0) / 1000.0);
    }

    private static long at(long[] sorted, double q) {
      if (sorted.length == 0) return 0;
      return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1))];
    }
  }

  private static final long TICK_MS = 5;
  /** A request unanswered this long counts as a client timeout (the servers' own request timeout is 10 s). */
  static final long TIMEOUT_MS = 15_000;
  private static final String TIMEOUT = "timeout";

  private final Vertx vertx;
  private final HttpClient http;
  private final int rate;
  private final int durationSeconds;
  private final Supplier<Shot> shots;
  private final long[] latencies;
  private final long[] refused;
  private int refusals;
  private final Map<String, Long> okByTag = new TreeMap<>();
  private final Map<String, Long> failures = new TreeMap<>();
  private long sent;
  private long ok;
  private int inFlight;
  private double credit;

  OpenLoad(Vertx vertx, HttpClient http, int rate, int durationSeconds, Supplier<Shot> shots) {
    this.vertx = vertx;
    this.http = http;
    this.rate = rate;
    this.durationSeconds = durationSeconds;
    this.shots = shots;
    this.latencies = new long[rate * durationSeconds + rate];
    this.refused = new long[latencies.length];
  }

  /** Must be called on the context that owns this load. Completes when the last answer is in. */
  Future<Result> run() {
    Promise<Result> finished = Promise.promise();
    long start = System.nanoTime();
    long end = start + TimeUnit.SECONDS.toNanos(durationSeconds);
    double perTick = rate * TICK_MS / 1000.0;
    vertx.setPeriodic(TICK_MS, timer -> {
      if (System.nanoTime() >= end) {
        vertx.cancelTimer(timer);
        drain(finished, start);
        return;
      }
      credit += perTick;
      while (credit >= 1) {
        credit -= 1;
        fire(shots.get());
      }
    });
    return finished.future();
  }

  /** The run lasts until its last answer: a system that queues requests does not get credit for them. */
  private void drain(Promise<Result> finished, long start) {
    if (inFlight > 0) {
      vertx.setTimer(10, x -> drain(finished, start));
      return;
    }
    finished.complete(new Result(sent, ok, okByTag, failures, (System.nanoTime() - start) / 1e9,
      Arrays.copyOf(latencies, (int) Math.min(ok, latencies.length)), Arrays.copyOf(refused, refusals)));
  }

  private void fire(Shot shot) {
    sent++;
    inFlight++;
    long began = System.nanoTime();
    http.request(new RequestOptions(shot.request()).setIdleTimeout(TIMEOUT_MS))
      .compose(req -> req.send(shot.body()))
      .compose(response -> response.body().map(ignored -> response.statusCode()))
      .onComplete(ar -> {
        inFlight--;
        long micros = (System.nanoTime() - began) / 1000;
        if (ar.succeeded() && ar.result() == shot.expectedStatus()) {
          if (ok < latencies.length) latencies[(int) ok] = micros;
          ok++;
          if (shot.tag() != null) okByTag.merge(shot.tag(), 1L, Long::sum);
        } else {
          if (ar.succeeded() && ar.result() == 503 && refusals < refused.length) refused[refusals++] = micros;
          failures.merge(ar.succeeded() ? "HTTP " + ar.result()
            : ar.cause() instanceof TimeoutException ? TIMEOUT : ar.cause().getClass().getSimpleName(), 1L, Long::sum);
        }
      });
  }
}
