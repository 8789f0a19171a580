package ccp.loadtest;

import io.gatling.javaapi.core.Simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.global;

/**
 * ASR-2's load, offered as the floor was measured ({@link CapacidadSimulation}) and as {@code carga-pedidos} offers
 * it: through {@link Scenarios#EN_VUELO} orders in flight, at 0.5 times the floor's rate ({@code -Dfloor}; or
 * {@code -Drate} itself) and a little more ({@link Scenarios#HOLGURA}), 1 % by read-only actors, through the warm-up
 * ({@link Scenarios#CALENTAMIENTO_SEGUNDOS}) and then for {@code -Dduration} seconds. It fails on any failed request
 * (the warm-up's included), unless the measured orders accepted reach the target rate with an answer-time p99 within
 * 200 ms, and unless, read from the system's {@code /metrics} over the measured load, the chains' p99 is within 1 s
 * and ASR-2's within its 5 s budget, every chain and reaction recorded.
 */
public class PedidosSimulation extends Simulation {

  private final Scenarios scenarios = new Scenarios(LoadParameters.read(Scenarios.PEDIDOS_POR_SEGUNDO, Scenarios.RAZON_PEDIDOS));
  private final AsrReport asr = new AsrReport(scenarios.parameters.metricsUrls(), List.of(scenarios.asr2(), scenarios.cadena()));

  {
    LoadParameters p = scenarios.parameters;
    System.out.printf(Locale.ROOT, "Orders: %d in flight for %d s of warm-up, then %d s measured, against %s; %.0f %% by read-only"
        + " actors; target %.0f/s%n", Scenarios.EN_VUELO, Scenarios.CALENTAMIENTO_SEGUNDOS, p.durationSeconds(), p.baseUrls(),
      p.improper() * 100, p.rate());
    setUp(scenarios.pedidosAlRitmo(p.durationSeconds()))
      .protocols(scenarios.protocol())
      .assertions(
        global().failedRequests().count().is(0L),
        details(Scenarios.CREAR_PEDIDO).responseTime().percentile(99.0).lte(Scenarios.P99_MILLIS));
  }

  @Override
  public void before() {
    asr.before();
    // The measured load starts once the timers are read at the warm-up's end: its records all come after that reading.
    scenarios.calentarHastaMedir();
    asr.desde(Scenarios.CALENTAMIENTO_SEGUNDOS, scenarios::medirDesdeAhora);
  }

  @Override
  public void after() {
    List<String> missed = new ArrayList<>(asr.after());
    scenarios.alcanzado("orders").ifPresent(missed::add);
    AsrReport.require(missed);
  }
}
