package ccp.carga;

import ccp.platform.cli.Converters;
import ccp.platform.config.Settings;
import picocli.CommandLine.Option;

import java.net.URI;
import java.util.List;

/** The flags of a load that opens sessions ({@code carga-sesiones}, {@code carga-sobrecarga}): where, and how many strangers. */
final class OpcionesSesiones {

  @Option(names = "--unknown", paramLabel = "<fraction>", defaultValue = "0.10", converter = Converters.Fraction.class,
    description = "share of sessions from an unregistered device, each one an alert (default: ${DEFAULT-VALUE})")
  double unknown;

  @Option(names = "--gestor", paramLabel = "<url>", split = ",", converter = Converters.HttpUrl.class,
    description = "where the sessions are opened: the Gestor, or gateways, comma-separated, the requests spread round-robin "
      + "(default: http://127.0.0.1:<gestor.port>)")
  List<URI> gestor;

  @Option(names = "--seguridad", paramLabel = "<url>", converter = Converters.HttpUrl.class,
    description = "Seguridad, which registers the devices (default: http://127.0.0.1:<seguridad.port>)")
  URI seguridad;

  List<URI> gestor(Settings settings) {
    return OpcionesCarga.orLocal(gestor, "--gestor", settings, "gestor.port", "");
  }

  URI seguridad(Settings settings) {
    return OpcionesCarga.orLocal(seguridad == null ? null : List.of(seguridad), "--seguridad", settings, "seguridad.port", "").get(0);
  }
}
