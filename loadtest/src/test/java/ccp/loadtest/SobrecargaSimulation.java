package ccp.loadtest;

import io.gatling.javaapi.core.Simulation;

import java.util.List;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.global;

/**
 * Overload: sessions and orders at {@code -Dfactor} (2) times their sustained rates ({@code -Drate} sessions/s,
 * {@code -Dpedidos} orders/s) for {@code -Dduration} seconds, then at the sustained rates for {@code -Drecovery}
 * seconds. A refusal at the door (503) is an expected answer here; the run fails on any other failure (a timeout above
 * all), on an answer slower than 500 ms at p99 — refusals included, since Gatling's response-time assertions do not
 * separate statuses — and when ASR-1 or ASR-2 is over its budget. {@code carga-sobrecarga} prints the accepted
 * and refused answers apart and the return to normal.
 */
public class SobrecargaSimulation extends Simulation {

  private static final int P99_MILLIS = 500;

  private final Scenarios scenarios = new Scenarios(LoadParameters.read(400, 0), true);
  private final AsrReport asr = new AsrReport(scenarios.parameters.metricsUrls(), List.of(scenarios.asr1().withinBudget(), scenarios.asr2()));

  {
    LoadParameters p = scenarios.parameters;
    double factor = Double.parseDouble(System.getProperty("factor", "2"));
    double pedidos = Double.parseDouble(System.getProperty("pedidos", "150"));
    int recovery = Integer.parseInt(System.getProperty("recovery", "20"));
    System.out.printf("Overload: %.1fx sessions %.0f/s and orders %.0f/s for %d s, then 1x for %d s, against %s%n",
      factor, p.rate(), pedidos, p.durationSeconds(), recovery, p.baseUrls());
    setUp(
      scenarios.sesiones().injectOpen(
        constantUsersPerSec(p.rate() * factor).during(p.durationSeconds()).randomized(),
        constantUsersPerSec(p.rate()).during(recovery).randomized()),
      scenarios.pedidos().injectOpen(
        constantUsersPerSec(pedidos * factor).during(p.durationSeconds()).randomized(),
        constantUsersPerSec(pedidos).during(recovery).randomized()))
      .protocols(scenarios.protocol())
      .assertions(
        global().failedRequests().count().is(0L),
        details(Scenarios.ABRIR_SESION).responseTime().percentile(99.0).lte(P99_MILLIS),
        details(Scenarios.CREAR_PEDIDO).responseTime().percentile(99.0).lte(P99_MILLIS));
  }

  @Override
  public void before() {
    scenarios.registrarDispositivos();
    asr.before();
  }

  @Override
  public void after() {
    AsrReport.require(asr.after());
  }
}
