package ccp.experimento;

import ccp.carga.Dispositivos;
import ccp.carga.flota.Flota;
import ccp.platform.infra.DevIssuer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;

/**
 * The experiment's open-model load: sessions and orders started at fixed rates through every gateway in turn, whatever
 * the answers do, each answer kept with what it acknowledged: the session or order it created and whether it had to be
 * reacted to (a session from a device never registered, an order by a read-only actor). The checks afterwards look for
 * exactly those in the databases and the topics. Runs on one Vert.x context; its lists are that context's own.
 */
final class Carga {

  /** Improper writes come from read-only actors registered before the run ({@code reserva} of them), one each: the Reacción blocks it. */
  static final String CONSULTAS = "consulta-experimento-";
  private static final long TICK_MS = 10;
  private static final long TIMEOUT_MS = 15_000;

  /** What one second of the run got: sessions and orders sent and acknowledged, refused (503), failed otherwise. */
  static final class Segundo {
    long sesionesEnviadas;
    long sesionesOk;
    long pedidosEnviados;
    long pedidosOk;
    long rechazadas;
    long fallidas;
  }

  /** An acknowledged session or order: its id, and whether the system must react to it. */
  record Acuse(String id, boolean reaccion) {}

  private final Vertx vertx;
  private final HttpClient http;
  private final List<URI> gateways;
  private final DevIssuer minter;
  private final int vendedores;
  private final double desconocidos;
  private final double impropios;
  private final int reserva;
  private final Random random = new Random(32);
  final List<Acuse> sesiones = new ArrayList<>();
  final List<Acuse> pedidos = new ArrayList<>();
  final List<Segundo> segundos = new ArrayList<>();
  private String[] bearers;
  private int impropiosUsados;
  // Each kind counts its own requests, which pick the vendedor and the gateway in turn: one count for both would pin
  // the orders, one in four requests, to one gateway (and one pedidos process) and a quarter of the vendedores.
  private long sesionesEnviadas;
  private long pedidosEnviados;
  private int inFlight;

  Carga(Vertx vertx, HttpClient http, List<URI> gateways, DevIssuer minter, int vendedores, double desconocidos, double impropios,
        int reserva) {
    this.vertx = vertx;
    this.http = http;
    this.gateways = List.copyOf(gateways);
    this.minter = minter;
    this.vendedores = vendedores;
    this.desconocidos = desconocidos;
    this.impropios = impropios;
    this.reserva = reserva;
  }

  /** The security area registers each vendedor's own device before the load, through the given seguridad. */
  static Future<Void> registrarDispositivos(Vertx vertx, io.vertx.ext.web.client.WebClient web, DevIssuer minter, URI seguridad,
                                            int vendedores) {
    return new Dispositivos(vertx, web).registrar(seguridad, "Bearer " + minter.mint("seguridad-1", "SEGURIDAD"), vendedores, 32);
  }

  /**
   * Sends for at least {@code minSeconds}, then until {@code basta} answers true (asked once a second), and never past
   * {@code maxSeconds}; completes when the last answer is in. Must run on the context that owns this load.
   */
  Future<Void> run(int sesionesPorSegundo, int pedidosPorSegundo, int minSeconds, int maxSeconds, BooleanSupplier basta) {
    bearers = new String[vendedores];
    for (int i = 0; i < vendedores; i++) bearers[i] = "Bearer " + minter.mint(Flota.vendedor(i), "VENDEDOR");
    Promise<Void> done = Promise.promise();
    long start = System.nanoTime();
    double[] credit = {0, 0};
    vertx.setPeriodic(TICK_MS, timer -> {
      long elapsed = System.nanoTime() - start;
      int second = (int) (elapsed / 1_000_000_000L);
      boolean newSecond = second >= segundos.size();
      if (second >= maxSeconds || newSecond && second >= minSeconds && basta.getAsBoolean()) {
        vertx.cancelTimer(timer);
        drain(done);
        return;
      }
      while (segundos.size() <= second) segundos.add(new Segundo());
      credit[0] += sesionesPorSegundo * TICK_MS / 1000.0;
      credit[1] += pedidosPorSegundo * TICK_MS / 1000.0;
      for (; credit[0] >= 1; credit[0]--) sesion(second);
      for (; credit[1] >= 1; credit[1]--) pedido(second);
    });
    return done.future();
  }

  private void drain(Promise<Void> done) {
    if (inFlight > 0) vertx.setTimer(20, x -> drain(done));
    else done.complete();
  }

  private void sesion(int second) {
    long k = sesionesEnviadas++;
    int i = (int) (k % vendedores);
    boolean extrano = random.nextDouble() < desconocidos;
    String huella = extrano ? "desconocido-" + Long.toHexString(random.nextLong()) : Flota.casa(Flota.vendedor(i));
    segundos.get(second).sesionesEnviadas++;
    enviar(gateway(k), "/v1/sesiones", bearers[i], new JsonObject().put("huella", huella), second, "sesion", body -> {
      segundos.get(second).sesionesOk++;
      sesiones.add(new Acuse(body.getString("sesion"), extrano));
    });
  }

  private void pedido(int second) {
    long k = pedidosEnviados++;
    boolean impropio = impropiosUsados < reserva && random.nextDouble() < impropios;
    String bearer = impropio
      ? "Bearer " + minter.mint(CONSULTAS + impropiosUsados++, "CONSULTA")
      : bearers[(int) (k % vendedores)];
    int n = (int) (k % 128);
    JsonObject body = new JsonObject().put("tendero", "T-" + n).put("lineas", new JsonArray()
      .add(new JsonObject().put("producto", "P-" + (n % 16)).put("cantidad", 1 + n % 5))
      .add(new JsonObject().put("producto", "P-" + (16 + n % 7)).put("cantidad", 1)));
    segundos.get(second).pedidosEnviados++;
    enviar(gateway(k), "/v1/pedidos", bearer, body, second, "pedido", created -> {
      segundos.get(second).pedidosOk++;
      pedidos.add(new Acuse(created.getString("pedido"), impropio));
    });
  }

  private URI gateway(long k) {
    return gateways.get((int) (k % gateways.size()));
  }

  private void enviar(URI gateway, String path, String bearer, JsonObject body, int second, String idField,
                      java.util.function.Consumer<JsonObject> created) {
    inFlight++;
    RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(gateway.getHost()).setPort(gateway.getPort())
      .setURI(path).setIdleTimeout(TIMEOUT_MS).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
      .putHeader(HttpHeaders.AUTHORIZATION, bearer);
    http.request(options)
      .compose(req -> req.send(body.toBuffer()))
      .compose(response -> response.body().map(answer -> new Respuesta(response.statusCode(), answer)))
      .onComplete(ar -> {
        inFlight--;
        Segundo s = segundos.get(second);
        if (ar.succeeded() && ar.result().status() == 201) {
          JsonObject answer = ar.result().body().toJsonObject();
          if (answer.getString(idField) == null) s.fallidas++;
          else created.accept(answer);
        } else if (ar.succeeded() && ar.result().status() == 503) {
          s.rechazadas++;
        } else {
          s.fallidas++;
        }
      });
  }

  private record Respuesta(int status, Buffer body) {}
}
