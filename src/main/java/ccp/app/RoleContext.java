package ccp.app;

import ccp.platform.config.Settings;
import ccp.platform.http.Health;
import ccp.platform.http.Tokens;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.sqlclient.SqlClient;

import java.util.Set;
import java.util.function.Supplier;

/**
 * What a role's verticles are built from: the process's Vert.x, settings, the roles it runs, its database client,
 * meters, health and tokens.
 */
public record RoleContext(Vertx vertx, Settings settings, Set<Role> roles, SqlClient sql, MeterRegistry registry,
                          Health health, Tokens tokens) {

  /** Instances for an HTTP verticle: {@code http.instances}, or one per event loop when it is 0. */
  public int httpInstances() {
    int configured = settings.integer("http.instances");
    return configured > 0 ? configured : 2 * Runtime.getRuntime().availableProcessors();
  }

  public Future<String> deploy(Supplier<VerticleBase> verticle, int instances) {
    return vertx.deployVerticle(verticle, new DeploymentOptions().setInstances(instances));
  }
}
