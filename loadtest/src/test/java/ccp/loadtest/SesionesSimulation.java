package ccp.loadtest;

import io.gatling.javaapi.core.Simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.global;

/**
 * ASR-1's load, offered as the floor was measured ({@link CapacidadSimulation}) and as {@code carga-sesiones} offers
 * it: through {@link Scenarios#EN_VUELO} sessions in flight, at 0.6 times the floor's rate ({@code -Dfloor}; or
 * {@code -Drate} itself) and a little more ({@link Scenarios#HOLGURA}), 10 % from unknown devices, through the warm-up
 * ({@link Scenarios#CALENTAMIENTO_SEGUNDOS}) and then for {@code -Dduration} seconds. It fails on any failed request
 * (the warm-up's included), unless the measured sessions reach the target rate with an answer-time p99 within 200 ms,
 * and unless ASR-1's p99 over the measured load, read from the system's {@code /metrics}, is within 200 ms, every
 * alert recorded.
 */
public class SesionesSimulation extends Simulation {

  private final Scenarios scenarios = new Scenarios(LoadParameters.read(Scenarios.SESIONES_POR_SEGUNDO, Scenarios.RAZON_SESIONES));
  private final AsrReport asr = new AsrReport(scenarios.parameters.metricsUrls(), List.of(scenarios.asr1()));

  {
    LoadParameters p = scenarios.parameters;
    System.out.printf(Locale.ROOT, "Sessions: %d in flight for %d s of warm-up, then %d s measured, against %s; %d %% from unknown"
        + " devices; target %.0f/s%n", Scenarios.EN_VUELO, Scenarios.CALENTAMIENTO_SEGUNDOS, p.durationSeconds(), p.baseUrls(),
      Math.round(p.unknown() * 100), p.rate());
    setUp(scenarios.sesionesAlRitmo(p.durationSeconds()))
      .protocols(scenarios.protocol())
      .assertions(
        global().failedRequests().count().is(0L),
        details(Scenarios.ABRIR_SESION).responseTime().percentile(99.0).lte(Scenarios.P99_MILLIS));
  }

  @Override
  public void before() {
    scenarios.registrarDispositivos();
    asr.before();
    // The measured load starts once the timers are read at the warm-up's end: its records all come after that reading.
    scenarios.calentarHastaMedir();
    asr.desde(Scenarios.CALENTAMIENTO_SEGUNDOS, scenarios::medirDesdeAhora);
  }

  @Override
  public void after() {
    List<String> missed = new ArrayList<>(asr.after());
    scenarios.alcanzado("sessions").ifPresent(missed::add);
    AsrReport.require(missed);
  }
}
