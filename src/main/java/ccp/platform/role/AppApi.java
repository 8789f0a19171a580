package ccp.platform.role;

import io.vertx.core.Future;
import io.vertx.ext.web.Router;

import java.util.Arrays;

/**
 * The App-facing routes of a role, built inside the verticle that serves them (their state is that verticle's). The
 * role's own HiloPeticion mounts them behind its token check; a gateway in the same process mounts them behind its
 * token check and the Lista de revocación, instead of forwarding over HTTP.
 */
public interface AppApi {

  /** Adds the routes; a handler before them has attached the authenticated {@code Actor}. */
  void mount(Router router);

  Future<Void> close();

  /** A role's routes made of several sets, mounted in order and closed together. */
  static AppApi all(AppApi... apis) {
    return new AppApi() {
      @Override
      public void mount(Router router) {
        for (AppApi api : apis) api.mount(router);
      }

      @Override
      public Future<Void> close() {
        return Future.join(Arrays.stream(apis).map(AppApi::close).toList()).mapEmpty();
      }
    };
  }
}
