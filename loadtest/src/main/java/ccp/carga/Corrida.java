package ccp.carga;

import ccp.platform.infra.DevIssuer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.ext.web.client.WebClient;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * What one load run works with: its Vert.x, a token minter, a client for set-up and scrapes, the system's histograms,
 * and where the embedded PostgreSQL of the data directory says its pid ({@code postmasterPid}, for {@link Cpu}). The
 * system's CPU is read from its scrapes, or, for a process that has no metrics (the floor), from {@code /proc} by its
 * {@code pid}.
 */
record Corrida(Vertx vertx, DevIssuer minter, WebClient web, List<URI> metrics, Path postmasterPid, OptionalLong pid,
               OpcionesCarga opciones) {

  private static final int CHECKS = 60;
  private static final long CHECK_EVERY_MS = 500;

  /**
   * An open-model load at {@code rate} for the run's duration, over a pool of {@code --connections}; the shots' bodies
   * and headers are built once, since the driver shares the CPU it measures.
   */
  OpenLoad load(int rate, Supplier<OpenLoad.Shot> shots) {
    return load(List.of(new OpenLoad.Phase(rate, opciones.duration)), shots);
  }

  /** The same, in phases of their own rates; a pool of {@code --connections} of its own. */
  OpenLoad load(List<OpenLoad.Phase> phases, Supplier<OpenLoad.Shot> shots) {
    return load(phases, shots, 1);
  }

  /** One of {@code lanes} loads that share {@code --connections} between them. */
  OpenLoad load(List<OpenLoad.Phase> phases, Supplier<OpenLoad.Shot> shots, int lanes) {
    return new OpenLoad(vertx, vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
      new PoolOptions().setHttp1MaxSize(Math.max(1, opciones.connections / lanes))), phases, shots);
  }

  /** The most connections a {@link #fleet} opens: far above what a system within its targets keeps outstanding. */
  static final int FLEET_MAX = 20_000;

  /**
   * A load as a fleet of phones sends it: a request that finds no idle connection opens one, so what the system does
   * not answer piles up at its door, where it can refuse it, not inside this driver.
   */
  OpenLoad fleet(List<OpenLoad.Phase> phases, Supplier<OpenLoad.Shot> shots) {
    return new OpenLoad(vertx, vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
      new PoolOptions().setHttp1MaxSize(FLEET_MAX)), phases, shots);
  }

  /**
   * Runs {@code load} on an event loop of its own (a verticle's), so that two loads of one run do not share one
   * thread of the driver; completes with its result.
   */
  Future<OpenLoad.Result> apart(OpenLoad load) {
    Promise<OpenLoad.Result> done = Promise.promise();
    return vertx.deployVerticle(new VerticleBase() {
        @Override
        public Future<?> start() {
          load.run().onComplete(done);
          return Future.succeededFuture();
        }
      })
      .compose(id -> done.future().eventually(() -> vertx.undeploy(id)));
  }

  /** The system's metrics, and the CPU spent so far read right after them. */
  record Scrape(String text, Cpu cpu) {}

  Future<Scrape> scrape() {
    return metricsText().compose(this::withCpu);
  }

  /** Every process's scrape, one after the other: histograms and CPU are summed over them ({@link Histogram}, {@link Cpu}). */
  private Future<String> metricsText() {
    List<Future<String>> scrapes = metrics.stream()
      .map(uri -> web.getAbs(uri.toString()).send().map(response -> response.bodyAsString())).toList();
    return Future.all(scrapes).map(all -> String.join("\n", all.<String>list()));
  }

  /** The CPU is read from files ({@code /proc}), off the event loop. */
  private Future<Scrape> withCpu(String text) {
    return vertx.executeBlocking(() -> new Scrape(text,
      pid.isPresent() ? Cpu.ofProcess(pid.getAsLong(), postmasterPid) : Cpu.now(text, postmasterPid)));
  }

  /**
   * Scrapes until {@code histogram} has counted {@code expected} observations since {@code before}, or 30 s have
   * passed: the system's reactions to the load arrive after it. Completes with the last scrape, the only one whose CPU
   * is read.
   */
  Future<Scrape> awaitCount(String histogram, Scrape before, long expected) {
    return awaitCount(Histogram.parse(before.text(), histogram), histogram, expected, 0);
  }

  /** How many records of the path's last step the floor at {@code floor} has processed (its warm-up's included). */
  Future<Long> floorDone(URI floor) {
    return web.getAbs(floor.toString()).send().map(response -> Long.parseLong(response.bodyAsString().trim()));
  }

  /**
   * Asks the floor until it says it has processed {@code expected} records of the path's last step, or 30 s have
   * passed; completes with the CPU read then.
   */
  Future<Scrape> awaitFloor(URI floor, long expected) {
    return awaitFloor(floor, expected, 0);
  }

  private Future<Scrape> awaitFloor(URI floor, long expected, int attempt) {
    return floorDone(floor).otherwise(0L)
      .compose(done -> done >= expected || attempt >= CHECKS
        ? withCpu("")
        : vertx.timer(CHECK_EVERY_MS).compose(x -> awaitFloor(floor, expected, attempt + 1)));
  }

  private Future<Scrape> awaitCount(Histogram start, String histogram, long expected, int attempt) {
    return metricsText().compose(now -> Histogram.parse(now, histogram).countSince(start) >= expected || attempt >= CHECKS
      ? withCpu(now)
      : vertx.timer(CHECK_EVERY_MS).compose(x -> awaitCount(start, histogram, expected, attempt + 1)));
  }
}
