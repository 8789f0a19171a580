package ccp.loadtest;

import ccp.carga.Histogram;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The ASR timers the system itself records ({@code asr1}, {@code asr2} on the management ports' {@code /metrics}),
 * read before and after a run and printed beside Gatling's figures: Gatling sees HTTP, the ASRs are what happens
 * after the answer (detection, reaction, notification).
 */
final class AsrReport {

  /** An ASR timer, its budget, and how many records this run should leave in it (successful triggering requests). */
  record Asr(String label, String metric, long budgetMillis, LongSupplier expected) {}

  private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
    .connectTimeout(Duration.ofSeconds(5)).build();
  private static final long WAIT_MILLIS = 30_000;

  private final List<String> metricsUrls;
  private final List<Asr> asrs;
  private Map<String, String> before;

  AsrReport(List<String> metricsUrls, List<Asr> asrs) {
    this.metricsUrls = metricsUrls;
    this.asrs = asrs;
  }

  void before() {
    before = scrape();
  }

  /** Waits (up to 30 s) until every expected record arrived, then prints each ASR's p50/p99 against its budget. */
  void after() {
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    Map<String, String> after = scrape();
    while (!complete(after) && System.currentTimeMillis() < deadline) {
      sleep();
      after = scrape();
    }
    StringBuilder out = new StringBuilder("\n---- ASR timers of the system (/metrics: ").append(metricsUrls).append(") ----\n");
    for (Asr asr : asrs) {
      Histogram start = Histogram.parse(bothTimes(before, after), asr.metric());
      Histogram end = Histogram.parse(bothTimes(after, before), asr.metric());
      double p99 = end.quantileMillisSince(start, 0.99);
      out.append(String.format(Locale.ROOT, "%-6s %s; expected %d; p99 %s its %d ms budget%n", asr.label(), end.describeSince(start),
        asr.expected().getAsLong(), end.countSince(start) == 0 ? "not measured against" : p99 <= asr.budgetMillis() ? "within" : "OVER",
        asr.budgetMillis()));
    }
    System.out.println(out);
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
    try {
      Thread.sleep(500);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
