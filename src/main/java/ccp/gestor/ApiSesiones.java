package ccp.gestor;

import ccp.platform.http.Actor;
import ccp.platform.http.ApiErrors;
import ccp.platform.http.BacklogAdmission;
import ccp.platform.http.JsonBody;
import ccp.platform.http.JsonResponse;
import ccp.platform.http.Tokens;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.UUID;

/**
 * The App's session route (A2–A3): records the session, hands {@code SesionAbierta} (with t0) to the Productor de
 * eventos and answers 201 once the broker acknowledged it, without waiting for any verification.
 */
final class ApiSesiones implements AppApi {

  private static final Logger LOG = LoggerFactory.getLogger(ApiSesiones.class);

  private final EventPublisher publisher;
  private final ProductorEventos productor;
  private final Actores actores;
  /** Refuses sessions while the Verificador runs behind ({@link Gestor}). */
  private final BacklogAdmission verificadorAtrasado;

  ApiSesiones(RoleContext role) {
    this.publisher = EventPublisher.create(role.vertx(), role.kafka());
    this.productor = new ProductorEventos(publisher);
    this.actores = new Actores(role.sql());
    this.verificadorAtrasado = new BacklogAdmission(role.vertx(), Gestor.RETRASO_VERIFICADOR);
  }

  @Override
  public void mount(Router router) {
    // The warm-up's sessions pass the Verificador's door: they come before the process is ready, which then waits for
    // the Verificador to have checked them (Gestor.warmUp); refused, they would warm the refusal instead of the session.
    router.post("/v1/sesiones").handler(ctx -> {
      if (Tokens.ofWarmUp(ctx)) ctx.next();
      else verificadorAtrasado.handle(ctx);
    }).handler(this::abrirSesion);
  }

  @Override
  public Future<Void> close() {
    return Future.all(publisher.close(), verificadorAtrasado.close()).mapEmpty();
  }

  private void abrirSesion(RoutingContext ctx) {
    String huella = JsonBody.of(ctx).getString("huella");
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
          .onFailure(err -> actores.cancelarSesion(sesion)
            .onFailure(e -> LOG.warn("Session {} of {} could not be closed after the broker refused it: {}", sesion, actor.id(), e.toString())))
          .onSuccess(ok -> {
            ctx.response().putHeader("location", "/v1/sesiones/" + sesion);
            JsonResponse.send(ctx, 201, new JsonObject().put("sesion", sesion).put("vendedor", actor.id()).put("t0", t0.toString()));
          });
      }
    }).onFailure(err -> {
      LOG.warn("Session of {} not opened: {}", actor.id(), err.toString());
      ApiErrors.send(ctx, 503, "unavailable", "the session could not be recorded; retry");
    });
  }
}
