package ccp.loadtest;

import ccp.carga.suelo.ProcesoSuelo;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;

import java.util.List;
import java.util.Locale;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.global;

/**
 * A path's capacity under Gatling ({@code -Dcamino=sesiones|pedidos}): as many requests in flight as the drivers keep
 * (64), each answered one followed by the next, and the 201s counted per second. Against the floor ({@code -Dcontra=suelo},
 * the default: the floor program that {@code carga-sesiones --floor} and {@code carga-pedidos --floor} measure, started
 * beside the system) it prints {@code floor: N/s}, to give the simulations as {@code -Dfloor=N}; against the system
 * ({@code -Dcontra=sistema}) {@code ours: N/s} — for orders, those accepted: an order's 201 does not wait for its chain,
 * neither the floor's nor the system's, so the chain's own rate is {@code carga-pedidos}'. On one machine Gatling's own CPU comes out of the two cores the system
 * has, so a simulation's targets are ratios to the floor measured with the same driver, not with {@code carga-*}.
 */
public class CapacidadSimulation extends Simulation {

  private final String camino = System.getProperty("camino", "sesiones");
  private final boolean suelo = switch (System.getProperty("contra", "suelo")) {
    case "suelo" -> true;
    case "sistema" -> false;
    default -> throw new IllegalArgumentException("-Dcontra='" + System.getProperty("contra") + "': suelo or sistema");
  };
  private final ProcesoSuelo floor = suelo ? start(camino) : null;
  private final Scenarios scenarios = new Scenarios(apuntar(LoadParameters.read(0, 0), floor));

  {
    LoadParameters p = scenarios.parameters;
    System.out.println("Capacity of the " + camino + " path of " + (suelo ? "the floor" : "the system") + " at " + p.baseUrls()
      + ": " + Scenarios.EN_VUELO + " requests in flight for " + Scenarios.CALENTAMIENTO_SEGUNDOS + " s (not counted: the warm-up), then "
      + p.durationSeconds() + " s");
    ScenarioBuilder scenario = switch (camino) {
      case "sesiones" -> scenarios.sesiones();
      case "pedidos" -> scenarios.pedidos();
      default -> throw new IllegalArgumentException("-Dcamino='" + camino + "': sesiones or pedidos");
    };
    setUp(scenario.injectClosed(constantConcurrentUsers(Scenarios.EN_VUELO).during(Scenarios.CALENTAMIENTO_SEGUNDOS + p.durationSeconds())))
      .protocols(scenarios.protocol())
      .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    if (!suelo && camino.equals("sesiones")) scenarios.registrarDispositivos();
    scenarios.contarDentroDe(Scenarios.CALENTAMIENTO_SEGUNDOS);
  }

  @Override
  public void after() {
    double rate = scenarios.createdPerSecond();
    System.out.println(suelo
      ? String.format(Locale.ROOT, "floor: %.0f/s (Gatling, %s) — pass -Dfloor=%.0f to the simulation", rate, camino, rate)
      : String.format(Locale.ROOT, "ours: %.0f/s (Gatling, %s)%s", rate, camino, camino.equals("pedidos")
        ? ": orders accepted, whose chains complete later (carga-pedidos counts each order through its chain)" : ""));
    if (floor == null) return;
    try {
      floor.close();
    } catch (Exception e) {
      throw new IllegalStateException("the floor did not stop: " + e.getMessage(), e);
    }
  }

  private static ProcesoSuelo start(String camino) {
    try {
      return ProcesoSuelo.start(camino, System.getProperty("conf", "../conf/ccp.json"), LoadParameters.read(0, 0).vendedores());
    } catch (Exception e) {
      throw new IllegalStateException("the floor did not start: " + e.getMessage(), e);
    }
  }

  /**
   * No read-only actors (the floor has no directory to register them in; against the system, the orders' capacity
   * without the Detector's reactions), and against the floor its address and no ASR timers to read.
   */
  private static LoadParameters apuntar(LoadParameters p, ProcesoSuelo floor) {
    return new LoadParameters(floor == null ? p.baseUrls() : List.of(floor.uri().toString()), floor == null ? p.metricsUrls() : List.of(),
      p.rate(), p.durationSeconds(), p.vendedores(), p.unknown(), 0, p.issuerKey());
  }
}
