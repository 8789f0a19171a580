package ccp.loadtest;

import ccp.carga.ActoresCarga;
import ccp.carga.Dispositivos;
import ccp.carga.flota.Flota;
import ccp.platform.config.Settings;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.CheckBuilder;
import io.gatling.javaapi.core.PauseType;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.holdFor;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.reachRps;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.header;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * What the simulations share: the targets, the HTTP protocol over the gateways, the two scenarios of the App
 * (open a session, create an order) and the counts of what each run should leave in the ASR timers.
 */
final class Scenarios {

  static final String ABRIR_SESION = "abrir sesion";
  static final String CREAR_PEDIDO = "crear pedido";
  /**
   * The throughput targets, as ratios to the floor's rate ({@code -Dfloor}, what {@link CapacidadSimulation} measured
   * on the same machine just before): {@link SesionesSimulation} and {@link PedidosSimulation} measure the system as
   * the floor was measured and must reach that share of it. The open-model simulations offer it. Without
   * {@code -Dfloor}: {@code -Drate}, else the view's load.
   */
  static final double RAZON_SESIONES = 0.6;
  static final double RAZON_PEDIDOS = 0.5;
  static final double SESIONES_POR_SEGUNDO = 2_000;
  static final double PEDIDOS_POR_SEGUNDO = 1_000;
  /** Kept up with: the requests answered per second over the run, at least this share of those offered. */
  static final double AL_DIA = 0.95;
  /**
   * What {@link #alRitmo} offers beyond the target: a throttled driver never answers more than it offers, so a
   * system that reaches the target must be offered a little more than it.
   */
  static final double HOLGURA = 1.05;
  /** The answer-time bound of the App's requests. */
  static final int P99_MILLIS = 200;
  /** ASR-1's p99 under the sessions' load: a tenth of its 2 s budget. */
  static final int ASR1_P99_MILLIS = 200;
  /** Requests in flight when a path is measured as its floor is: the drivers' connections ({@code carga-* --connections}). */
  static final int EN_VUELO = 64;

  /**
   * The warm-up before the measured load: the rate climbs from a tenth of it to all of it in its first third and holds
   * there, while the JIT compiles — the system's, whose first minute after a start runs on its first-tier code, and
   * Gatling's own, on the same cores. Its requests are named apart ({@link #CALENTAMIENTO}) and reported; none may fail
   * (the failures' assertion covers them), but the answer-time and rate assertions are the measured load's. A start
   * itself is measured apart (loadtest/bin/arranque-en-frio).
   */
  static final int CALENTAMIENTO_SEGUNDOS = 30;
  static final String CALENTAMIENTO = " (calentamiento)";

  private static final int BODIES = 128;
  /** Times a virtual user asks again a request refused with 503 before it counts as failed. */
  private static final int REINTENTOS = 3;

  final LoadParameters parameters;
  private final DevTokens tokens;
  private final String[] bearers;
  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private final AtomicLong pedidos = new AtomicLong();
  /** Successful sessions from unknown devices: each must raise one ASR-1 alert. */
  final LongAdder desconocidas = new LongAdder();
  /** Successful orders by read-only actors: each must cause one ASR-2 reaction. */
  final LongAdder impropias = new LongAdder();
  /** Orders of the measured load accepted from vendedores: each chain must reach {@code pedido.listo}. */
  private final LongAdder encadenados = new LongAdder();
  /** Every 201 of the measured load, and when the first and the last came: the rate reached. */
  private final LongAdder creados = new LongAdder();
  private volatile long contarDesde = Long.MIN_VALUE;
  private final AtomicLong primero = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong ultimo = new AtomicLong(Long.MIN_VALUE);

  /**
   * Whether a refusal at the door (503 {@code overloaded}) is an expected answer, as in an overload (then Gatling
   * counts it as OK, and only timeouts and other answers fail), or a failure.
   */
  private final boolean refusalsExpected;

  Scenarios(LoadParameters parameters) {
    this(parameters, false);
  }

  Scenarios(LoadParameters parameters, boolean refusalsExpected) {
    this.parameters = parameters;
    this.refusalsExpected = refusalsExpected;
    this.tokens = new DevTokens(parameters.issuerKey(), System.getProperty("issuer", "ccp"), System.getProperty("audience", "ccp-app"));
    this.bearers = new String[parameters.vendedores()];
    for (int i = 0; i < bearers.length; i++) bearers[i] = tokens.bearer(vendedor(i), "VENDEDOR");
  }

  /** Spread over every gateway given; one pool of keep-alive connections, as an App's back end would see many phones. */
  HttpProtocolBuilder protocol() {
    return http.baseUrls(parameters.baseUrls())
      .disableWarmUp()
      .shareConnections()
      .acceptHeader("application/json")
      .contentTypeHeader("application/json");
  }

