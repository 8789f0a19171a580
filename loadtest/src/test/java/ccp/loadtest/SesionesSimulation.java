package ccp.loadtest;

import io.gatling.javaapi.core.Simulation;

import java.util.List;

import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.global;

/**
 * ASR-1's load: sessions opened at a constant rate (open model), 10 % from unknown devices. Given the floor's rate
 * ({@code -Dfloor}), it offers 0.6 times it; it fails unless the system keeps up with what it is offered, with no failed
 * request (the warm-up's included) and a p99 answer time within 200 ms after the warm-up
 * ({@link Scenarios#CALENTAMIENTO_SEGUNDOS}).
 */
public class SesionesSimulation extends Simulation {

  private final Scenarios scenarios = new Scenarios(LoadParameters.read(Scenarios.SESIONES_POR_SEGUNDO, Scenarios.RAZON_SESIONES));
  private final AsrReport asr = new AsrReport(scenarios.parameters.metricsUrls(), List.of(scenarios.asr1()));

  {
    LoadParameters p = scenarios.parameters;
    System.out.println("Sessions: " + p.describe() + ", " + Math.round(p.unknown() * 100) + " % from unknown devices");
    setUp(scenarios.sesionesAbiertas(p.rate(), p.durationSeconds()))
      .protocols(scenarios.protocol())
      .assertions(
        global().failedRequests().count().is(0L),
        details(Scenarios.ABRIR_SESION).responseTime().percentile(99.0).lte(Scenarios.P99_MILLIS),
        details(Scenarios.ABRIR_SESION).requestsPerSec().gte(Scenarios.AL_DIA * Scenarios.mediaMedida(p.rate(), p.durationSeconds())));
  }

  @Override
  public void before() {
    scenarios.registrarDispositivos();
    asr.before();
  }

  @Override
  public void after() {
    asr.after();
  }
}
