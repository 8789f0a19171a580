package ccp.gestor;

import ccp.app.RoleContext;
import ccp.platform.http.Actor;
import ccp.platform.http.ApiErrors;
import ccp.platform.http.ApiRouter;
import ccp.platform.http.JsonBody;
import ccp.platform.http.Tokens;
import ccp.platform.kafka.EventPublisher;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Set;
import java.util.UUID;

/**
 * HiloPeticion of the Gestor de sesión (A2–A3): opens a session and hands {@code SesionAbierta} (with t0) to the
 * Productor de eventos; answers 201 once the broker acknowledged it, without waiting for any verification.
 * Also serves the internal calls of flow B: the writer's current permissions (B5) and blocking an actor (B10).
 * Deployed with one instance per event loop: the view's "thread pool, one thread per request".
 */
public final class HiloPeticion extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(HiloPeticion.class);

  private final RoleContext role;
  private EventPublisher publisher;
  private ProductorEventos productor;
  private Actores actores;

  public HiloPeticion(RoleContext role) {
    this.role = role;
  }

  @Override
  public Future<?> start() {
    publisher = EventPublisher.create(vertx, role.settings(), "gestor-productor-eventos");
    productor = new ProductorEventos(publisher);
    actores = new Actores(role.sql());
    Router router = ApiRouter.create(vertx, role.settings());
    router.post("/v1/sesiones").handler(role.tokens().required()).handler(this::abrirSesion);
    router.route("/interno/*").handler(role.tokens().required()).handler(Tokens.requirePerfil(Tokens.SISTEMA));
    router.get("/interno/actores/:actor/permisos").handler(this::permisos);
    router.post("/interno/actores/:actor/bloqueo").handler(this::bloquear);
    return vertx.createHttpServer()
      .requestHandler(router)
      .listen(role.settings().integer("gestor.port"), role.settings().text("http.host"));
  }

  @Override
  public Future<?> stop() {
    return publisher.close();
  }

  private void abrirSesion(RoutingContext ctx) {
    JsonObject body = JsonBody.object(ctx, Set.of("huella"));
    String huella = JsonBody.huella(body);
    Actor actor = Actor.of(ctx);
    String sesion = UUID.randomUUID().toString();
    actores.abrirSesion(sesion, actor.id(), huella).compose(apertura -> switch (apertura) {
      case DESCONOCIDO -> {
        ApiErrors.send(ctx, 403, "unknown_actor", "actor " + actor.id() + " is not registered in the Gestor");
        yield Future.succeededFuture();
      }
      case BLOQUEADO -> {
        ApiErrors.send(ctx, 403, "actor_blocked", "actor " + actor.id() + " is blocked");
        yield Future.succeededFuture();
      }
      case ABIERTA -> {
        Instant t0 = Instant.now();
        yield productor.sesionAbierta(sesion, actor.id(), huella, t0)
          .onFailure(err -> actores.cancelarSesion(sesion))
          .onSuccess(ok -> ctx.response()
            .setStatusCode(201)
            .putHeader("content-type", "application/json")
            .putHeader("location", "/v1/sesiones/" + sesion)
            .end(new JsonObject().put("sesion", sesion).put("vendedor", actor.id()).put("t0", t0.toString()).encode()));
      }
    }).onFailure(err -> {
      LOG.warn("Session of {} not opened: {}", actor.id(), err.toString());
      ApiErrors.send(ctx, 503, "unavailable", "the session could not be recorded; retry");
    });
  }

  /** B5: the Detector reads the writer's current permissions. */
  private void permisos(RoutingContext ctx) {
    String actor = ctx.pathParam("actor");
    actores.permisos(actor).onSuccess(permisos -> {
      if (permisos.isEmpty()) {
        ApiErrors.send(ctx, 404, "unknown_actor", "actor " + actor + " is not registered in the Gestor");
        return;
      }
      Actores.Permisos p = permisos.get();
      ctx.response().putHeader("content-type", "application/json").end(new JsonObject()
        .put("actor", p.actor()).put("perfil", p.perfil()).put("bloqueado", p.bloqueado()).put("puede_escribir", p.puedeEscribir())
        .encode());
    }).onFailure(ctx::fail);
  }

  /** B10: the Reacción blocks the actor; every open session ends. Idempotent. */
  private void bloquear(RoutingContext ctx) {
    String actor = ctx.pathParam("actor");
    actores.bloquear(actor).onSuccess(ended -> {
      if (ended.isEmpty()) {
        ApiErrors.send(ctx, 404, "unknown_actor", "actor " + actor + " is not registered in the Gestor");
        return;
      }
      ctx.response().putHeader("content-type", "application/json").end(new JsonObject()
        .put("actor", actor).put("bloqueado", true).put("sesiones_terminadas", ended.get()).encode());
    }).onFailure(ctx::fail);
  }
}
