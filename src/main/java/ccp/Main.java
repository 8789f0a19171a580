package ccp;

import ccp.app.Application;
import ccp.app.InfraProcess;
import ccp.app.Role;
import ccp.app.TokenCommand;
import ccp.carga.CargaPedidos;
import ccp.carga.CargaSesiones;
import ccp.lab.Lab;
import ccp.platform.config.ConfigException;
import ccp.platform.config.ConfigLoader;
import ccp.platform.config.Settings;
import ccp.platform.http.DevelopmentKey;
import ccp.platform.infra.Infrastructure;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar reto2-ccp.jar [run] [--role=all|r1,r2] [--conf=conf/ccp.json]} runs roles;
 * {@code token <actor> [--perfil=P]} prints a development token; {@code carga-sesiones [...]} drives load;
 * {@code lab [...]} runs the critical-section lab.
 * A bad command, flag or configuration value exits with status 2 and one line that names it.
 */
public final class Main {

  private static final Logger LOG = LoggerFactory.getLogger(Main.class);
  static final String USAGE = "usage: java -jar reto2-ccp.jar [run] [--role=<" + Role.valid() + ">] [--conf=<file>]"
    + " | token <actor> [--perfil=VENDEDOR|CONSULTA|SEGURIDAD] | carga-sesiones [--rate=N] [--duration=S] [--unknown=F]"
    + " | carga-pedidos [--rate=N] [--duration=S] [--improper=F]"
    + " | lab [--requests=N] [--workers=N] [--stock=N] [--products=N] [--slow-ms=MS] [--coarse-ms=A,B,C,D] [--timeout-ms=MS]"
    + " [--permits=N] [--strategies=a,b] [--sweep=1,2,..|none] [--budget-s=S] [--multi=true|false] [--etapa=true|false] [--out=DIR]";

  private Main() {}

  public static void main(String[] args) {
    try {
      run(args);
    } catch (ConfigException e) {
      System.err.println("reto2-ccp: " + e.getMessage());
      System.exit(2);
    } catch (Exception e) {
      LOG.error("Start-up failed", e);
      System.err.println("reto2-ccp: start-up failed: " + e.getMessage());
      System.exit(1);
    }
  }

  private static void run(String[] args) throws Exception {
    Arguments arguments = Arguments.parse(args);
    Settings settings = loadSettings(arguments.flags().getOrDefault("conf", ConfigLoader.DEFAULT_FILE));
    switch (arguments.command()) {
      case "run" -> runRoles(settings, arguments);
      case "token" -> TokenCommand.run(DevelopmentKey.resolve(settings), arguments);
      case "carga-sesiones" -> CargaSesiones.run(DevelopmentKey.resolve(settings), arguments);
      case "carga-pedidos" -> CargaPedidos.run(DevelopmentKey.resolve(settings), arguments);
      case "lab", "lab-instancia" -> Lab.run(settings, arguments);
      default -> throw new ConfigException("unknown command '" + arguments.command() + "' (valid: run, token, carga-sesiones, carga-pedidos, lab)");
    }
  }

  private static void runRoles(Settings settings, Arguments arguments) throws Exception {
    arguments.allowOnly(Set.of("role", "conf"));
    if (arguments.flag("role", "").trim().equalsIgnoreCase(InfraProcess.ROLE)) {
      runInfra(settings);
      return;
    }
    Set<Role> roles = Role.parse(arguments.flags().getOrDefault("role", "all"));
    long began = System.nanoTime();
    Settings withKey = DevelopmentKey.resolve(settings);
    Infrastructure infrastructure = Infrastructure.start(withKey);
    Application app;
    try {
      app = Application.start(infrastructure.settings(), roles).await(120, TimeUnit.SECONDS);
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
  }

  private static void runInfra(Settings settings) throws Exception {
    InfraProcess infra = InfraProcess.start(settings);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        infra.close();
      } catch (Exception e) {
        LOG.warn("Stopping the infrastructure failed", e);
      }
    }, "ccp-shutdown"));
  }

  private static Settings loadSettings(String file) throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      return ConfigLoader.load(vertx, file).await(30, TimeUnit.SECONDS);
    } finally {
      vertx.close();
    }
  }

  /** The command (first word, {@code run} when absent) and its {@code --name=value} flags. */
  public record Arguments(String command, List<String> positional, Map<String, String> flags) {

    static Arguments parse(String[] args) {
      String command = "run";
      List<String> positional = new java.util.ArrayList<>();
      Map<String, String> flags = new LinkedHashMap<>();
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        if (arg.equals("--help") || arg.equals("-h")) throw new ConfigException(USAGE);
        if (arg.startsWith("--")) {
          int eq = arg.indexOf('=');
          if (eq < 3) throw new ConfigException("bad flag '" + arg + "' (expected --name=value); " + USAGE);
          flags.put(arg.substring(2, eq), arg.substring(eq + 1));
        } else if (i == 0) {
          command = arg;
        } else {
          positional.add(arg);
        }
      }
      return new Arguments(command, positional, flags);
    }

    public void allowOnly(Set<String> names) {
      for (String name : flags.keySet()) {
        if (!names.contains(name)) {
          throw new ConfigException("unknown flag --" + name + " for '" + command + "' (valid: "
            + names.stream().sorted().map(n -> "--" + n).toList() + ")");
        }
      }
    }

    public String flag(String name, String fallback) {
      return flags.getOrDefault(name, fallback);
    }
  }
}
