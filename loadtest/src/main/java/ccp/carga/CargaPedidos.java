package ccp.carga;

import ccp.platform.cli.Converters;
import ccp.platform.config.Settings;
import ccp.platform.infra.DevIssuer;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * {@code carga-pedidos}: creates orders through the gateway at a fixed rate for a fixed time (gateway → pedidos →
 * outbox → Kafka), a share of them by read-only actors, and prints orders/s, HTTP latency, ASR-2 (t_det → notified),
 * the gateway's revocation-list check and the outbox publish lag, from the system's own histograms.
 * Each improper write comes from a read-only actor of this run, registered in the Gestor's directory before the load
 * ({@link ActoresCarga}: the roles authorize by the directory's profile), so runs repeat cleanly.
 */
@Command(name = "carga-pedidos", mixinStandardHelpOptions = true,
  description = "Create orders through the gateway at a fixed rate, a share by read-only actors, and report ASR-2.")
public final class CargaPedidos implements Callable<Integer> {

  private static final String IMPROPER = "improper";
  private static final int BODIES = 128;

  @Mixin
  OpcionesPedidos pedidos = new OpcionesPedidos();

  @Option(names = "--rate", paramLabel = "<per-second>", defaultValue = "1500", converter = Converters.PositiveInt.class,
    description = "orders started per second, whatever the answers do (default: ${DEFAULT-VALUE})")
  int rate;

  @Option(names = "--floor", description = "then the same load against the floor, a program that does only an order's I/O "
    + "through its chain, and the ratio of ours to it (rate, and CPU per order)")
  boolean floor;

  @Option(names = "--stage-stopped",
    description = "the system runs without one of its stages (e.g. --role=... without facturacion): after the load, wait until"
      + " the Bandeja holds an escalation for every order created, and report ASR-3, ASR-4 and ASR-3+4 of them")
  boolean etapaDetenida;

  @Mixin
  OpcionesCarga carga = new OpcionesCarga();

  /** Each wait of {@link Corrida#awaitCount} is 30 s; the last order's stage is escalated after its 25 s deadline and more. */
  private static final int ESPERAS_ESCALADAS = 6;

  @Override
  public Integer call() throws Exception {
    Settings settings = carga.settings();
    List<URI> target = pedidos.gateway(settings);
    String consultas = "consulta-carga-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    int reserva = ActoresCarga.reserva(rate, carga.duration, pedidos.improper);
    ActoresCarga.registrar(settings, consultas, reserva);
    Informe nuestro = carga.run(settings, corrida -> prepare(corrida, target, consultas, reserva));
    if (floor) carga.againstFloor(settings, "pedidos", nuestro, (corrida, suelo) -> prepareFloor(corrida, suelo, consultas, reserva));
    return 0;
  }

  /** The same shots against the floor, until the last stage has passed on every order it created. */
  private Supplier<Future<Informe>> prepareFloor(Corrida corrida, URI floor, String consultas, int reserva) {
    OpenLoad load = corrida.load(rate, shots(corrida.minter(), List.of(floor), carga.vendedores, pedidos.improper, consultas, reserva));
    return () -> corrida.floorDone(floor).compose(warm -> corrida.scrape().compose(before -> load.run().compose(result ->
      corrida.awaitFloor(floor, warm + result.ok()).map(after -> Informe.delSuelo("order", result, before, after)))));
  }

  /** Tokens and bodies first; the load then waits until every improper write of this run was reacted to and notified. */
  private Supplier<Future<Informe>> prepare(Corrida corrida, List<URI> target, String consultas, int reserva) {
    OpenLoad load = corrida.load(rate, shots(corrida.minter(), target, carga.vendedores, pedidos.improper, consultas, reserva));
    return () -> corrida.scrape().compose(before -> load.run().compose(result ->
      corrida.awaitCount("asr2_seconds", before, improperExpected(result))
        .compose(after -> etapaDetenida
          ? escaladas(corrida, before, result.ok() - improperExpected(result), ESPERAS_ESCALADAS)
          : Future.succeededFuture(after))
        .map(after -> new Informe(render(result, before, after), result.perSecond(), after.cpu().since(before.cpu()).msPer(result.ok())))));
  }

  /** Waits, {@code esperas} times at most, until ASR-3+4 counted {@code expected} escalations since {@code before}. */
  private static Future<Corrida.Scrape> escaladas(Corrida corrida, Corrida.Scrape before, long expected, int esperas) {
    return corrida.awaitCount("asr34_seconds", before, expected).compose(after -> esperas <= 1
      || Histogram.parse(after.text(), "asr34_seconds").countSince(Histogram.parse(before.text(), "asr34_seconds")) >= expected
      ? Future.succeededFuture(after) : escaladas(corrida, before, expected, esperas - 1));
  }

  /**
   * Flow B's entry: an order of each vendedor in turn, or with probability {@code improper} by the next of the run's
   * {@code reserva} read-only actors {@code consultas0…} (tagged {@link #IMPROPER}: each one a reaction); spread over
   * the {@code targets} round-robin.
   */
  static Supplier<OpenLoad.Shot> shots(DevIssuer minter, List<URI> targets, int vendedores, double improper, String consultas,
                                       int reserva) {
    String[] bearers = new String[vendedores];
    for (int i = 0; i < vendedores; i++) bearers[i] = "Bearer " + minter.mint("vendedor-" + (i + 1), "VENDEDOR");
    // Minted here, not while sending: the driver shares the CPU it measures, and loads on several event loops share the minter.
    String[] impropios = new String[reserva];
    for (int i = 0; i < reserva; i++) impropios[i] = "Bearer " + minter.mint(consultas + i, "CONSULTA");
    Buffer[] bodies = new Buffer[BODIES];
    for (int i = 0; i < BODIES; i++) {
      bodies[i] = new JsonObject().put("tendero", "T-" + i).put("lineas", new JsonArray()
        .add(new JsonObject().put("producto", "P-" + (i % 16)).put("cantidad", 1 + i % 5))
        .add(new JsonObject().put("producto", "P-" + (16 + i % 7)).put("cantidad", 1))).toBuffer();
    }
    List<RequestOptions> create = OpenLoad.toEach(targets, HttpMethod.POST, "/v1/pedidos");
    long[] next = {0};
    int[] usadas = {0};
    return () -> {
      long n = next[0]++;
      boolean bad = usadas[0] < reserva && ThreadLocalRandom.current().nextDouble() < improper;
      String bearer = bad ? impropios[usadas[0]++] : bearers[(int) (n % vendedores)];
      return new OpenLoad.Shot(new RequestOptions(create.get((int) (n % create.size()))).putHeader(HttpHeaders.AUTHORIZATION, bearer),
        bodies[(int) (n % BODIES)], 201, bad ? IMPROPER : null);
    };
  }

  /** Reactions {@link #shots} tagged as expected. */
  static long improperExpected(OpenLoad.Result result) {
    return result.okByTag().getOrDefault(IMPROPER, 0L);
  }

  private String render(OpenLoad.Result r, Corrida.Scrape scrapedBefore, Corrida.Scrape scrapedAfter) {
    String before = scrapedBefore.text();
    String after = scrapedAfter.text();
    return String.format(Locale.ROOT, """
      carga-pedidos: target %d/s for %d s through the gateway, %.1f%% by read-only actors
        orders sent          %d, created (201) %d, failed %d %s
        achieved             %.1f orders/s
        HTTP latency         %s  (created)
        refused (503)        %s
        client timeouts      %d  (no answer within %d s)
        improper writes      %d, reactions notified %d
        ASR-2 (t_det→notified) %s  (budget 5000 ms)
        revocation check     %s  (per gateway request)
        outbox publish lag   %s  (commit → broker ack)
        chains completed     %s  (chain start → pedido.listo; only with the cadena and stage roles running)
        ASR-3                %s  (stage started → signal published, budget 30000 ms; a stopped stage's orders)
        ASR-4                %s  (retry → Bandeja holds it, or confirmed; budget 5000 ms)
        ASR-3+4              %s  (stage started → Bandeja holds it, budget 35000 ms)
        CPU                  %s  (per order created, its reactions and chain included)""",
      rate, carga.duration, pedidos.improper * 100, r.sent(), r.ok(), r.sent() - r.ok(), r.failures(), r.perSecond(), r.latency(),
      r.refused(), r.timeouts(), OpenLoad.TIMEOUT_MS / 1000, improperExpected(r),
      Histogram.parse(after, "asr2_seconds").countSince(Histogram.parse(before, "asr2_seconds")),
      since(before, after, "asr2_seconds"), since(before, after, "revocation_check_seconds"),
      since(before, after, "outbox_publish_lag_seconds"), since(before, after, "chain_completion_seconds"),
      since(before, after, "asr3_seconds"), since(before, after, "asr4_seconds"), since(before, after, "asr34_seconds"),
      scrapedAfter.cpu().since(scrapedBefore.cpu()).perRequest(r.ok(), "order"));
  }

  private static String since(String before, String after, String name) {
    return Histogram.parse(after, name).describeSince(Histogram.parse(before, name));
  }
}
