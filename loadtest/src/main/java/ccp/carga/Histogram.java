package ccp.carga;

import java.util.Locale;
import java.util.TreeMap;

/**
 * One Prometheus histogram of the system's {@code /metrics}, summed over every series of that name and over every
 * process scraped. What a run recorded is the difference of two scrapes; its quantiles are interpolated inside the
 * buckets as Prometheus' {@code histogram_quantile} does. The Gatling project ({@code loadtest/}) compiles this same
 * file, so the drivers and the load test read the ASR timers alike.
 */
public record Histogram(long count, double max, TreeMap<Double, Long> buckets) {

  /** The histogram {@code name} (e.g. {@code asr1_seconds}) in one scrape; all series of that name summed. */
  public static Histogram parse(String scrape, String name) {
    return parse(java.util.List.of(scrape), name);
  }

  /** The histogram {@code name} summed over several scrapes (several processes). */
  public static Histogram parse(Iterable<String> scrapes, String name) {
    long count = 0;
    double max = 0;
    TreeMap<Double, Long> buckets = new TreeMap<>();
    for (String scrape : scrapes) {
      for (String line : scrape.split("\n")) {
        if (!line.startsWith(name + "_") && !line.startsWith(name + "{")) continue;
        String[] parts = line.split(" ");
        double value = Double.parseDouble(parts[parts.length - 1]);
        if (line.startsWith(name + "_count")) {
          count += (long) value;
        } else if (line.startsWith(name + "_max")) {
          max = Math.max(max, value);
        } else if (line.startsWith(name + "_bucket")) {
          int at = line.indexOf("le=\"") + 4;
          String le = line.substring(at, line.indexOf('"', at));
          buckets.merge(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le), (long) value, Long::sum);
        }
      }
    }
    return new Histogram(count, max, buckets);
  }

  public long countSince(Histogram before) {
    return count - before.count;
  }

  /**
   * The q-quantile, in milliseconds, of what was recorded between {@code before} and this scrape; infinite when it
   * lies beyond the top finite bucket (nothing there to interpolate).
   */
  public double quantileMillisSince(Histogram before, double q) {
    long total = count - before.count;
    if (total <= 0) return 0;
    double rank = q * total;
    double lowerBound = 0;
    long lowerCount = 0;
    for (var bucket : buckets.entrySet()) {
      long cumulative = bucket.getValue() - before.buckets.getOrDefault(bucket.getKey(), 0L);
      if (cumulative >= rank) {
        if (bucket.getKey().isInfinite()) return Double.POSITIVE_INFINITY;
        long inBucket = cumulative - lowerCount;
        double interpolated = lowerBound + (bucket.getKey() - lowerBound) * (inBucket == 0 ? 1 : (rank - lowerCount) / inBucket);
        // In the top bucket the run reached, the largest observation bounds every quantile: interpolating as if the
        // bucket were filled evenly up to its bound would report a p99 above the maximum.
        boolean top = cumulative == total && max >= lowerBound;
        return 1000 * (top ? Math.min(interpolated, max) : interpolated);
      }
      lowerBound = bucket.getKey();
      lowerCount = cumulative;
    }
    return lowerBound * 1000;
  }

  /** {@code max} is the gauge of the scrape's recent window (Micrometer's), not of the run alone. */
  public String describeSince(Histogram before) {
    return String.format(Locale.ROOT, "p50 %s, p99 %s, max %.1f ms (n=%d)",
      millis(quantileMillisSince(before, 0.50)), millis(quantileMillisSince(before, 0.99)), max * 1000, countSince(before));
  }

  private String millis(double value) {
    if (!Double.isInfinite(value)) return String.format(Locale.ROOT, "%.1f ms", value);
    return String.format(Locale.ROOT, "> %.0f ms", 1000 * buckets.keySet().stream().filter(b -> !b.isInfinite()).reduce(0.0, Math::max));
  }
}
