package ccp.lab;

import ccp.platform.cli.ConfOption;
import ccp.platform.cli.Converters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/**
 * {@code lab-instancia}: the child JVM of {@link DosInstancias}, which starts it with these options and talks to it
 * on stdin and stdout. Hidden: it is half of a measurement, not a command to type.
 */
@Command(name = DosInstancias.COMANDO, hidden = true, mixinStandardHelpOptions = true,
  description = "The lab's second JVM on one PostgreSQL stock (started by lab).")
public final class LabInstancia implements Callable<Integer> {

  @Option(names = "--variante", paramLabel = "lock-local|atomica", defaultValue = "atomica", converter = Opciones.VariantePorClave.class,
    description = "how this JVM reserves (default: ${DEFAULT-VALUE})")
  DosInstancias.Variante variante;

  @Option(names = "--producto", paramLabel = "<id>", required = true, description = "the product both JVMs reserve")
  String producto;

  @Option(names = "--requests", paramLabel = "<n>", defaultValue = "2500", converter = Converters.PositiveInt.class,
    description = "this JVM's reservations (default: ${DEFAULT-VALUE})")
  int requests;

  @Option(names = "--workers", paramLabel = "<threads>", defaultValue = "50", converter = Converters.PositiveInt.class,
    description = "worker threads (default: ${DEFAULT-VALUE})")
  int workers;

  @Option(names = "--slow-ms", paramLabel = "<ms>", defaultValue = "0", converter = Converters.Millis.class,
    description = "slow work after each reservation (default: ${DEFAULT-VALUE})")
  double slowMs;

  @Mixin
  ConfOption conf;

  @Override
  public Integer call() throws Exception {
    DosInstancias.instancia(conf.settings(), variante, producto, requests, workers, new TrabajoLento(slowMs, 0, 0, 0, 0));
    return 0;
  }
}
