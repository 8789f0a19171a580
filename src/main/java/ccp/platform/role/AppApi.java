package ccp.platform.role;

import io.vertx.core.Future;
import io.vertx.ext.web.Router;

/**
 * The App-facing routes of a role, built inside the verticle that serves them (their state is that verticle's). The
 * role's own HiloPeticion mounts them behind its token check; a gateway in the same process mounts them behind its
 * token check and the Lista de revocación, instead of forwarding over HTTP.
 */
public interface AppApi {

  /** Adds the routes; a handler before them has attached the authenticated {@code Actor}. */
  void mount(Router router);

  Future<Void> close();
}
