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

  /**
   * Adds the doors that refuse a request for the work behind it (an outbox or a chain running late), mounted before
   * the token check, the Lista de revocación and the contract's validation: under overload most requests are refused,
   * and a refusal that had first verified a token, read the list and validated a body spent on it what the accepted
   * ones needed. A door that needs to know the caller stays in {@link #mount}.
   */
  default void doors(Router router) {}

  Future<Void> close();

  /** A role's routes made of several sets, mounted in order and closed together. */
  static AppApi all(AppApi... apis) {
    return new AppApi() {
      @Override
      public void mount(Router router) {
        for (AppApi api : apis) api.mount(router);
      }

      @Override
      public void doors(Router router) {
        for (AppApi api : apis) api.doors(router);
      }

      @Override
      public Future<Void> close() {
        return Future.join(Arrays.stream(apis).map(AppApi::close).toList()).mapEmpty();
      }
    };
  }
}
