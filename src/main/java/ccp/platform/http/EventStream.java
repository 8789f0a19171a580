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
 * new every {@link #POLL_MS}, one ask at a time, and each event is written as {@code event: <name>} with one JSON
 * {@code data} line. A comment line every {@link #HEARTBEAT_MS} keeps the connection and the gateway's forward of it from
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
public final class EventStream {

  public static final String TYPE = "text/event-stream";
  /** The last segment of every stream's route. */
  public static final String SEGMENT = "flujo";
  /** Four asks a second: an event is written within the console's 1 s of its row being committed. */
  public static final long POLL_MS = 250;
  /** Well under {@code http.idle-timeout-ms}'s default (30 s) and the gateway's idle bound on a forwarded stream. */
  public static final long HEARTBEAT_MS = 10_000;

  private static final Logger LOG = LoggerFactory.getLogger(EventStream.class);

  /** One event of the stream. */
  public record Event(String name, JsonObject data) {}

  /** What a stream asks each tick: the events since its previous answer (its cursor is its own state). */
  @FunctionalInterface
  public interface Source {
    Future<List<Event>> next();
  }

  private EventStream() {}

  /**
   * Whether the request asks for an event stream: a {@code GET} of a stream's route ({@code .../flujo}) that accepts
   * {@code text/event-stream}. Such a request has no answer deadline; no other does, whatever it accepts.
   */
  public static boolean requested(RoutingContext ctx) {
    String accept = ctx.request().getHeader("Accept");
    return ctx.request().method() == HttpMethod.GET && ctx.request().path().endsWith("/" + SEGMENT)
      && accept != null && accept.contains(TYPE);
  }

  /**
   * A source that writes {@code name} with {@code {"version": ...}} each time {@code version} (a text that changes
   * whenever what the console lists changes) differs from its previous value, the first ask included: a console that
   * opens its stream and then reads its list misses no change between the two.
   */
  public static Source changes(String name, Supplier<Future<String>> version) {
    String[] previous = {null};
    return () -> version.get().map(current -> {
      if (Objects.equals(current, previous[0])) return List.of();
      previous[0] = current;
      return List.of(new Event(name, new JsonObject().put("version", current)));
    });
  }

  /** Both sources' events, each tick. */
  public static Source both(Source one, Source other) {
    return () -> one.next().compose(first -> other.next().map(second -> {
      if (first.isEmpty()) return second;
      if (second.isEmpty()) return first;
      List<Event> all = new ArrayList<>(first);
      all.addAll(second);
      return all;
    }));
  }

  /**
   * Answers 200 with the stream and keeps asking {@code source} until the client closes it or no longer passes the
   * checks that let it in.
   */
  public static void open(RoutingContext ctx, Source source) {
    HttpServerResponse response = ctx.response();
    response.setStatusCode(200).setChunked(true)
      .putHeader("Content-Type", TYPE + ";charset=UTF-8")
      .putHeader("Cache-Control", "no-store")
      // A reverse proxy in front (nginx) would otherwise hold the events back.
      .putHeader("X-Accel-Buffering", "no");
    response.write(": abierto\n\n");
    new Emission(ctx, source).tick();
  }

  /** One open stream: its timers and whether its client is still there. */
  private static final class Emission {
    private final RoutingContext ctx;
    private final Source source;
    private boolean closed;
    private long lastWrite = System.nanoTime();
    private long timer = -1;

    Emission(RoutingContext ctx, Source source) {
      this.ctx = ctx;
      this.source = source;
      ctx.response().closeHandler(v -> close());
      ctx.response().exceptionHandler(err -> close());
    }

    private void close() {
      closed = true;
      if (timer >= 0) ctx.vertx().cancelTimer(timer);
    }

    private void tick() {
      if (closed) return;
      Vigencia.revisar(ctx).onComplete(check -> {
        if (closed) return;
        if (check.failed()) end(new Vigencia.Rechazo(503, "unavailable", "the caller's checks could not be read; retry"));
        else if (check.result() != null) end(check.result());
        else ask();
      });
    }

    /** The caller no longer passes the door: it is told why, and the stream ends. */
    private void end(Vigencia.Rechazo refusal) {
      write(ctx.response(), "event: fin\ndata: " + new JsonObject().put("status", refusal.status())
        .put("error", refusal.error()).put("message", refusal.message()).encode() + "\n\n");
      if (closed) return;
      close();
      ctx.response().end();
    }

    private void ask() {
      source.next().onComplete(ar -> {
        if (closed) return;
        HttpServerResponse response = ctx.response();
        if (ar.succeeded()) {
          for (Event event : ar.result()) write(response, "event: " + event.name() + "\ndata: " + event.data().encode() + "\n\n");
        } else {
          LOG.debug("An event stream's source failed; asked again next tick: {}", ar.cause().toString());
        }
        if (System.nanoTime() - lastWrite >= HEARTBEAT_MS * 1_000_000) write(response, ": latido\n\n");
        if (!closed) timer = ctx.vertx().setTimer(POLL_MS, t -> tick());
      });
    }

    private void write(HttpServerResponse response, String text) {
      if (response.closed() || response.ended()) {
        close();
        return;
      }
      if (response.writeQueueFull()) {
        // A client that does not read: its stream goes rather than the process's memory (the console reconnects).
        close();
        ctx.request().connection().close();
        return;
      }
      response.write(text);
      lastWrite = System.nanoTime();
    }
  }
}