  /** Flow A: a vendedor opens a session; a share of them from a device never registered (each one an alert). */
  ScenarioBuilder sesiones() {
    return sesiones("");
  }

  /** The warm-up's or the measured load's sessions ({@code apodo}: "" or {@link #CALENTAMIENTO}). */
  private ScenarioBuilder sesiones(String apodo) {
    return sesiones("sesiones" + apodo, () -> apodo);
  }

  /**
   * Sessions named {@code escenario}, each request named by its phase ({@code fase}: "" for the measured load, else
   * {@link #CALENTAMIENTO}); only the measured load's are counted.
   */
  private ScenarioBuilder sesiones(String escenario, Supplier<String> fase) {
    Iterator<Map<String, Object>> feeder = Stream.generate(() -> {
      ThreadLocalRandom random = ThreadLocalRandom.current();
      int i = random.nextInt(bearers.length);
      boolean desconocido = random.nextDouble() < parameters.unknown();
      String huella = desconocido ? "desconocido-" + Long.toHexString(random.nextLong()) : casa(i);
      return Map.<String, Object>of("bearer", bearers[i], "cuerpo", "{\"huella\":\"" + huella + "\"}", "desconocido", desconocido);
    }).iterator();
    return scenario(escenario).feed(feeder)
      .exec(session -> session.set("fase", fase.get()))
      .exec(conReintentos(nombre -> http(nombre).post("/v1/sesiones").header("Authorization", "#{bearer}").body(StringBody("#{cuerpo}")),
        ABRIR_SESION + "#{fase}"))
      .exec(session -> {
        if (!session.getString("fase").isEmpty()) return session;
        if (created(session) && session.getBoolean("desconocido")) desconocidas.increment();
        contar(session);
        return session;
      });
  }

  /**
   * Flow B's entry: a vendedor creates an order; a share of them by read-only actors. Each improper write comes from
   * a CONSULTA actor of its own, registered in the Gestor's directory before the load ({@link ActoresCarga}; the
   * database from {@code CCP_PG_HOST}/{@code CCP_PG_PORT}): the write passes the gateway (201), the Detector finds it
   * unauthorized and the Reacción revokes that actor only, so no later request of the run is refused for it.
   */
  ScenarioBuilder pedidos() {
    return pedidos(nuevosPedidos(parameters.rate(), parameters.durationSeconds()), "");
  }

  /** The warm-up's or the measured load's orders ({@code apodo}: "" or {@link #CALENTAMIENTO}), from {@code pedido}. */
  private ScenarioBuilder pedidos(Supplier<Map<String, Object>> pedido, String apodo) {
    return pedidos(pedido, "pedidos" + apodo, () -> apodo);
  }

  /** Orders from {@code pedido}, named as {@link #sesiones(String, Supplier)} names sessions. */
  private ScenarioBuilder pedidos(Supplier<Map<String, Object>> pedido, String escenario, Supplier<String> fase) {
    return scenario(escenario).feed(Stream.generate(pedido).iterator())
      .exec(session -> session.set("fase", fase.get()))
      .exec(conReintentos(nombre -> http(nombre).post("/v1/pedidos").header("Authorization", "#{bearer}").body(StringBody("#{cuerpo}")),
        CREAR_PEDIDO + "#{fase}"))
      .exec(session -> {
        if (!session.getString("fase").isEmpty()) return session;
        if (created(session)) (session.getBoolean("impropio") ? impropias : encadenados).increment();
        contar(session);
        return session;
      });
  }

  /**
   * The orders of a run of {@code seconds} at up to {@code rate}, its read-only actors registered first (past them, an
   * order that would have been improper is a vendedor's).
   */
  private Supplier<Map<String, Object>> nuevosPedidos(double rate, int seconds) {
    String consultas = "consulta-gatling-" + run + "-";
    int reserva = ActoresCarga.reserva(rate, seconds, parameters.improper());
    try {
      ActoresCarga.registrar(Settings.from(new JsonObject(Files.readString(Path.of(System.getProperty("conf", "../conf/ccp.json")))),
        System.getenv()), consultas, reserva);
    } catch (Exception e) {
      throw new IllegalStateException("cannot register the run's read-only actors: " + e.getMessage(), e);
    }
    AtomicLong usadas = new AtomicLong();
    String[] cuerpos = new String[BODIES];
    for (int i = 0; i < BODIES; i++) {
      cuerpos[i] = "{\"tendero\":\"T-" + i + "\",\"lineas\":[{\"producto\":\"P-" + (i % 16) + "\",\"cantidad\":" + (1 + i % 5)
        + "},{\"producto\":\"P-" + (16 + i % 7) + "\",\"cantidad\":1}]}";
    }
    return () -> {
      long n = pedidos.getAndIncrement();
      long consulta = ThreadLocalRandom.current().nextDouble() < parameters.improper() ? usadas.getAndIncrement() : reserva;
      boolean impropio = consulta < reserva;
      String bearer = impropio ? tokens.bearer(consultas + consulta, "CONSULTA") : bearers[(int) (n % bearers.length)];
      return Map.<String, Object>of("bearer", bearer, "cuerpo", cuerpos[(int) (n % BODIES)], "impropio", impropio);
    };
  }

