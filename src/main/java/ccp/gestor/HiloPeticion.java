package ccp.gestor;

import ccp.platform.http.ApiErrors;
import ccp.platform.http.JsonBody;
import ccp.platform.http.JsonResponse;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Set;

/**
 * HiloPeticion of the Gestor de sesión (A2–A3): serves the App's session route ({@link ApiSesiones}) and the internal
 * calls of flow B: the writer's current permissions (B5) and blocking an actor (B10). Deployed with one instance per
 * event loop: the view's "thread pool, one thread per request".
 */
final class HiloPeticion extends VerticleBase {

  /** The most actors one permissions request may name: the largest {@code detector.lote-max}. */
  static final int MAX_ACTORES = 256;
  private static final String GESTOR = "gestor";
  private static final String SEGURIDAD = "seguridad";

  private final RoleContext role;
  private final int port;
  private AppApi api;
  private Actores actores;

  HiloPeticion(RoleContext role, int port) {
    this.role = role;
    this.port = port;
  }

  @Override
  public Future<?> start() {
    api = new ApiSesiones(role);
    actores = new Actores(role.sql());
    Router router = role.router(vertx);
    role.guardApp(router);
    api.mount(router);
    // The Detector (B5) and the Reacción (B10) are role seguridad: no other role calls the Gestor.
    role.interno(router, "/interno/actores/permisos", GESTOR, SEGURIDAD).handler(this::permisos);
    role.interno(router, "/interno/actores/:actor/bloqueo", GESTOR, SEGURIDAD).handler(this::bloquear);
    return role.listen(vertx, router, port, role.httpInstances());
  }

  @Override
  public Future<?> stop() {
    return api.close();
  }

  /**
   * B5: the Detector reads the current permissions of the writers of its pending writes, several in one request
   * ({@code {"actores": [...]}}); an actor the Gestor does not know is absent from the answer.
   */
  private void permisos(RoutingContext ctx) {
    List<String> ids = JsonBody.actorIds(JsonBody.object(ctx, Set.of("actores")), "actores", MAX_ACTORES);
    actores.permisos(ids).onSuccess(found -> {
      JsonArray permisos = new JsonArray();
      for (Actores.Permisos p : found) {
        permisos.add(new JsonObject().put("actor", p.actor()).put("perfil", p.perfil()).put("bloqueado", p.bloqueado())
          .put("escribe_en", new JsonArray(p.escribeEn())));
      }
      JsonResponse.ok(ctx, new JsonObject().put("permisos", permisos));
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
      JsonResponse.ok(ctx, new JsonObject().put("actor", actor).put("bloqueado", true).put("sesiones_terminadas", ended.get()));
    }).onFailure(ctx::fail);
  }
}
