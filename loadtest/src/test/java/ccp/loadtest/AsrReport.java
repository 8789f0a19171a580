package ccp.loadtest;

import ccp.carga.Histogram;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The ASR timers the system itself records ({@code asr1}, {@code asr2} on the management ports' {@code /metrics}),
 * read when the measured load starts and after the run, printed beside Gatling's figures and checked against their
 * targets: Gatling sees HTTP, the ASRs are what happens after the answer (detection, reaction, notification).
 */
final class AsrReport {

  /**
   * An ASR timer, its budget, the p99 the load test asks of it ({@code targetMillis}, at most the budget), and how many
   * records the measured load should leave in it (successful triggering requests).
   */
  record Asr(String label, String metric, long budgetMillis, long targetMillis, LongSupplier expected) {

    /** The same timer held to its budget alone, as under an overload. */
    Asr withinBudget() {
      return new Asr(label, metric, budgetMillis, budgetMillis, expected);
    }
  }

  /**
   * Fails the run, naming each target missed: Gatling's own assertions see only HTTP. Not by throwing, which would
   * end the run before Gatling writes its report and checks its own assertions: the simulation's JVM ends with status
   * 2 (Gatling's own for failed assertions) once they are done, and the Maven build fails on it.
   */
  static void require(List<String> missed) {
    if (missed.isEmpty()) return;
    String message = "targets missed: " + String.join("; ", missed);
    System.out.println(message);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println(message);
      System.out.flush();
      Runtime.getRuntime().halt(2);
    }, "targets-missed"));
  }

  private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
    .connectTimeout(Duration.ofSeconds(5)).build();
  private static final long WAIT_MILLIS = 30_000;

  private final List<String> metricsUrls;
  private final List<Asr> asrs;
  /** Written by the reader at the warm-up's end ({@link #desde}), read when the run ends. */
  private volatile Map<String, String> before;

  private final long waitMillis;

  AsrReport(List<String> metricsUrls, List<Asr> asrs) {
    this(metricsUrls, asrs, WAIT_MILLIS);
  }

  /** {@code waitMillis}: how long after the run the records still missing are waited for. */
  AsrReport(List<String> metricsUrls, List<Asr> asrs, long waitMillis) {
    this.metricsUrls = metricsUrls;
    this.asrs = asrs;
    this.waitMillis = waitMillis;
  }

  void before() {
    before = scrape();
  }

  /**
   * Reads the timers again {@code seconds} from now, when the warm-up ends, and then runs {@code measured}, which
   * starts the measured load: its records all come after that reading, whatever the reading took.
   */
  void desde(int seconds, Runnable measured) {
    Thread reader = new Thread(() -> {
      sleep(TimeUnit.SECONDS.toMillis(seconds));
      before = scrape();
      measured.run();
    }, "asr-report");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Waits (up to 30 s, unless told otherwise) until every expected record arrived, then prints each ASR's p50/p99
   * against its budget and target; returns what missed: a p99 over its target, or records that never came.
   */
  List<String> after() {
    long deadline = System.currentTimeMillis() + waitMillis;
    Map<String, String> after = scrape();
    while (!complete(after) && System.currentTimeMillis() < deadline) {
      sleep();
      after = scrape();
    }
    StringBuilder out = new StringBuilder("\n---- ASR timers of the system (/metrics: ").append(metricsUrls).append(") ----\n");
    List<String> missed = new ArrayList<>();
    for (Asr asr : asrs) {
      Histogram start = Histogram.parse(bothTimes(before, after), asr.metric());
      Histogram end = Histogram.parse(bothTimes(after, before), asr.metric());
      double p99 = end.quantileMillisSince(start, 0.99);
      long count = end.countSince(start);
      long expected = asr.expected().getAsLong();
      out.append(String.format(Locale.ROOT, "%-6s %s; expected %d; p99 %s its %d ms target (budget %d ms)%n", asr.label(),
        end.describeSince(start), expected, count == 0 ? "not measured against" : p99 <= asr.targetMillis() ? "within" : "OVER",
        asr.targetMillis(), asr.budgetMillis()));
      if (count > 0 && p99 > asr.targetMillis()) {
        missed.add(String.format(Locale.ROOT, "%s p99 %.1f ms over its %d ms target", asr.label(), p99, asr.targetMillis()));
      }
      if (count < expected) {
        missed.add(asr.label() + ": " + count + " records of " + expected + " expected within " + waitMillis / 1000 + " s of the end");
      }
    }
    System.out.println(out);
    return missed;
  }

  private boolean complete(Map<String, String> after) {
    return asrs.stream().allMatch(a -> Histogram.parse(bothTimes(after, before), a.metric())
      .countSince(Histogram.parse(bothTimes(before, after), a.metric())) >= a.expected().getAsLong());
  }

  /** The scrapes of {@code these} whose process answered {@code other} time too: a difference needs both ends. */
  private static List<String> bothTimes(Map<String, String> these, Map<String, String> other) {
    return these.entrySet().stream().filter(e -> other.containsKey(e.getKey())).map(Map.Entry::getValue).toList();
  }

  /** A process that does not answer (stopped on purpose, say) is left out and named; the others still count. */
  private Map<String, String> scrape() {
    Map<String, String> texts = new LinkedHashMap<>();
    for (String url : metricsUrls) {
      try {
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
        texts.put(url, response.body());
      } catch (Exception e) {
        System.out.println("ASR report: " + url + " did not answer (" + e + "); left out");
      }
    }
    return texts;
  }

  private static void sleep() {
    sleep(500);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
