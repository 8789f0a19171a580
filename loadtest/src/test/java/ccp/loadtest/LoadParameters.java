package ccp.loadtest;

import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The run's system properties ({@code mvn gatling:test -Dname=value}): where the system is, how hard and how long to
 * push, and the development issuer's key the tokens are signed with (read from the system's data directory).
 */
record LoadParameters(List<String> baseUrls, List<String> metricsUrls, double rate, int durationSeconds,
                      int vendedores, double unknown, double improper, JsonObject issuerKey) {

  /** {@code -Drate}, else {@code ratio} times {@code -Dfloor} (the floor's rate measured beside; ratio 0: not used), else {@code defaultRate}. */
  static LoadParameters read(double defaultRate, double ratio) {
    double floor = number("floor", 0);
    return new LoadParameters(
      list("baseUrls", "http://127.0.0.1:8080"),
      list("metricsUrls", "http://127.0.0.1:9090/metrics"),
      number("rate", floor > 0 && ratio > 0 ? Math.round(ratio * floor) : defaultRate),
      (int) number("duration", 60),
      (int) number("vendedores", 1000),
      number("unknown", 0.10),
      number("improper", 0.01),
      readIssuerKey());
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

  /** The private JWK of the development issuer the system trusts, {@code -DissuerKey} (default: the repository's data directory). */
  private static JsonObject readIssuerKey() {
    Path file = Path.of(System.getProperty("issuerKey", "../.ccp-data/dev-issuer.jwk"));
    try {
      return new JsonObject(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the development issuer's key " + file.toAbsolutePath()
        + ": start the system once from the repository root, or pass -DissuerKey=<data dir>/dev-issuer.jwk", e);
    }
  }

  String describe() {
    return String.format(java.util.Locale.ROOT, "%.0f/s for %d s against %s", rate, durationSeconds, baseUrls);
  }
}
