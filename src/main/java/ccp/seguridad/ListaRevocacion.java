package ccp.seguridad;

import ccp.platform.db.Combiner;
import ccp.platform.http.Actor;
import ccp.platform.http.ApiErrors;
import ccp.platform.http.Vigencia;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonArray;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The read of the Lista de revocación (ADR-009) on every App request: one indexed lookup, no lock, no cache. A read
 * that starts after the Reacción's revoke committed sees it, on every gateway instance — the invariant a local copy
 * fed by notifications could not give. The Gestor's block is read in the same statement. The gateway checks it; so
 * do the roles' own ports, which a client could reach around the gateway. The same statement reads the actor's profile
 * in the Gestor's directory: that profile, not the token's claim alone, authorizes the request (a token whose
 * {@code perfil} is not the directory's, or whose actor the directory does not know, is refused).
 * <p>
 * The requests that arrive while a lookup is in flight are looked up together by the next statement
 * ({@link Combiner}); that statement starts after each of them arrived, so the invariant holds for every one. An
 * instance whose {@link #requerirVigente} handler is mounted belongs to that verticle's event loop.
 */
public final class ListaRevocacion {

  /** What the lookup read of one actor; {@code perfil} is null when the Gestor does not know the actor. */
  public record Estado(boolean revocado, boolean bloqueado, String perfil) {}

  private static final Logger LOG = LoggerFactory.getLogger(ListaRevocacion.class);
  private static final String ILEGIBLE = "the revocation list could not be read; retry";

  /**
   * Planned once per connection: the actors come as a jsonb array, whose length the planner does not read from the
   * parameter, so the plan for any batch costs what the generic one does and PostgreSQL keeps the generic one. Given as
   * {@code unnest($1::text[])}, each call's plan was costed for its own batch and beat the generic one, so each lookup
   * was planned again: 0.22 ms of planning for 0.07 ms of execution, on every request. Each actor is looked up by its key
   * ({@code LIMIT 1} keeps the lookup a subquery of its own), whatever size the planner takes the batch for.
   */
  private static final String ESTADOS = """
    SELECT a.actor,
           EXISTS (SELECT 1 FROM seguridad.lista_revocacion r WHERE r.actor = a.actor AND r.vence_en > now()) AS revocado,
           coalesce(g.bloqueado, false) AS bloqueado, g.perfil
    FROM jsonb_array_elements_text($1::jsonb) AS a (actor)
    LEFT JOIN LATERAL (SELECT g.bloqueado, g.perfil FROM gestor.actores g WHERE g.id = a.actor LIMIT 1) g ON true""";

  private final SqlClient sql;
  private final Combiner<String, String, Estado> consultas;

  public ListaRevocacion(SqlClient sql, int loteMax) {
    this.sql = sql;
    this.consultas = new Combiner<>(loteMax, actor -> actor, this::estados);
  }

  /**
   * A route handler after the token check: 403 for a revoked, blocked or unknown actor, or one whose token claims another
   * profile than the directory's; {@code timer} measures the lookup. A request it passes keeps the same lookup
   * ({@link Vigencia}): an event stream asks it again on its tick and ends when the actor is no longer in force.
   */
  public Handler<RoutingContext> requerirVigente(Timer timer) {
    return ctx -> {
      Actor actor = Actor.of(ctx);
      long began = System.nanoTime();
      consultar(actor).onSuccess(rechazo -> {
        timer.record(System.nanoTime() - began, TimeUnit.NANOSECONDS);
        if (rechazo != null) {
          ApiErrors.send(ctx, rechazo.status(), rechazo.error(), rechazo.message());
        } else {
          Vigencia.agregar(ctx, () -> consultar(actor).otherwise(err -> new Vigencia.Rechazo(503, "unavailable", ILEGIBLE)));
          ctx.next();
        }
      }).onFailure(err -> {
        LOG.warn("Revocation list unreadable: {}", err.toString());
        ApiErrors.send(ctx, 503, "unavailable", ILEGIBLE);
      });
    };
  }

  /** The actor's refusal by the Lista de revocación and the Gestor's directory, or null while it is in force. */
  private Future<Vigencia.Rechazo> consultar(Actor actor) {
    return consultas.submit(actor.id()).compose(estado -> estado != null
      ? Future.succeededFuture(rechazo(actor, estado))
      : Future.failedFuture(new IllegalStateException("no answer for actor " + actor.id())));
  }

  private static Vigencia.Rechazo rechazo(Actor actor, Estado estado) {
    if (estado.revocado()) {
      return new Vigencia.Rechazo(403, "actor_revoked", "actor " + actor.id() + " is in the revocation list");
    } else if (estado.perfil() == null) {
      return new Vigencia.Rechazo(403, "unknown_actor", "actor " + actor.id() + " is not registered in the Gestor");
    } else if (estado.bloqueado()) {
      return new Vigencia.Rechazo(403, "actor_blocked", "actor " + actor.id() + " is blocked");
    } else if (!estado.perfil().equals(actor.perfil())) {
      return new Vigencia.Rechazo(403, "perfil_mismatch", "the token says perfil " + actor.perfil() + " but actor " + actor.id()
        + " is registered as " + estado.perfil());
    }
    return null;
  }

  /** The timer of the lookup, one per process. */
  public static Timer timer(MeterRegistry registry) {
    return Timer.builder("revocation_check")
      .description("Lookup of the actor in the Lista de revocación, on every App request")
      .publishPercentileHistogram()
      .minimumExpectedValue(Duration.ofNanos(10_000))
      .register(registry);
  }

  /** One actor's state, by its own statement: for callers on any context (a readiness probe). */
  public Future<Estado> estado(String actor) {
    return estados(List.of(actor)).map(estados -> estados.get(actor));
  }

  private Future<Map<String, Estado>> estados(List<String> actores) {
    return sql.preparedQuery(ESTADOS).execute(Tuple.of(new JsonArray(actores)))
      .map(rows -> Combiner.byKey(rows, row -> row.getString("actor"), ListaRevocacion::estadoDe));
  }

  private static Estado estadoDe(Row row) {
    return new Estado(row.getBoolean("revocado"), row.getBoolean("bloqueado"), row.getString("perfil"));
  }
}
