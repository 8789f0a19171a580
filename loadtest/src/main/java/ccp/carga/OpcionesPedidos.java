package ccp.carga;

import ccp.platform.cli.Converters;
import ccp.platform.config.Settings;
import picocli.CommandLine.Option;

import java.net.URI;
import java.util.List;

/** The flags of a load that creates orders ({@code carga-pedidos}, {@code carga-sobrecarga}): where, and how many improper. */
final class OpcionesPedidos {

  @Option(names = "--improper", paramLabel = "<fraction>", defaultValue = "0.01", converter = Converters.Fraction.class,
    description = "share of orders by read-only actors, each one a write the Detector must react to (default: ${DEFAULT-VALUE})")
  double improper;

  @Option(names = "--gateway", paramLabel = "<url>", split = ",", converter = Converters.HttpUrl.class,
    description = "the gateways, which take the orders, comma-separated, the requests spread round-robin "
      + "(default: http://127.0.0.1:<gateway.port>)")
  List<URI> gateway;

  List<URI> gateway(Settings settings) {
    return OpcionesCarga.orLocal(gateway, "--gateway", settings, "gateway.port", "");
  }
}