  /** Sessions at {@code rate}: the warm-up, then {@code seconds} measured ({@link #CALENTAMIENTO_SEGUNDOS}). */
  List<PopulationBuilder> sesionesAbiertas(double rate, int seconds) {
    return abierto(this::sesiones, rate, seconds);
  }

  /** Orders at {@code rate}: the warm-up, then {@code seconds} measured; one set of read-only actors for both. */
  List<PopulationBuilder> pedidosAbiertos(double rate, int seconds) {
    Supplier<Map<String, Object>> pedido = nuevosPedidos(rate, CALENTAMIENTO_SEGUNDOS + seconds);
    return abierto(apodo -> pedidos(pedido, apodo), rate, seconds);
  }

  /** Sessions at the target rate through {@link #EN_VUELO} connections ({@link #alRitmo}). */
  PopulationBuilder sesionesAlRitmo(int seconds) {
    return alRitmo(sesiones("sesiones", this::fase), seconds);
  }

  /**
   * Orders at the target rate through {@link #EN_VUELO} connections ({@link #alRitmo}); read-only actors for the whole
   * run at the rate offered.
   */
  PopulationBuilder pedidosAlRitmo(int seconds) {
    return alRitmo(pedidos(nuevosPedidos(HOLGURA * parameters.rate(), CALENTAMIENTO_SEGUNDOS + seconds), "pedidos", this::fase), seconds);
  }

  /**
   * The target rate offered as the floor's was measured and as the {@code carga-*} drivers offer theirs: through
   * {@link #EN_VUELO} requests in flight, each answered one followed by the next, at most the target's rate and
   * {@link #HOLGURA} (Gatling's throttle). A system that keeps up answers the target's rate; one that does not answers
   * what it can, the excess waiting in the driver, not piling up as new connections and retries. The warm-up climbs to
   * the rate in its first third; the measured load holds it for {@code seconds}.
   */
  private PopulationBuilder alRitmo(ScenarioBuilder escenario, int seconds) {
    int total = CALENTAMIENTO_SEGUNDOS + seconds;
    int subida = CALENTAMIENTO_SEGUNDOS / 3;
    return escenario.injectClosed(constantConcurrentUsers(EN_VUELO).during(total))
      .throttle(reachRps((int) Math.round(HOLGURA * parameters.rate())).in(subida), holdFor(total - subida));
  }

  /** The phase a request starting now belongs to. */
  private String fase() {
    return System.nanoTime() < contarDesde ? CALENTAMIENTO : "";
  }

  /**
   * An open model (arrivals at random, as phones' are): the warm-up — a third of it climbing from a tenth of
   * {@code rate}, the rest at it — and, as it ends, the measured load at {@code rate} for {@code seconds}.
   */
  private static List<PopulationBuilder> abierto(Function<String, ScenarioBuilder> escenario, double rate, int seconds) {
    int subida = CALENTAMIENTO_SEGUNDOS / 3;
    return List.of(
      escenario.apply(CALENTAMIENTO).injectOpen(rampUsersPerSec(rate / 10).to(rate).during(subida).randomized(),
        constantUsersPerSec(rate).during(CALENTAMIENTO_SEGUNDOS - subida).randomized()),
      escenario.apply("").injectOpen(nothingFor(CALENTAMIENTO_SEGUNDOS), constantUsersPerSec(rate).during(seconds).randomized()));
  }

  /**
   * What a run that keeps up answers per second of the measured load's requests, as Gatling counts a request's rate:
   * over the whole run, warm-up included.
   */
  static double mediaMedida(double rate, int seconds) {
    return rate * seconds / (CALENTAMIENTO_SEGUNDOS + seconds);
  }

  /**
   * The App's request as a phone makes it: a 503 is asked again after its {@code Retry-After} (bounded), each retry
   * reported apart as "&lt;name&gt; (reintento tras 503)", and only the last allowed one fails on a 503. With
   * {@link #refusalsExpected} the refusals are what the run measures: a 503 is an answer, not asked again.
   */
  private ChainBuilder conReintentos(Function<String, HttpRequestActionBuilder> request, String nombre) {
    if (refusalsExpected) return exec(request.apply(nombre).check(status().in(201, 503).saveAs("estado")));
    String reintento = nombre + " (reintento tras 503)";
    return exec(request.apply(nombre).check(status().in(201, 503).saveAs("estado"), retryAfter()))
      .asLongAs(session -> session.getInt("estado") == 503, "reintento").on(
        // Constant, not the scenario's: a throttled scenario has its pauses disabled, and a phone still waits.
        pause(session -> pausa(session.getString("retryAfter")), PauseType.Constant)
          .doIfOrElse(session -> session.getInt("reintento") < REINTENTOS - 1)
          .then(exec(request.apply(reintento).check(status().in(201, 503).saveAs("estado"), retryAfter())))
          .orElse(exec(request.apply(reintento).check(status().is(201).saveAs("estado"))).exitHereIfFailed()));
  }

