package ccp.carga;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * An open-model load: requests start at a fixed rate whatever the answers do, so a slow system shows up as latency
 * and lower throughput instead of being hidden by a waiting client. The rate may change from one phase to the next (an
 * overload, then the normal rate). Every answer is kept with the second its request started in, so that a part of the
 * run can be read apart ({@link Result#window}). Runs on one Vert.x context; its counters are that context's own.
 */
final class OpenLoad {

  /** One request to start; {@code tag} counts its successes apart (e.g. "improper"). */
  record Shot(RequestOptions request, Buffer body, int expectedStatus, String tag) {}

  /** {@code rate} requests started per second for {@code seconds}. */
  record Phase(int rate, int seconds) {}

  private static final byte OK = 0;
  private static final byte REFUSED = 1;
  private static final byte TIMED_OUT = 2;
  private static final byte FAILED = 3;

  /** What the requests started within some seconds of the run got. */
  record Window(long sent, long ok, long[] latenciesMicros, long[] refusedMicros, long timeouts, long otherFailures) {

    String latency() {
      return describe(latenciesMicros);
    }

    /** The refusals' count and latency, or "none". */
    String refused() {
      return refusedMicros.length == 0 ? "none" : refusedMicros.length + ", " + describe(refusedMicros);
    }

    /** The q-quantile of the accepted answers' latency, in microseconds (0 if none). */
    long acceptedMicros(double q) {
      return quantile(latenciesMicros, q);
    }

    long refusedMicros(double q) {
      return quantile(refusedMicros, q);
    }
  }

  /**
   * The whole run: {@code sent} and {@code ok} over all of it, the failures by kind; {@code second}, {@code micros}
   * and {@code kind} hold each answer, in the order they came.
   */
  record Result(long sent, long ok, Map<String, Long> okByTag, Map<String, Long> failures, double seconds, int answers,
                int[] second, long[] micros, byte[] kind) {

    double perSecond() {
      return ok / seconds;
    }

    private Window all() {
      return window(0, Integer.MAX_VALUE);
    }

    long[] latenciesMicros() {
      return all().latenciesMicros();
    }

    long[] refusedMicros() {
      return all().refusedMicros();
    }

    String latency() {
      return all().latency();
    }

    String refused() {
      return all().refused();
    }

    /** Requests with no answer within {@link #TIMEOUT_MS}. */
    long timeouts() {
      return failures.getOrDefault(TIMEOUT, 0L);
    }

    /** Loads that ran side by side, as one: their answers together, counted from their common start. */
    static Result merge(List<Result> parts) {
      if (parts.size() == 1) return parts.get(0);
      Map<String, Long> okByTag = new TreeMap<>();
      Map<String, Long> failures = new TreeMap<>();
      int answers = parts.stream().mapToInt(Result::answers).sum();
      int[] second = new int[answers];
      long[] micros = new long[answers];
      byte[] kind = new byte[answers];
      int at = 0;
      for (Result part : parts) {
        part.okByTag().forEach((k, v) -> okByTag.merge(k, v, Long::sum));
        part.failures().forEach((k, v) -> failures.merge(k, v, Long::sum));
        System.arraycopy(part.second(), 0, second, at, part.answers());
        System.arraycopy(part.micros(), 0, micros, at, part.answers());
        System.arraycopy(part.kind(), 0, kind, at, part.answers());
        at += part.answers();
      }
      return new Result(parts.stream().mapToLong(Result::sent).sum(), parts.stream().mapToLong(Result::ok).sum(), okByTag,
        failures, parts.stream().mapToDouble(Result::seconds).max().orElse(0), answers, second, micros, kind);
    }

    /** The requests started from second {@code from} (inclusive) to {@code to} (exclusive) of the run. */
    Window window(int from, int to) {
      long[] accepted = new long[answers];
      long[] refused = new long[answers];
      int nAccepted = 0;
      int nRefused = 0;
      long timeouts = 0;
      long other = 0;
      for (int i = 0; i < answers; i++) {
        if (second[i] < from || second[i] >= to) continue;
        switch (kind[i]) {
          case OK -> accepted[nAccepted++] = micros[i];
          case REFUSED -> refused[nRefused++] = micros[i];
          case TIMED_OUT -> timeouts++;
          default -> other++;
        }
      }
      return new Window(nAccepted + nRefused + timeouts + other, nAccepted, Arrays.copyOf(accepted, nAccepted),
        Arrays.copyOf(refused, nRefused), timeouts, other);
    }

    /**
     * How many seconds after second {@code from} the run was back to normal for good: the first second from which every
     * later second had no refusal and no failure, and its accepted answers' p99 within {@code p99Micros}; -1 if its
     * last second was not normal yet.
     */
    int normalAfter(int from, long p99Micros) {
      int last = Arrays.stream(second, 0, answers).max().orElse(from - 1);
      int normalSince = -1;
      for (int s = last; s >= from; s--) {
        Window w = window(s, s + 1);
        boolean normal = w.refusedMicros().length == 0 && w.timeouts() == 0 && w.otherFailures() == 0
          && w.acceptedMicros(0.99) <= p99Micros;
        if (!normal) break;
        normalSince = s;
      }
      return normalSince < 0 ? -1 : normalSince - from;
    }
  }

  private static final long TICK_MS = 5;
  /** A request unanswered this long counts as a client timeout (the servers' own request timeout is 10 s). */
  static final long TIMEOUT_MS = 15_000;
  private static final String TIMEOUT = "timeout";

  private final Vertx vertx;
  private final HttpClient http;
  private final List<Phase> phases;
  private final Supplier<Shot> shots;
  private final int[] second;
  private final long[] micros;
  private final byte[] kind;
  private int answers;
  private final Map<String, Long> okByTag = new TreeMap<>();
  private final Map<String, Long> failures = new TreeMap<>();
  private long sent;
  private long ok;
  private int inFlight;
  private double credit;

  OpenLoad(Vertx vertx, HttpClient http, int rate, int durationSeconds, Supplier<Shot> shots) {
    this(vertx, http, List.of(new Phase(rate, durationSeconds)), shots);
  }

  OpenLoad(Vertx vertx, HttpClient http, List<Phase> phases, Supplier<Shot> shots) {
    this.vertx = vertx;
    this.http = http;
    this.phases = List.copyOf(phases);
    this.shots = shots;
    int capacity = phases.stream().mapToInt(p -> p.rate() * p.seconds() + p.rate()).sum();
    this.second = new int[capacity];
    this.micros = new long[capacity];
    this.kind = new byte[capacity];
  }

  /** Must be called on the context that owns this load. Completes when the last answer is in. */
  Future<Result> run() {
    Promise<Result> finished = Promise.promise();
    long start = System.nanoTime();
    long end = start + TimeUnit.SECONDS.toNanos(phases.stream().mapToLong(Phase::seconds).sum());
    long[] last = {start};
    vertx.setPeriodic(TICK_MS, timer -> {
      long now = System.nanoTime();
      if (now >= end) {
        vertx.cancelTimer(timer);
        drain(finished, start);
        return;
      }
      // By the time elapsed, not by ticks: a timer that fires late on a busy machine still starts every request due,
      // each counted in the second it was due in.
      while (last[0] < now) {
        int at = (int) TimeUnit.NANOSECONDS.toSeconds(last[0] - start);
        long until = Math.min(now, start + TimeUnit.SECONDS.toNanos(at + 1L));
        credit += rateAt(at) * (until - last[0]) / 1e9;
        last[0] = until;
        while (credit >= 1) {
          credit -= 1;
          fire(shots.get(), at);
        }
      }
    });
    return finished.future();
  }

  private int rateAt(int second) {
    int from = 0;
    for (Phase phase : phases) {
      if (second < from + phase.seconds()) return phase.rate();
      from += phase.seconds();
    }
    return 0;
  }

  /** The run lasts until its last answer: a system that queues requests does not get credit for them. */
  private void drain(Promise<Result> finished, long start) {
    if (inFlight > 0) {
      vertx.setTimer(10, x -> drain(finished, start));
      return;
    }
    finished.complete(new Result(sent, ok, okByTag, failures, (System.nanoTime() - start) / 1e9, answers, second, micros, kind));
  }

  private void fire(Shot shot, int startedIn) {
    sent++;
    inFlight++;
    long began = System.nanoTime();
    http.request(new RequestOptions(shot.request()).setIdleTimeout(TIMEOUT_MS))
      .compose(req -> req.send(shot.body()))
      .compose(response -> response.body().map(ignored -> response.statusCode()))
      .onComplete(ar -> {
        inFlight--;
        boolean accepted = ar.succeeded() && ar.result() == shot.expectedStatus();
        boolean timedOut = ar.failed() && ar.cause() instanceof TimeoutException;
        if (accepted) {
          ok++;
          if (shot.tag() != null) okByTag.merge(shot.tag(), 1L, Long::sum);
        } else {
          failures.merge(ar.succeeded() ? "HTTP " + ar.result() : timedOut ? TIMEOUT : ar.cause().getClass().getSimpleName(),
            1L, Long::sum);
        }
        if (answers < second.length) {
          second[answers] = startedIn;
          micros[answers] = (System.nanoTime() - began) / 1000;
          kind[answers++] = accepted ? OK : ar.succeeded() && ar.result() == 503 ? REFUSED : timedOut ? TIMED_OUT : FAILED;
        }
      });
  }

  private static String describe(long[] micros) {
    return String.format(Locale.ROOT, "p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms",
      quantile(micros, 0.50) / 1000.0, quantile(micros, 0.95) / 1000.0, quantile(micros, 0.99) / 1000.0,
      quantile(micros, 1.0) / 1000.0);
  }

  private static long quantile(long[] micros, double q) {
    if (micros.length == 0) return 0;
    long[] sorted = micros.clone();
    Arrays.sort(sorted);
    return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1))];
  }

  /** One request's options for each target ({@code http://host:port}), JSON, the same method and path. */
  static List<RequestOptions> toEach(List<URI> targets, HttpMethod method, String path) {
    return targets.stream().map(target -> new RequestOptions().setMethod(method).setHost(target.getHost())
      .setPort(target.getPort()).setURI(path).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")).toList();
  }
}
