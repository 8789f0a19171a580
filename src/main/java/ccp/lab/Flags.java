package ccp.lab;

import ccp.Main;
import ccp.platform.config.ConfigException;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** The lab's flags, each checked as it is read: a bad one is a {@link ConfigException} that names it (exit 2). */
final class Flags {

  private final Main.Arguments arguments;

  Flags(Main.Arguments arguments) {
    this.arguments = arguments;
  }

  int positive(String name, int fallback) {
    return parse(name, String.valueOf(fallback), Integer::valueOf, v -> v > 0, "a positive integer");
  }

  double millis(String name, double fallback) {
    return parse(name, String.valueOf(fallback), Double::valueOf, v -> v >= 0 && v <= 60_000, "milliseconds from 0 to 60000");
  }

  boolean bool(String name, boolean fallback) {
    String raw = arguments.flag(name, String.valueOf(fallback));
    if (!raw.equals("true") && !raw.equals("false")) throw bad(name, raw, "true or false");
    return Boolean.parseBoolean(raw);
  }

  String text(String name, String fallback) {
    String raw = arguments.flag(name, fallback);
    if (raw.isBlank()) throw bad(name, raw, "a value");
    return raw;
  }

  /** A comma-separated list, each item parsed and checked; {@code none} is the empty list when allowed. */
  <T> List<T> list(String name, String fallback, Function<String, T> item, String expected) {
    String raw = arguments.flag(name, fallback);
    List<T> items = new ArrayList<>();
    if (raw.equals("none")) return items;
    for (String part : raw.split(",", -1)) {
      T value;
      try {
        value = item.apply(part.trim());
      } catch (RuntimeException e) {
        throw bad(name, raw, expected);
      }
      if (value == null) throw bad(name, raw, expected);
      items.add(value);
    }
    return items;
  }

  private <T> T parse(String name, String fallback, Function<String, T> parser, java.util.function.Predicate<T> valid, String expected) {
    String raw = arguments.flag(name, fallback);
    try {
      T value = parser.apply(raw.trim());
      if (valid.test(value)) return value;
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw bad(name, raw, expected);
  }

  private static ConfigException bad(String name, String raw, String expected) {
    return new ConfigException("--" + name + "='" + raw + "' is invalid (expected " + expected + ")");
  }
}
