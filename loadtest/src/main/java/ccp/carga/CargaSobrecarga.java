package ccp.carga;

import ccp.platform.cli.Converters;
import ccp.platform.config.Settings;
import io.vertx.core.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * {@code carga-sobrecarga}: sessions and orders at {@code --factor} times their sustained rates for
 * {@code --duration} seconds, then at the sustained rates for {@code --recovery} seconds, each on its own event loop of
 * the driver. The sustained rates are those the system sustains together, within the targets (docs/performance.md). The requests come as from a
 * fleet of phones ({@link Corrida#fleet}): connections grow with the requests outstanding, so the excess reaches the
 * system's doors. It prints, per load and phase, what was accepted and how fast, what was refused (503) and how fast,
 * the client timeouts, how long after the overload the answers were normal again, ASR-1, ASR-2 and the accepted orders'
 * chains over the run, and each of the overload targets met or not.
 */
@Command(name = "carga-sobrecarga", mixinStandardHelpOptions = true,
  description = "Overload sessions and orders at once, then come back to the sustained rates, and report the overload targets.")
public final class CargaSobrecarga implements Callable<Integer> {

  /** The overload targets: what a user sees at twice the sustained rates. */
  static final long ACCEPTED_P99_MS = 500;
  static final long REFUSED_P99_MS = 50;
  static final int NORMAL_WITHIN_S = 10;
  static final double ASR1_BUDGET_MS = 2_000;
  static final double ASR2_BUDGET_MS = 5_000;
  static final double CHAIN_P99_MS = 2_000;
  /**
   * The most requests per second one event loop of the driver starts: past about twice that, one loop sharing two cores
   * with the system falls behind itself, and its own delay would show as the system's. A load is split over as many loops, each with its own tokens and actors.
   */
  static final int LANE_RATE = 400;

  @Option(names = "--sesiones", paramLabel = "<per-second>", defaultValue = "400", converter = Converters.PositiveInt.class,
    description = "the sustained session rate; the overload offers --factor times it (default: ${DEFAULT-VALUE})")
  int sesiones;

  @Option(names = "--pedidos", paramLabel = "<per-second>", defaultValue = "150", converter = Converters.PositiveInt.class,
    description = "the sustained order rate; the overload offers --factor times it (default: ${DEFAULT-VALUE})")
  int pedidos;

  @Option(names = "--factor", paramLabel = "<x>", defaultValue = "2", converter = Factor.class,
    description = "how many times the sustained rates the overload offers, 1 to 10 (default: ${DEFAULT-VALUE})")
  double factor;

  @Option(names = "--recovery", paramLabel = "<seconds>", defaultValue = "20", converter = Converters.PositiveInt.class,
    description = "seconds at the sustained rates after the overload (default: ${DEFAULT-VALUE})")
  int recovery;

  @Mixin
  OpcionesSesiones opcionesSesiones = new OpcionesSesiones();

  @Mixin
  OpcionesPedidos opcionesPedidos = new OpcionesPedidos();

  @Mixin
  OpcionesCarga carga = new OpcionesCarga();

  /** A number from 1 to 10. */
  static final class Factor implements ITypeConverter<Double> {
    @Override
    public Double convert(String raw) {
      try {
        double value = Double.parseDouble(raw.trim());
        if (value >= 1 && value <= 10) return value;
      } catch (NumberFormatException ignored) {
        // said below
      }
      throw new TypeConversionException("'" + raw + "' must be a number from 1 to 10");
    }
  }

  @Override
  public Integer call() throws Exception {
    Settings settings = carga.settings();
    List<URI> sessions = opcionesSesiones.gestor(settings);
    URI devices = opcionesSesiones.seguridad(settings);
    List<URI> orders = opcionesPedidos.gateway(settings);
    String run = "consulta-sobrecarga-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    int lanes = lanes(pedidos);
    int reserva = ActoresCarga.reserva(pedidos * factor / lanes, carga.duration + recovery, opcionesPedidos.improper);
    for (int lane = 0; lane < lanes; lane++) ActoresCarga.registrar(settings, run + lane + "-", reserva);
    carga.run(settings, corrida -> prepare(corrida, sessions, devices, orders, run, reserva), carga.duration + recovery + 120L);
    return 0;
  }

  private Supplier<Future<Informe>> prepare(Corrida corrida, List<URI> sessions, URI devices, List<URI> orders, String run,
                                           int reserva) {
    List<OpenLoad> sesionesLoads = new ArrayList<>();
    int sesionesLanes = lanes(sesiones);
    for (int lane = 0; lane < sesionesLanes; lane++) {
      sesionesLoads.add(corrida.fleet(phases(sesiones, sesionesLanes),
        CargaSesiones.shots(corrida.minter(), sessions, carga.vendedores, opcionesSesiones.unknown)));
    }
    List<OpenLoad> pedidosLoads = new ArrayList<>();
    int pedidosLanes = lanes(pedidos);
    for (int lane = 0; lane < pedidosLanes; lane++) {
      pedidosLoads.add(corrida.fleet(phases(pedidos, pedidosLanes),
        CargaPedidos.shots(corrida.minter(), orders, carga.vendedores, opcionesPedidos.improper, run + lane + "-", reserva)));
    }
    return () -> CargaSesiones.registerDevices(corrida, devices)
      .compose(registered -> corrida.scrape())
      .compose(before -> Future.all(all(corrida, sesionesLoads), all(corrida, pedidosLoads)).compose(both -> {
        OpenLoad.Result s = both.resultAt(0);
        OpenLoad.Result p = both.resultAt(1);
        return corrida.awaitCount("asr1_seconds", before, CargaSesiones.alertsExpected(s))
          .compose(x -> corrida.awaitCount("asr2_seconds", before, CargaPedidos.improperExpected(p)))
          .compose(x -> corrida.awaitCount("chain_completion_seconds", before, p.ok()))
          .map(after -> Informe.solo(render(s, p, before, after)));
      }));
  }

  /** Each load on an event loop of its own, their results as one. */
  private static Future<OpenLoad.Result> all(Corrida corrida, List<OpenLoad> loads) {
    return Future.all(loads.stream().map(corrida::apart).toList())
      .map(done -> OpenLoad.Result.merge(done.<OpenLoad.Result>list()));
  }

  /** The event loops of the driver a load at {@code sustained} needs in the overload ({@link #LANE_RATE}). */
  private int lanes(int sustained) {
    return (int) Math.max(1, Math.ceil(sustained * factor / LANE_RATE));
  }

  /** One lane's share of a load: {@code 1/lanes} of the overload, then of the sustained rate. */
  private List<OpenLoad.Phase> phases(int sustained, int lanes) {
    return List.of(new OpenLoad.Phase((int) Math.round(sustained * factor / lanes), carga.duration),
      new OpenLoad.Phase((int) Math.round((double) sustained / lanes), recovery));
  }

  private String render(OpenLoad.Result s, OpenLoad.Result p, Corrida.Scrape scrapedBefore, Corrida.Scrape scrapedAfter) {
    String before = scrapedBefore.text();
    String after = scrapedAfter.text();
    Histogram asr1Before = Histogram.parse(before, "asr1_seconds");
    Histogram asr1 = Histogram.parse(after, "asr1_seconds");
    Histogram asr2Before = Histogram.parse(before, "asr2_seconds");
    Histogram asr2 = Histogram.parse(after, "asr2_seconds");
    int end = carga.duration;
    OpenLoad.Window so = s.window(0, end);
    OpenLoad.Window po = p.window(0, end);
    OpenLoad.Window sr = s.window(end, Integer.MAX_VALUE);
    OpenLoad.Window pr = p.window(end, Integer.MAX_VALUE);
    int sNormal = s.normalAfter(end, ACCEPTED_P99_MS * 1000);
    int pNormal = p.normalAfter(end, ACCEPTED_P99_MS * 1000);
    List<String> targets = new ArrayList<>();
    targets.add(target("no client timeout", s.timeouts() + p.timeouts() == 0, (s.timeouts() + p.timeouts()) + " timeouts"));
    targets.add(target("accepted p99 <= " + ACCEPTED_P99_MS + " ms in the overload",
      so.acceptedMicros(0.99) <= ACCEPTED_P99_MS * 1000 && po.acceptedMicros(0.99) <= ACCEPTED_P99_MS * 1000,
      "sessions " + ms(so.acceptedMicros(0.99)) + ", orders " + ms(po.acceptedMicros(0.99))));
    targets.add(target("refused p99 <= " + REFUSED_P99_MS + " ms",
      so.refusedMicros(0.99) <= REFUSED_P99_MS * 1000 && po.refusedMicros(0.99) <= REFUSED_P99_MS * 1000,
      "sessions " + ms(so.refusedMicros(0.99)) + ", orders " + ms(po.refusedMicros(0.99))));
    targets.add(target("ASR-1 p99 within 2 s", asr1.countSince(asr1Before) > 0
      && asr1.quantileMillisSince(asr1Before, 0.99) <= ASR1_BUDGET_MS, asr1.describeSince(asr1Before)));
    targets.add(target("ASR-2 p99 within 5 s", asr2.countSince(asr2Before) > 0
      && asr2.quantileMillisSince(asr2Before, 0.99) <= ASR2_BUDGET_MS, asr2.describeSince(asr2Before)));
    Histogram chainBefore = Histogram.parse(before, "chain_completion_seconds");
    Histogram chain = Histogram.parse(after, "chain_completion_seconds");
    targets.add(target("chain p99 of the accepted orders within 2 s", chain.countSince(chainBefore) > 0
      && chain.quantileMillisSince(chainBefore, 0.99) <= CHAIN_P99_MS, chain.describeSince(chainBefore)));
    targets.add(target("normal within " + NORMAL_WITHIN_S + " s after the overload",
      sNormal >= 0 && sNormal <= NORMAL_WITHIN_S && pNormal >= 0 && pNormal <= NORMAL_WITHIN_S,
      "sessions " + seconds(sNormal) + ", orders " + seconds(pNormal)));
    return String.format(Locale.ROOT, """
      carga-sobrecarga: %.1f× the sustained rates (sessions %d/s, orders %d/s) for %d s, then 1× for %d s
        overload  sessions  %s
                  orders    %s
        after     sessions  %s
                  orders    %s
        failures            sessions %s, orders %s
        normal again after  sessions %s, orders %s  (from then on every second: no refusal, no failure, accepted p99 <= %d ms)
        alerts              expected %d, notified %d;  reactions expected %d, notified %d
        ASR-1 (t0→notified)    %s  (budget 2000 ms)
        ASR-2 (t_det→notified) %s  (budget 5000 ms)
        outbox publish lag  %s
        chains completed    %s
        CPU                 %s  (per request accepted, sessions and orders; the refusals' cost included)
      overload targets
      %s""",
      factor, sesiones, pedidos, carga.duration, recovery,
      describe(so, carga.duration), describe(po, carga.duration), describe(sr, recovery), describe(pr, recovery),
      s.failures(), p.failures(), seconds(sNormal), seconds(pNormal), ACCEPTED_P99_MS,
      CargaSesiones.alertsExpected(s), asr1.countSince(asr1Before), CargaPedidos.improperExpected(p), asr2.countSince(asr2Before),
      asr1.describeSince(asr1Before), asr2.describeSince(asr2Before),
      Histogram.parse(after, "outbox_publish_lag_seconds").describeSince(Histogram.parse(before, "outbox_publish_lag_seconds")),
      Histogram.parse(after, "chain_completion_seconds").describeSince(Histogram.parse(before, "chain_completion_seconds")),
      scrapedAfter.cpu().since(scrapedBefore.cpu()).perRequest(s.ok() + p.ok(), "request"),
      String.join("\n", targets));
  }

  private static String describe(OpenLoad.Window w, int seconds) {
    return String.format(Locale.ROOT, "sent %d, accepted %d (%.1f/s) %s; refused %s; timeouts %d",
      w.sent(), w.ok(), w.ok() / (double) seconds, w.latency(), w.refused(), w.timeouts());
  }

  private static String target(String what, boolean met, String measured) {
    return String.format(Locale.ROOT, "  %-8s %s: %s", met ? "met" : "NOT MET", what, measured);
  }

  private static String ms(long micros) {
    return String.format(Locale.ROOT, "%.1f ms", micros / 1000.0);
  }

  private static String seconds(int s) {
    return s < 0 ? "not within the run" : s + " s";
  }
}
