package ccp.loadtest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The run's system properties ({@code mvn gatling:test -Dname=value}): where the system is, how hard and how long to
 * push, and the development JWT key the system signs with (read from its data directory).
 */
record LoadParameters(List<String> baseUrls, List<String> metricsUrls, double rate, int durationSeconds,
                      int vendedores, double unknown, double improper, String jwtSecret) {

  static LoadParameters read(double defaultRate) {
    return new LoadParameters(
      list("baseUrls", "http://127.0.0.1:8080"),
      list("metricsUrls", "http://127.0.0.1:9090/metrics"),
      number("rate", defaultRate),
      (int) number("duration", 60),
      (int) number("vendedores", 1000),
      number("unknown", 0.10),
      number("improper", 0.01),
      secret());
  }

  private static List<String> list(String name, String fallback) {
    return Arrays.stream(System.getProperty(name, fallback).split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  private static double number(String name, double fallback) {
    String raw = System.getProperty(name);
    if (raw == null || raw.isBlank()) return fallback;
    try {
      return Double.parseDouble(raw.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("-D" + name + "='" + raw + "' is not a number", e);
    }
  }

  /** {@code CCP_JWT_SECRET} as the system has it, else the development key the system generated in its data directory. */
  private static String secret() {
    String configured = System.getenv("CCP_JWT_SECRET");
    if (configured != null && !configured.isBlank()) return configured;
    Path file = Path.of(System.getProperty("secretFile", "../.ccp-data/dev-jwt-secret"));
    try {
      return Files.readString(file, StandardCharsets.US_ASCII).trim();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the development JWT key " + file.toAbsolutePath()
        + ": start the system once from the repository root, or pass -DsecretFile=<data dir>/dev-jwt-secret", e);
    }
  }

  String describe() {
    return String.format(java.util.Locale.ROOT, "%.0f/s for %d s against %s", rate, durationSeconds, baseUrls);
  }
}