  /**
   * At least the {@code Retry-After} asked, and up to twice it, at random: phones refused in the same second do not all
   * come back in the same later one.
   */
  private static Duration pausa(String retryAfter) {
    long millis = 1_000L * Dispositivos.retryAfterSeconds(retryAfter);
    return Duration.ofMillis(millis + ThreadLocalRandom.current().nextLong(millis + 1));
  }

  private static CheckBuilder.Final retryAfter() {
    return header("Retry-After").optional().saveAs("retryAfter");
  }

  private void contar(Session session) {
    if (!created(session)) return;
    long now = System.nanoTime();
    if (now < contarDesde) return;
    creados.increment();
    primero.accumulateAndGet(now, Math::min);
    ultimo.accumulateAndGet(now, Math::max);
  }

  /** Only the 201s from {@code seconds} from now count in {@link #createdPerSecond()}. */
  void contarDentroDe(int seconds) {
    contarDesde = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
  }

  /** Every request from now is the warm-up's, until {@link #medirDesdeAhora()}. */
  void calentarHastaMedir() {
    contarDesde = Long.MAX_VALUE;
  }

  /** The measured load starts now: the requests started from now, and only their 201s, are counted. */
  void medirDesdeAhora() {
    contarDesde = System.nanoTime();
  }

  /** Requests answered 201 per second, between the first and the last of them. */
  double createdPerSecond() {
    long n = creados.sum();
    return n < 2 ? 0 : (n - 1) * 1e9 / (ultimo.get() - primero.get());
  }

  /** A 201: only a created session or order leaves an ASR record behind. */
  private static boolean created(Session session) {
    return !session.isFailed() && session.getInt("estado") == 201;
  }

  AsrReport.Asr asr1() {
    return new AsrReport.Asr("ASR-1", "asr1_seconds", 2_000, ASR1_P99_MILLIS, desconocidas::sum);
  }

  /**
   * An order's chain, its committed write to {@code pedido.listo} ({@code chain_completion}): p99 within 1 s; one per
   * vendedor's order accepted in the measured load (a read-only actor's is annulled, its chain stopped).
   */
  AsrReport.Asr cadena() {
    return new AsrReport.Asr("chain", "chain_completion_seconds", 30_000, 1_000, encadenados::sum);
  }

  /**
   * Whether the measured requests reached the target rate ({@code -Dfloor} times the path's ratio, or {@code -Drate});
   * prints both and their ratio, and names the miss.
   */
  Optional<String> alcanzado(String what) {
    double rate = createdPerSecond();
    System.out.printf(Locale.ROOT, "ours: %.0f %s/s measured, target %.0f/s (%.2fx of it)%n", rate, what, parameters.rate(),
      rate / parameters.rate());
    return rate >= parameters.rate() ? Optional.empty()
      : Optional.of(String.format(Locale.ROOT, "%.0f %s/s, under the target of %.0f/s", rate, what, parameters.rate()));
  }

  AsrReport.Asr asr2() {
    return new AsrReport.Asr("ASR-2", "asr2_seconds", 5_000, 5_000, impropias::sum);
  }

  /**
   * Before the load: the security area registers each vendedor's own device, so that only the deliberate strangers
   * raise alerts (a vendedor's first session would otherwise register whatever device it came from); the drivers'
   * set-up ({@link Dispositivos}), 503s asked again after their Retry-After.
   */
  void registrarDispositivos() {
    Vertx vertx = Vertx.vertx();
    try {
      Dispositivos dispositivos = new Dispositivos(vertx, WebClient.create(vertx));
      dispositivos.registrar(URI.create(parameters.baseUrls().get(0)), tokens.bearer("seguridad-1", "SEGURIDAD"), bearers.length, 64)
        .await(5, TimeUnit.MINUTES);
      System.out.println("Set-up: " + bearers.length + " devices registered, " + dispositivos.retries() + " requests asked again after a 503");
    } catch (Exception e) {
      throw new IllegalStateException("the set-up could not register the vendedores' devices: " + e.getMessage(), e);
    } finally {
      vertx.close().await();
    }
  }

  private static String vendedor(int i) {
    return Flota.vendedor(i);
  }

  private static String casa(int i) {
    return Flota.casa(vendedor(i));
  }
}
