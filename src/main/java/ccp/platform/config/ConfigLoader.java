package ccp.platform.config;

import io.vertx.config.ConfigRetriever;
import io.vertx.config.ConfigRetrieverOptions;
import io.vertx.config.ConfigStoreOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.Map;

/** Reads {@code conf/ccp.json} (from the working directory, else from the jar) and the environment with vertx-config. */
public final class ConfigLoader {

  public static final String DEFAULT_FILE = "conf/ccp.json";

  private ConfigLoader() {}

  public static Future<Settings> load(Vertx vertx, String file) {
    ConfigStoreOptions json = new ConfigStoreOptions().setType("file").setFormat("json")
      .setConfig(new JsonObject().put("path", file));
    ConfigStoreOptions env = new ConfigStoreOptions().setType("env").setConfig(new JsonObject().put("raw-data", true));
    ConfigRetriever fileOnly = ConfigRetriever.create(vertx, new ConfigRetrieverOptions().addStore(json).setScanPeriod(0));
    ConfigRetriever envOnly = ConfigRetriever.create(vertx, new ConfigRetrieverOptions().addStore(env).setScanPeriod(0));
    return Future.all(fileOnly.getConfig(), envOnly.getConfig())
      .recover(err -> Future.failedFuture(new ConfigException("cannot read configuration file " + file + ": " + rootMessage(err))))
      .map(all -> {
        JsonObject defaults = all.resultAt(0);
        JsonObject environment = all.resultAt(1);
        Map<String, String> vars = new HashMap<>();
        environment.forEach(e -> vars.put(e.getKey(), String.valueOf(e.getValue())));
        return Settings.from(defaults, vars);
      })
      .eventually(() -> {
        fileOnly.close();
        envOnly.close();
        return Future.succeededFuture();
      });
  }

  private static String rootMessage(Throwable err) {
    Throwable t = err;
    while (t.getCause() != null) t = t.getCause();
    return t.getMessage();
  }
}
