package ccp.lab;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.Iterator;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The types of the lab's options, each checked as picocli reads it: a bad value is a usage error that names its
 * option (exit 2), before any server starts.
 */
final class Opciones {

  private Opciones() {}

  /** A count, a patience or a budget: zero would make a run that measures nothing. */
  static final class Positivo implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String raw) {
      return comprobado(raw, Integer::valueOf, n -> n > 0, "a positive integer");
    }
  }

  /** Simulated slow work; fractions of a millisecond are allowed, a minute is plenty. */
  static final class Milisegundos implements ITypeConverter<Double> {
    @Override
    public Double convert(String raw) {
      return comprobado(raw, Double::valueOf, ms -> ms >= 0 && ms <= 60_000, "milliseconds from 0 to 60000");
    }
  }

  /** A strategy by the name the report gives it. */
  static final class PorClave implements ITypeConverter<Catalogo> {
    @Override
    public Catalogo convert(String raw) {
      return comprobado(raw, Catalogo::porClave, Objects::nonNull, "one of " + Catalogo.claves());
    }
  }

  /** The strategies' names, for the help. */
  static final class Claves implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Catalogo.claves().iterator();
    }
  }

  /** How the child JVM of {@link DosInstancias} reserves. */
  static final class VariantePorClave implements ITypeConverter<DosInstancias.Variante> {
    @Override
    public DosInstancias.Variante convert(String raw) {
      return comprobado(raw, DosInstancias.Variante::porClave, Objects::nonNull, "lock-local or atomica");
    }
  }

  private static <T> T comprobado(String raw, Function<String, T> parse, Predicate<T> valid, String expected) {
    try {
      T value = parse.apply(raw.trim());
      if (valid.test(value)) return value;
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new TypeConversionException("'" + raw + "' must be " + expected);
  }
}
