package ccp.vigilancia;

import ccp.platform.db.Liderazgo;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Monitor de la cadena, "1 leader + 1 standby" ({@link Liderazgo}): only the leader runs the scheduled threads
 * (BarridoPlazos, SondeoSalud); when the leader's process dies the standby's next try (every
 * {@code vigilancia.liderazgo-ms}) wins.
 */
final class MonitorCadena extends VerticleBase {

  /** The advisory lock's key: any constant shared by every monitor of the system. */
  static final long LOCK_KEY = 0x43435076_69676C6CL;

  private final RoleContext role;
  private final VigilanciaConfig config;
  private Liderazgo liderazgo;
  private final List<String> hilos = new ArrayList<>();

  MonitorCadena(RoleContext role, VigilanciaConfig config) {
    this.role = role;
    this.config = config;
  }

  /** Not awaited: the process is ready as a standby too. */
  @Override
  public Future<?> start() {
    liderazgo = new Liderazgo(vertx, role.db().connectOptions(), LOCK_KEY, "the chain monitor", this::asumir, this::retirar);
    role.health().readyWhen("vigilancia", context, () -> new JsonObject().put("ready", true).put("lider", liderazgo.lider()));
    liderazgo.start(config.liderazgo());
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    role.health().forget("vigilancia");
    return liderazgo.stop();
  }

  private Future<Void> asumir() {
    return Future.join(
        vertx.deployVerticle(new BarridoPlazos(role, config)).onSuccess(hilos::add),
        vertx.deployVerticle(new SondeoSalud(role, config)).onSuccess(hilos::add))
      .mapEmpty();
  }

  private Future<Void> retirar() {
    List<String> ids = List.copyOf(hilos);
    hilos.clear();
    // At this verticle's own undeployment Vert.x has already undeployed its children: only those still deployed go.
    return Future.join(ids.stream().filter(vertx.deploymentIDs()::contains).map(id -> vertx.undeploy(id)).toList()).mapEmpty();
  }
}
