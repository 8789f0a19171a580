package ccp.platform.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.net.URI;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The types of the commands' flags, each checked as picocli reads it: a bad value is a usage error that names its
 * flag (exit 2, see {@link Cli}), before anything starts.
 */
public final class Converters {

  private Converters() {}

  /** A rate, a duration, a count or a budget: zero would make a run that measures nothing. */
  public static final class PositiveInt implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String raw) {
      return checked(raw, Integer::valueOf, n -> n > 0, "a positive integer");
    }
  }

  /** A share of the requests. */
  public static final class Fraction implements ITypeConverter<Double> {
    @Override
    public Double convert(String raw) {
      return checked(raw, Double::valueOf, f -> f >= 0 && f <= 1, "a fraction from 0 to 1");
    }
  }

  /** An absolute URL with an explicit port: the hot path's requests are built from its host and port. */
  public static final class HttpUrl implements ITypeConverter<URI> {
    @Override
    public URI convert(String raw) {
      return checked(raw, URI::create, uri -> uri.getHost() != null && uri.getPort() > 0, "a URL with host and port");
    }
  }

  /** Simulated slow work; fractions of a millisecond are allowed, a minute is plenty. */
  public static final class Millis implements ITypeConverter<Double> {
    @Override
    public Double convert(String raw) {
      return checked(raw, Double::valueOf, ms -> ms >= 0 && ms <= 60_000, "milliseconds from 0 to 60000");
    }
  }

  /** {@code raw} parsed and valid, else the usage error {@code '<raw>' must be <expected>}. */
  public static <T> T checked(String raw, Function<String, T> parse, Predicate<T> valid, String expected) {
    try {
      T value = parse.apply(raw.trim());
      if (valid.test(value)) return value;
    } catch (IllegalArgumentException ignored) {
      // reported below
    }
    throw new TypeConversionException("'" + raw + "' must be " + expected);
  }
}
