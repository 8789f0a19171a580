package ccp.cadena;

import ccp.app.AppApi;
import ccp.app.RoleContext;
import ccp.platform.http.ApiRouter;
import ccp.seguridad.ListaRevocacion;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.ext.web.Router;

/** The cadena role's own port ({@code cadena.port}) for the Bandeja's routes, behind the token and revocation checks. */
public final class ServidorBandeja extends VerticleBase {

  private final RoleContext role;
  private AppApi api;

  public ServidorBandeja(RoleContext role) {
    this.role = role;
  }

  @Override
  public Future<?> start() {
    api = new ApiBandeja(role);
    Router router = ApiRouter.create(vertx, role.settings());
    router.route("/v1/*").handler(role.tokens().required())
      .handler(new ListaRevocacion(role.sql(), role.settings().integer("revocacion.lote-max")).requerirVigente(ListaRevocacion.timer(role.registry())));
    api.mount(router);
    return ApiRouter.listen(vertx, role.settings(), router, role.settings().integer("cadena.port"), 1);
  }

  @Override
  public Future<?> stop() {
    return api.close();
  }
}
