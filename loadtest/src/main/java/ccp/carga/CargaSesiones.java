package ccp.carga;

import ccp.carga.flota.Flota;
import ccp.platform.cli.Converters;
import ccp.platform.config.Settings;
import ccp.platform.infra.DevIssuer;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * {@code carga-sesiones}: opens sessions at a fixed rate for a fixed time, a share of them from devices the vendedor
 * never registered, and prints sessions/s, HTTP latency, and ASR-1 (t0 → notified) from the system's {@code asr1}.
 */
@Command(name = "carga-sesiones", mixinStandardHelpOptions = true,
  description = "Open sessions at a fixed rate, a share from unknown devices, and report ASR-1.")
public final class CargaSesiones implements Callable<Integer> {

  private static final String UNKNOWN_DEVICE = "unknown device";

  @Mixin
  OpcionesSesiones sesiones = new OpcionesSesiones();

  @Option(names = "--rate", paramLabel = "<per-second>", defaultValue = "2000", converter = Converters.PositiveInt.class,
    description = "sessions started per second, whatever the answers do (default: ${DEFAULT-VALUE})")
  int rate;

  @Option(names = "--floor", description = "then the same load against the floor, a program that does only a session's I/O, "
    + "and the ratio of ours to it (rate, and CPU per session)")
  boolean floor;

  @Mixin
  OpcionesCarga carga = new OpcionesCarga();

  @Override
  public Integer call() throws Exception {
    Settings settings = carga.settings();
    List<URI> sessions = sesiones.gestor(settings);
    URI devices = sesiones.seguridad(settings);
    Informe nuestro = carga.run(settings, corrida -> prepare(corrida, sessions, devices));
    if (floor) carga.againstFloor(settings, "sesiones", nuestro, this::prepareFloor);
    return 0;
  }

  /** Tokens and bodies first; the load then waits until the system has notified every alert it caused. */
  private Supplier<Future<Informe>> prepare(Corrida corrida, List<URI> sessions, URI devices) {
    OpenLoad load = corrida.load(rate, shots(corrida.minter(), sessions, carga.vendedores, sesiones.unknown));
    return () -> registerDevices(corrida, devices)
      .compose(registered -> corrida.scrape())
      .compose(before -> load.run().compose(result ->
        corrida.awaitCount("asr1_seconds", before, result.okByTag().getOrDefault(UNKNOWN_DEVICE, 0L))
          .map(after -> new Informe(render(result, before, after), result.perSecond(), after.cpu().since(before.cpu()).msPer(result.ok())))));
  }

  /** The same shots against the floor, until it has verified every session it opened. */
  private Supplier<Future<Informe>> prepareFloor(Corrida corrida, URI floor) {
    OpenLoad load = corrida.load(rate, shots(corrida.minter(), List.of(floor), carga.vendedores, sesiones.unknown));
    return () -> corrida.floorDone(floor).compose(warm -> corrida.scrape().compose(before -> load.run().compose(result ->
      corrida.awaitFloor(floor, warm + result.ok()).map(after -> Informe.delSuelo("session", result, before, after)))));
  }

  /**
   * Flow A's requests: a session of each vendedor in turn, from its own device, or with probability {@code unknown}
   * from a device never seen (tagged {@link #UNKNOWN_DEVICE}: each one an alert), spread over the {@code targets}
   * round-robin. Tokens and bodies are made here, once.
   */
  static Supplier<OpenLoad.Shot> shots(DevIssuer minter, List<URI> targets, int vendedores, double unknown) {
    String[] bearers = new String[vendedores];
    Buffer[] homes = new Buffer[vendedores];
    for (int i = 0; i < vendedores; i++) {
      bearers[i] = "Bearer " + minter.mint(Flota.vendedor(i), "VENDEDOR");
      homes[i] = new JsonObject().put("huella", Flota.casa(Flota.vendedor(i))).toBuffer();
    }
    List<RequestOptions> open = OpenLoad.toEach(targets, HttpMethod.POST, "/v1/sesiones");
    long[] next = {0};
    return () -> {
      long n = next[0]++;
      int i = (int) (n % vendedores);
      boolean stranger = ThreadLocalRandom.current().nextDouble() < unknown;
      Buffer body = stranger
        ? Buffer.buffer("{\"huella\":\"desconocido-" + Long.toHexString(ThreadLocalRandom.current().nextLong()) + "\"}")
        : homes[i];
      return new OpenLoad.Shot(new RequestOptions(open.get((int) (n % open.size()))).putHeader(HttpHeaders.AUTHORIZATION, bearers[i]), body, 201,
        stranger ? UNKNOWN_DEVICE : null);
    };
  }

  /** Alerts {@link #shots} tagged as expected. */
  static long alertsExpected(OpenLoad.Result result) {
    return result.okByTag().getOrDefault(UNKNOWN_DEVICE, 0L);
  }

  /** The security area registers each vendedor's own device, as a SEGURIDAD person; before {@link #shots} run. */
  static Future<Void> registerDevices(Corrida corrida, URI seguridad) {
    String area = "Bearer " + corrida.minter().mint("seguridad-1", "SEGURIDAD");
    return new Dispositivos(corrida.vertx(), corrida.web())
      .registrar(seguridad, area, corrida.opciones().vendedores, corrida.opciones().connections);
  }

  private String render(OpenLoad.Result r, Corrida.Scrape scrapedBefore, Corrida.Scrape scrapedAfter) {
    Histogram before = Histogram.parse(scrapedBefore.text(), "asr1_seconds");
    Histogram after = Histogram.parse(scrapedAfter.text(), "asr1_seconds");
    return String.format(Locale.ROOT, """
      carga-sesiones: target %d/s for %d s, %.0f%% from unknown devices, %d vendedores
        sessions sent       %d, opened (201) %d, failed %d %s
        achieved            %.1f sessions/s
        HTTP latency        %s  (opened)
        refused (503)       %s
        client timeouts     %d  (no answer within %d s)
        alerts expected     %d, notified %d
        ASR-1 (t0→notified) %s  (budget 2000 ms; the system's asr1 histogram)
        CPU                 %s  (per session opened, its refusals and alerts included)""",
      rate, carga.duration, sesiones.unknown * 100, carga.vendedores, r.sent(), r.ok(), r.sent() - r.ok(), r.failures(), r.perSecond(), r.latency(),
      r.refused(), r.timeouts(), OpenLoad.TIMEOUT_MS / 1000, r.okByTag().getOrDefault(UNKNOWN_DEVICE, 0L), after.countSince(before), after.describeSince(before),
      scrapedAfter.cpu().since(scrapedBefore.cpu()).perRequest(r.ok(), "session"));
  }
}
