package ccp.carga;

import ccp.carga.suelo.ProcesoSuelo;
import ccp.platform.cli.ConfOption;
import ccp.platform.cli.Converters;
import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import ccp.platform.infra.DevIssuer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.ext.web.client.WebClient;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The flags every load command takes, and the run they share: the settings of {@code --conf}, one Vert.x and token
 * minter (the development issuer of the data directory, as the {@code token} command), the command's load, and its
 * report printed. A command declares only its own flags and what it sends.
 */
final class OpcionesCarga {

  /** Where the all-in-one's embedded PostgreSQL writes its postmaster's pid (first line) and port (fourth). */
  static final String POSTMASTER_PID = "postgres/data/postmaster.pid";

  /** A command's load: prepared on the calling thread (tokens, bodies), then started on the run's one context. */
  interface Carga {
    Supplier<Future<Informe>> prepare(Corrida corrida);
  }

  /** The same load against the floor's server, at {@code floor}. */
  interface CargaSuelo {
    Supplier<Future<Informe>> prepare(Corrida corrida, URI floor);
  }

  @Option(names = "--duration", paramLabel = "<seconds>", defaultValue = "60", converter = Converters.PositiveInt.class,
    description = "how long to send (default: ${DEFAULT-VALUE})")
  int duration;

  @Option(names = "--vendedores", paramLabel = "<n>", defaultValue = "1000", converter = Converters.PositiveInt.class,
    description = "vendedores the requests rotate over, each with its own token (default: ${DEFAULT-VALUE})")
  int vendedores;

  @Option(names = "--connections", paramLabel = "<n>", defaultValue = "64", converter = Converters.PositiveInt.class,
    description = "HTTP connections to the target, and set-up requests in flight (default: ${DEFAULT-VALUE})")
  int connections;

  @Option(names = "--metrics", paramLabel = "<url>", split = ",", converter = Converters.HttpUrl.class,
    description = "the Prometheus texts with the ASR histograms and the CPU, comma-separated: every process that records "
      + "them, summed (default: http://127.0.0.1:<management.port>/metrics)")
  List<URI> metrics;

  @Mixin
  ConfOption conf;

  Settings settings() throws Exception {
    return conf.settings();
  }

  /**
   * The URL given with {@code option}, else this machine at the configured port. A configured 0 means a port chosen
   * when the system starts, which the driver cannot know.
   */
  static List<URI> orLocal(List<URI> given, String option, Settings settings, String port, String path) {
    if (given != null && !given.isEmpty()) return given;
    int configured = settings.integer(port);
    if (configured == 0) throw new ConfigException(option + " is needed: " + port + " is 0 (a port chosen at start-up)");
    return List.of(URI.create("http://127.0.0.1:" + configured + path));
  }

  /** Runs {@code carga} to the end and prints its report; a bad configuration fails before anything is sent. */
  Informe run(Settings settings, Carga carga) {
    return run(settings, carga, duration + 120L);
  }

  /** The same, for a load that lasts longer than {@code --duration}: its report awaited {@code waitSeconds} at most. */
  Informe run(Settings settings, Carga carga, long waitSeconds) {
    List<URI> scraped = orLocal(metrics, "--metrics", settings, "management.port", "/metrics");
    return run(settings, carga, waitSeconds, scraped, settings.dataDir().resolve(POSTMASTER_PID), OptionalLong.empty());
  }

  /**
   * With {@code --floor}: right after the system's run, the same load against the floor of {@code camino} ("sesiones"
   * or "pedidos", {@link ProcesoSuelo}), its report, and last the ratio of ours to it.
   */
  void againstFloor(Settings settings, String camino, Informe nuestro, CargaSuelo carga) throws Exception {
    try (ProcesoSuelo suelo = ProcesoSuelo.start(camino, conf.file(), vendedores)) {
      Informe delSuelo = run(settings, corrida -> carga.prepare(corrida, suelo.uri()), duration + 120L, List.of(),
        suelo.postmasterPid(), OptionalLong.of(suelo.pid()));
      System.out.println(Informe.ratio(nuestro, delSuelo));
    }
  }

  private Informe run(Settings settings, Carga carga, long waitSeconds, List<URI> scraped, Path postmasterPid, OptionalLong pid) {
    // The driver shares the machine's cores with the system: the epoll transport spends fewer of them on each request.
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(settings.flag("vertx.native-transport")));
    try {
      Corrida corrida = new Corrida(vertx, DevIssuer.open(vertx, settings), WebClient.create(vertx), scraped, postmasterPid, pid, this);
      Supplier<Future<Informe>> start = carga.prepare(corrida);
      Promise<Informe> report = Promise.promise();
      vertx.runOnContext(x -> start.get().onComplete(report));
      Informe informe = report.future().await(waitSeconds, TimeUnit.SECONDS);
      System.out.println(informe.texto());
      return informe;
    } catch (Exception e) {
      throw new IllegalStateException("load run failed: " + e.getMessage(), e);
    } finally {
      vertx.close();
    }
  }
}
