package ccp.lab;

import ccp.platform.cli.Converters;
import picocli.CommandLine.ITypeConverter;

import java.util.Iterator;
import java.util.Objects;

/**
 * The lab's own option types (counts and milliseconds are {@link Converters}'), each checked as picocli reads it: a
 * bad value is a usage error that names its option (exit 2), before any server starts.
 */
final class Opciones {

  private Opciones() {}

  /** A strategy by the name the report gives it. */
  static final class PorClave implements ITypeConverter<Catalogo> {
    @Override
    public Catalogo convert(String raw) {
      return Converters.checked(raw, Catalogo::porClave, Objects::nonNull, "one of " + Catalogo.claves());
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
      return Converters.checked(raw, DosInstancias.Variante::porClave, Objects::nonNull, "lock-local or atomica");
    }
  }
}
