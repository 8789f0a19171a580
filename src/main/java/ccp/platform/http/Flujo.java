package ccp.platform.http;

import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A Server-Sent Events stream to one client of the console ({@code text/event-stream}): its source is asked for what is
 * new every {@link #SONDEO_MS}, one ask at a time, and each event is written as {@code event: <name>} with one JSON
 * {@code data} line. A comment line every {@link #LATIDO_MS} keeps the connection and the gateway's forward of it from
 * being closed as idle. The stream ends when the client goes; a source that fails one ask is asked again at the next
 * tick (the console's lists are read by their own routes: the stream only says what changed).
 * <p>
 * Every tick first asks again the checks that let the stream's caller in ({@link Vigencia}: the token's expiry, the
 * Lista de revocación): a caller revoked, blocked or whose token expired while its stream was open gets {@code event:
 * fin} with the refusal its next request would get ({@code {"status", "error", "message"}}) and the stream ends, before
 * its source is asked again. A check that cannot be read ends the stream too (503), as it refuses a request.
 * <p>
 * Polling the tables of record keeps the stream true wherever the writer runs (another process, another replica) at the
 * price of one indexed statement per open console per tick: fine for the people in the loop, not for the App's clients.
 */
public final class Flujo {

  public static final String TIPO = "text/event-stream";
  /** The last segment of every stream's route. */
  public static final String RUTA = "flujo";
  /** Four asks a second: an event is written within the console's 1 s of its row being committed. */
  public static final long SONDEO_MS = 250;
  /** Well under {@code http.idle-timeout-ms}'s default (30 s) and the gateway's idle bound on a forwarded stream. */
  public static final long LATIDO_MS = 10_000;

  private static final Logger LOG = LoggerFactory.getLogger(Flujo.class);

  /** One event of the stream. */
  public record Evento(String nombre, JsonObject datos) {}

  /** What a stream asks each tick: the events since its previous answer (its cursor is its own state). */
  @FunctionalInterface
  public interface Fuente {
    Future<List<Evento>> siguientes();
  }

  private Flujo() {}

  /**
   * Whether the request asks for an event stream: a {@code GET} of a stream's route ({@code .../flujo}) that accepts
   * {@code text/event-stream}. Such a request has no answer deadline; no other does, whatever it accepts.
   */
  public static boolean pedido(RoutingContext ctx) {
    String accept = ctx.request().getHeader("Accept");
    return ctx.request().method() == HttpMethod.GET && ctx.request().path().endsWith("/" + RUTA)
      && accept != null && accept.contains(TIPO);
  }

  /**
   * A source that writes {@code nombre} with {@code {"version": ...}} each time {@code version} (a text that changes
   * whenever what the console lists changes) differs from its previous value, the first ask included: a console that
   * opens its stream and then reads its list misses no change between the two.
   */
  public static Fuente cambios(String nombre, Supplier<Future<String>> version) {
    String[] anterior = {null};
    return () -> version.get().map(actual -> {
      if (Objects.equals(actual, anterior[0])) return List.of();
      anterior[0] = actual;
      return List.of(new Evento(nombre, new JsonObject().put("version", actual)));
    });
  }

  /** Both sources' events, each tick. */
  public static Fuente ambas(Fuente una, Fuente otra) {
    return () -> una.siguientes().compose(primeras -> otra.siguientes().map(segundas -> {
      if (primeras.isEmpty()) return segundas;
      if (segundas.isEmpty()) return primeras;
      List<Evento> todas = new ArrayList<>(primeras);
      todas.addAll(segundas);
      return todas;
    }));
  }

  /**
   * Answers 200 with the stream and keeps asking {@code fuente} until the client closes it or no longer passes the
   * checks that let it in.
   */
  public static void abrir(RoutingContext ctx, Fuente fuente) {
    HttpServerResponse response = ctx.response();
    response.setStatusCode(200).setChunked(true)
      .putHeader("Content-Type", TIPO + ";charset=UTF-8")
      .putHeader("Cache-Control", "no-store")
      // A reverse proxy in front (nginx) would otherwise hold the events back.
      .putHeader("X-Accel-Buffering", "no");
    response.write(": abierto\n\n");
    new Emision(ctx, fuente).siguiente();
  }

  /** One open stream: its timers and whether its client is still there. */
  private static final class Emision {
    private final RoutingContext ctx;
    private final Fuente fuente;
    private boolean cerrada;
    private long ultimaEscritura = System.nanoTime();
    private long timer = -1;

    Emision(RoutingContext ctx, Fuente fuente) {
      this.ctx = ctx;
      this.fuente = fuente;
      ctx.response().closeHandler(v -> cerrar());
      ctx.response().exceptionHandler(err -> cerrar());
    }

    private void cerrar() {
      cerrada = true;
      if (timer >= 0) ctx.vertx().cancelTimer(timer);
    }

    private void siguiente() {
      if (cerrada) return;
      Vigencia.revisar(ctx).onComplete(revision -> {
        if (cerrada) return;
        if (revision.failed()) terminar(new Vigencia.Rechazo(503, "unavailable", "the caller's checks could not be read; retry"));
        else if (revision.result() != null) terminar(revision.result());
        else preguntar();
      });
    }

    /** The caller no longer passes the door: it is told why, and the stream ends. */
    private void terminar(Vigencia.Rechazo rechazo) {
      escribir(ctx.response(), "event: fin\ndata: " + new JsonObject().put("status", rechazo.status())
        .put("error", rechazo.error()).put("message", rechazo.message()).encode() + "\n\n");
      if (cerrada) return;
      cerrar();
      ctx.response().end();
    }

    private void preguntar() {
      fuente.siguientes().onComplete(ar -> {
        if (cerrada) return;
        HttpServerResponse response = ctx.response();
        if (ar.succeeded()) {
          for (Evento evento : ar.result()) escribir(response, "event: " + evento.nombre() + "\ndata: " + evento.datos().encode() + "\n\n");
        } else {
          LOG.debug("An event stream's source failed; asked again next tick: {}", ar.cause().toString());
        }
        if (System.nanoTime() - ultimaEscritura >= LATIDO_MS * 1_000_000) escribir(response, ": latido\n\n");
        if (!cerrada) timer = ctx.vertx().setTimer(SONDEO_MS, t -> siguiente());
      });
    }

    private void escribir(HttpServerResponse response, String texto) {
      if (response.closed() || response.ended()) {
        cerrar();
        return;
      }
      if (response.writeQueueFull()) {
        // A client that does not read: its stream goes rather than the process's memory (the console reconnects).
        cerrar();
        ctx.request().connection().close();
        return;
      }
      response.write(texto);
      ultimaEscritura = System.nanoTime();
    }
  }
}
