package ccp.loadtest;

import io.gatling.javaapi.core.Simulation;

import java.util.List;

import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.global;

/**
 * ASR-2's load: orders created at a constant rate (open model), 1 % by read-only actors. Given the floor's rate
 * ({@code -Dfloor}), it offers 0.5 times it; it fails unless the system keeps up with what it is offered, with no failed
 * request (the warm-up's included) and a p99 answer time within 200 ms after the warm-up
 * ({@link Scenarios#CALENTAMIENTO_SEGUNDOS}).
 */
public class PedidosSimulation extends Simulation {

  private final Scenarios scenarios = new Scenarios(LoadParameters.read(Scenarios.PEDIDOS_POR_SEGUNDO, Scenarios.RAZON_PEDIDOS));
  private final AsrReport asr = new AsrReport(scenarios.parameters.metricsUrls(), List.of(scenarios.asr2()));

  {
    LoadParameters p = scenarios.parameters;
    System.out.println("Orders: " + p.describe() + ", " + p.improper() * 100 + " % by read-only actors");
    setUp(scenarios.pedidosAbiertos(p.rate(), p.durationSeconds()))
      .protocols(scenarios.protocol())
      .assertions(
        global().failedRequests().count().is(0L),
        details(Scenarios.CREAR_PEDIDO).responseTime().percentile(99.0).lte(Scenarios.P99_MILLIS),
        details(Scenarios.CREAR_PEDIDO).requestsPerSec().gte(Scenarios.AL_DIA * Scenarios.mediaMedida(p.rate(), p.durationSeconds())));
  }

  @Override
  public void before() {
    asr.before();
  }

  @Override
  public void after() {
    asr.after();
  }
}
