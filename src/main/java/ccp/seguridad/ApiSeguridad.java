package ccp.seguridad;

import ccp.platform.role.RoleContext;
import ccp.platform.http.Actor;
import ccp.platform.http.ApiErrors;
import ccp.platform.http.EventStream;
import ccp.platform.http.JsonBody;
import ccp.platform.http.JsonResponse;
import ccp.platform.http.Tokens;
import ccp.platform.kafka.EventPublisher;
import ccp.seguridad.ssf.ApiSsf;
import ccp.seguridad.ssf.ClavesEmisor;
import ccp.seguridad.ssf.FirmaSet;
import ccp.seguridad.ssf.MedidasSsf;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The security area's HTTP API (profile SEGURIDAD): the delivered alerts ({@code GET /v1/alertas}) and the
 * registration of a vendedor's legitimate device change ({@code PUT /v1/dispositivos/{vendedor}}) through
 * ControladorRegistro. A vendedor cannot register a device for itself: a stolen token would then silence ASR-1. And the
 * lift of a revocation ({@code POST /v1/revocaciones/{actor}/levantamiento}), recorded with who, when and why. On the
 * same port, the Shared Signals transmitter's metadata, keys, stream management and poll ({@link ApiSsf}) and, when an
 * identity provider is configured, the receiver of its SETs ({@link ReceptorSenales}). For the console: the live feed of
 * alerts and of changes to who is stopped ({@code GET /v1/alertas/flujo}, {@link FuenteAlertas}) and the revoked and
 * blocked actors with their reactions ({@code GET /v1/revocaciones}, {@link Revocaciones}).
 */
final class ApiSeguridad extends VerticleBase {

  private final RoleContext role;
  private final SeguridadConfig config;
  private final FirmaSet firma;
  private Avisos avisos;
  private ControladorRegistro registro;
  private RegistroReacciones reacciones;
  private Revocaciones revocaciones;
  private ClavesEmisor claves;
  private EventPublisher publisher;
  private ApiSsf ssf;

  ApiSeguridad(RoleContext role, SeguridadConfig config, FirmaSet firma) {
    this.role = role;
    this.config = config;
    this.firma = firma;
  }

  @Override
  public Future<?> start() {
    avisos = new Avisos(role.sql());
    registro = new ControladorRegistro(role.sql());
    reacciones = new RegistroReacciones(role.sql());
    revocaciones = new Revocaciones(role.sql());
    Router router = role.router(vertx);
    role.guardApp(router, Tokens.requirePerfil("SEGURIDAD"));
    router.get("/v1/alertas").handler(this::listarAlertas);
    router.get("/v1/alertas/flujo").handler(ctx -> EventStream.open(ctx, new FuenteAlertas(avisos, revocaciones)));
    router.get("/v1/revocaciones").handler(this::listarRevocaciones);
    router.put("/v1/dispositivos/:vendedor").handler(this::registrarCambio);
    router.post("/v1/revocaciones/:actor/levantamiento").handler(this::levantar);
    ssf = new ApiSsf(vertx, role.sql(), firma, config.ssf(), role.registry());
    ssf.mount(router);
    config.ssf().receptor().ifPresent(proveedor -> {
      claves = new ClavesEmisor(vertx, proveedor.jwksUrl(), role.http().clientTimeoutMs());
      publisher = EventPublisher.create(vertx, role.kafka());
      ReceptorSenales receptor = new ReceptorSenales(proveedor, claves, reacciones, new PublicadorAlertas(publisher),
        config.ssf().revocacionHoras(), MedidasSsf.recepcion(role.registry()));
      router.post(ReceptorSenales.RUTA).handler(receptor::recibir);
    });
    return role.listen(vertx, router, config.port(), 1);
  }

  @Override
  public Future<?> stop() {
    ssf.close();
    if (claves != null) claves.close();
    return publisher == null ? Future.succeededFuture() : publisher.close();
  }

  private void listarAlertas(RoutingContext ctx) {
    String actor = ctx.queryParams().get("actor");
    int limit = limit(ctx.queryParams().get("limit"));
    avisos.listar(actor, limit, "true".equals(ctx.queryParams().get("pendientes")))
      .onSuccess(list -> JsonResponse.ok(ctx, new JsonObject().put("alertas", list)))
      .onFailure(ctx::fail);
  }

  private void listarRevocaciones(RoutingContext ctx) {
    revocaciones.listar(limit(ctx.queryParams().get("limit")))
      .onSuccess(list -> JsonResponse.ok(ctx, new JsonObject().put("detenidos", list)))
      .onFailure(ctx::fail);
  }

  private void registrarCambio(RoutingContext ctx) {
    registro.registrarCambio(ctx.pathParam("vendedor"), JsonBody.of(ctx).getString("huella"))
      .onSuccess(r -> JsonResponse.ok(ctx, new JsonObject()
        .put("vendedor", r.vendedor()).put("huella", r.huella()).put("origen", r.origen())
        .put("registrado_en", r.registradoEn().toInstant().toString())))
      .onFailure(ctx::fail);
  }

  /** A person of the area lifts an actor's revocation, with a reason; the audit row is the answer. */
  private void levantar(RoutingContext ctx) {
    String actor = ctx.pathParam("actor");
    String motivo = JsonBody.of(ctx).getString("motivo");
    reacciones.levantar(actor, Actor.of(ctx).id(), motivo).onSuccess(levantamiento -> {
      if (levantamiento.isEmpty()) ApiErrors.send(ctx, 404, "not_revoked", "actor " + actor + " is not in the revocation list");
      else JsonResponse.ok(ctx, levantamiento.get().toJson());
    }).onFailure(ctx::fail);
  }

  /** The contract bounds it (1 to 500). */
  private static int limit(String raw) {
    return raw == null ? 100 : Integer.parseInt(raw);
  }
}
