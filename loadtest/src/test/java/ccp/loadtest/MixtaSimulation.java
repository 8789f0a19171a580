package ccp.loadtest;

import io.gatling.javaapi.core.Simulation;

import java.util.List;

import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.global;

/**
 * Both loads at once in an open model, two sessions for each order ({@code -Drate} is the total): fails unless the
 * system keeps up with what it is offered of each, with no failed request and a p99 within 200 ms, and unless, over
 * the measured load, ASR-1's p99 is within 200 ms and ASR-2's within its budget.
 */
public class MixtaSimulation extends Simulation {

  private final Scenarios scenarios = new Scenarios(LoadParameters.read(Scenarios.SESIONES_POR_SEGUNDO + Scenarios.PEDIDOS_POR_SEGUNDO, 0));
  private final AsrReport asr = new AsrReport(scenarios.parameters.metricsUrls(), List.of(scenarios.asr1(), scenarios.asr2()));

  {
    LoadParameters p = scenarios.parameters;
    System.out.println("Mixed: " + p.describe() + ", two sessions for each order");
    setUp(
      java.util.stream.Stream.concat(scenarios.sesionesAbiertas(p.rate() * 2 / 3, p.durationSeconds()).stream(),
        scenarios.pedidosAbiertos(p.rate() / 3, p.durationSeconds()).stream()).toList())
      .protocols(scenarios.protocol())
      .assertions(
        global().failedRequests().count().is(0L),
        details(Scenarios.ABRIR_SESION).responseTime().percentile(99.0).lte(Scenarios.P99_MILLIS),
        details(Scenarios.CREAR_PEDIDO).responseTime().percentile(99.0).lte(Scenarios.P99_MILLIS),
        details(Scenarios.ABRIR_SESION).requestsPerSec().gte(Scenarios.AL_DIA * Scenarios.mediaMedida(p.rate() * 2 / 3, p.durationSeconds())),
        details(Scenarios.CREAR_PEDIDO).requestsPerSec().gte(Scenarios.AL_DIA * Scenarios.mediaMedida(p.rate() / 3, p.durationSeconds())));
  }

  @Override
  public void before() {
    scenarios.registrarDispositivos();
    asr.before();
    asr.desde(Scenarios.CALENTAMIENTO_SEGUNDOS, () -> {});
  }

  @Override
  public void after() {
    AsrReport.require(asr.after());
  }
}
