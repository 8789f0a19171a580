package ccp.carga;

import ccp.platform.cli.Converters;
import ccp.platform.config.Settings;
import picocli.CommandLine.Option;

import java.net.URI;

/** The flags of a load that opens sessions ({@code carga-sesiones}, {@code carga-sobrecarga}): where, and how many strangers. */
final class OpcionesSesiones {

  @Option(names = "--unknown", paramLabel = "<fraction>", defaultValue = "0.10", converter = Converters.Fraction.class,
    description = "share of sessions from an unregistered device, each one an alert (default: ${DEFAULT-VALUE})")
  double unknown;

  @Option(names = "--gestor", paramLabel = "<url>", converter = Converters.HttpUrl.class,
    description = "the Gestor, which opens the sessions (default: http://127.0.0.1:<gestor.port>)")
  URI gestor;

  @Option(names = "--seguridad", paramLabel = "<url>", converter = Converters.HttpUrl.class,
    description = "Seguridad, which registers the devices (default: http://127.0.0.1:<seguridad.port>)")
  URI seguridad;

  URI gestor(Settings settings) {
    return OpcionesCarga.orLocal(gestor, "--gestor", settings, "gestor.port", "");
  }

  URI seguridad(Settings settings) {
    return OpcionesCarga.orLocal(seguridad, "--seguridad", settings, "seguridad.port", "");
  }
}
