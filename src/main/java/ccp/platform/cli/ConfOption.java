package ccp.platform.cli;

import ccp.platform.config.ConfigLoader;
import ccp.platform.config.Settings;
import io.vertx.core.Vertx;
import picocli.CommandLine.Option;

import java.util.concurrent.TimeUnit;

/** {@code --conf=<file>}: the validated settings of a command, from the file and the {@code CCP_*} environment. */
public final class ConfOption {

  @Option(names = "--conf", paramLabel = "<file>", defaultValue = ConfigLoader.DEFAULT_FILE,
    description = "configuration file (default: ${DEFAULT-VALUE}, else the jar's copy); CCP_* variables override it")
  String file;

  /** The file given, for a process the command starts with the same configuration. */
  public String file() {
    return file;
  }

  public Settings settings() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      return ConfigLoader.load(vertx, file).await(30, TimeUnit.SECONDS);
    } finally {
      vertx.close();
    }
  }
}
