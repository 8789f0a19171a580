package ccp.app;

import ccp.platform.cli.ConfOption;
import ccp.platform.infra.Infrastructure;
import ccp.platform.infra.LocalServers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** {@code run [--role=all|r1,r2] [--conf=<file>]}: starts the roles in this process and serves until stopped. */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Run roles of the view in this process (the default command).")
public final class RunCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);

  @Option(names = "--role", paramLabel = "<roles>", defaultValue = "all",
    description = "all (default), or a comma list of roles, e.g. gestor,seguridad")
  String roles;

  @Mixin
  ConfOption conf;

  private final LocalServers local;

  /** {@code local}: what starts a broker or database the configuration leaves unset. */
  public RunCommand(LocalServers local) {
    this.local = local;
  }

  @Override
  public Integer call() throws Exception {
    Set<Role> parsed = Role.parse(roles);
    long began = System.nanoTime();
    Infrastructure infrastructure = Infrastructure.start(conf.settings(), local, KafkaAccess.grants());
    Application app;
    try {
      app = Application.start(infrastructure.settings(), parsed).await(120, TimeUnit.SECONDS);
    } catch (Exception e) {
      infrastructure.close();
      throw e;
    }
    LOG.info("Ready in {} ms: management on port {}", (System.nanoTime() - began) / 1_000_000, app.managementPort());
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        app.stop().await(30, TimeUnit.SECONDS);
      } catch (Exception e) {
        LOG.warn("Stopping the roles failed", e);
      }
      infrastructure.close();
    }, "ccp-shutdown"));
    return 0;
  }
}
