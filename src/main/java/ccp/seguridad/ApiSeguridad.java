package ccp.seguridad;

import ccp.platform.role.RoleContext;
import ccp.platform.http.Actor;
import ccp.platform.http.ApiErrors;
import ccp.platform.http.JsonBody;
import ccp.platform.http.JsonResponse;
import ccp.platform.http.Tokens;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * The security area's HTTP API (profile SEGURIDAD): the delivered alerts ({@code GET /v1/alertas}) and the
 * registration of a vendedor's legitimate device change ({@code PUT /v1/dispositivos/{vendedor}}) through
 * ControladorRegistro. A vendedor cannot register a device for itself: a stolen token would then silence ASR-1. And the
 * lift of a revocation ({@code POST /v1/revocaciones/{actor}/levantamiento}), recorded with who, when and why.
 */
final class ApiSeguridad extends VerticleBase {

  private static final int MAX_LIMIT = 500;
  private static final Pattern MOTIVO = Pattern.compile("[^\\p{Cntrl}]{1,500}");

  private final RoleContext role;
  private final int port;
  private Avisos avisos;
  private ControladorRegistro registro;
  private RegistroReacciones reacciones;

  ApiSeguridad(RoleContext role, int port) {
    this.role = role;
    this.port = port;
  }

  @Override
  public Future<?> start() {
    avisos = new Avisos(role.sql());
    registro = new ControladorRegistro(role.sql());
    reacciones = new RegistroReacciones(role.sql());
    Router router = role.router(vertx);
    role.guardApp(router).handler(Tokens.requirePerfil("SEGURIDAD"));
    router.get("/v1/alertas").handler(this::listarAlertas);
    router.put("/v1/dispositivos/:vendedor").handler(this::registrarCambio);
    router.post("/v1/revocaciones/:actor/levantamiento").handler(this::levantar);
    return role.listen(vertx, router, port, 1);
  }

  private void listarAlertas(RoutingContext ctx) {
    String actor = ctx.queryParams().get("actor") == null ? null : JsonBody.actorId(ctx.queryParams().get("actor"), "actor");
    int limit = limit(ctx.queryParams().get("limit"));
    avisos.listar(actor, limit)
      .onSuccess(list -> JsonResponse.ok(ctx, new JsonObject().put("alertas", list)))
      .onFailure(ctx::fail);
  }

  private void registrarCambio(RoutingContext ctx) {
    String vendedor = JsonBody.actorId(ctx.pathParam("vendedor"), "vendedor");
    JsonObject body = JsonBody.object(ctx, Set.of("huella"));
    String huella = JsonBody.huella(body);
    registro.registrarCambio(vendedor, huella)
      .onSuccess(r -> JsonResponse.ok(ctx, new JsonObject()
        .put("vendedor", r.vendedor()).put("huella", r.huella()).put("origen", r.origen())
        .put("registrado_en", r.registradoEn().toInstant().toString())))
      .onFailure(ctx::fail);
  }

  /** A person of the area lifts an actor's revocation, with a reason; the audit row is the answer. */
  private void levantar(RoutingContext ctx) {
    String actor = JsonBody.actorId(ctx.pathParam("actor"), "actor");
    String motivo = JsonBody.text(JsonBody.object(ctx, Set.of("motivo")), "motivo", MOTIVO, "1 to 500 printable characters");
    reacciones.levantar(actor, Actor.of(ctx).id(), motivo).onSuccess(levantamiento -> {
      if (levantamiento.isEmpty()) ApiErrors.send(ctx, 404, "not_revoked", "actor " + actor + " is not in the revocation list");
      else JsonResponse.ok(ctx, levantamiento.get().toJson());
    }).onFailure(ctx::fail);
  }

  private static int limit(String raw) {
    if (raw == null) return 100;
    try {
      int value = Integer.parseInt(raw);
      if (value >= 1 && value <= MAX_LIMIT) return value;
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new JsonBody.BadRequest("limit", "must be an integer from 1 to " + MAX_LIMIT);
  }
}
