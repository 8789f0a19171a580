package ccp.cadena;

import ccp.platform.async.PeriodicTask;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import io.micrometer.core.instrument.Gauge;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.ext.web.Router;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The cadena role's own port ({@code cadena.port}) for the Bandeja's and Logística's routes, behind the token and
 * revocation checks; and the gauge of the Bandeja's open items ({@code bandeja_abiertos}).
 */
final class ServidorBandeja extends VerticleBase {

  private static final long CONTEO_MS = 2000;

  private final RoleContext role;
  private final CadenaConfig config;
  private AppApi api;
  private PeriodicTask contador;

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
    // The ASR board's open count (GET /v1/metricas): the Bandeja's open items, counted every CONTEO_MS.
    AtomicLong abiertos = new AtomicLong();
    Gauge.builder("bandeja_abiertos", abiertos, AtomicLong::get).description("Open items of the Bandeja de pedidos escalados")
      .register(role.registry());
    RepositorioBandeja bandeja = new RepositorioBandeja(role.sql());
    contador = PeriodicTask.every(vertx, CONTEO_MS, "Bandeja open count", () -> bandeja.abiertosBandeja().onSuccess(abiertos::set));
    return role.listen(vertx, router, config.port(), 1);
  }

  @Override
  public Future<?> stop() {
    contador.cancel();
    return api.close();
  }
}
