package ccp.carga;

import ccp.platform.cli.Converters;
import ccp.platform.config.Settings;
import picocli.CommandLine.Option;

import java.net.URI;

/** The flags of a load that creates orders ({@code carga-pedidos}, {@code carga-sobrecarga}): where, and how many improper. */
final class OpcionesPedidos {

  @Option(names = "--improper", paramLabel = "<fraction>", defaultValue = "0.01", converter = Converters.Fraction.class,
    description = "share of orders by read-only actors, each one a write the Detector must react to (default: ${DEFAULT-VALUE})")
  double improper;

  @Option(names = "--gateway", paramLabel = "<url>", converter = Converters.HttpUrl.class,
    description = "the gateway, which takes the orders (default: http://127.0.0.1:<gateway.port>)")
  URI gateway;

  URI gateway(Settings settings) {
    return OpcionesCarga.orLocal(gateway, "--gateway", settings, "gateway.port", "");
  }
}
