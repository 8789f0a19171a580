package ccp.cadena;

import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.ext.web.Router;

/**
 * The cadena role's own port ({@code cadena.port}) for the Bandeja's and Logística's routes, behind the token and
 * revocation checks.
 */
final class ServidorBandeja extends VerticleBase {

  private final RoleContext role;
  private final CadenaConfig config;
  private AppApi api;

  ServidorBandeja(RoleContext role, CadenaConfig config) {
    this.role = role;
    this.config = config;
  }

  @Override
  public Future<?> start() {
    api = Cadena.api(role, config);
    Router router = role.router(vertx);
    role.guardApp(router);
    api.mount(router);
    return role.listen(vertx, router, config.port(), 1);
  }

  @Override
  public Future<?> stop() {
    return api.close();
  }
}
