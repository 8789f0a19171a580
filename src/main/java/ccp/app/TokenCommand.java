package ccp.app;

import ccp.platform.cli.ConfOption;
import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import ccp.platform.http.Tokens;
import ccp.platform.infra.DevIssuer;
import io.vertx.core.Vertx;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code token <actor> [--perfil=VENDEDOR]}: prints an App token signed by the development issuer of the data
 * directory (a laptop run). Production tokens come from the identity provider at {@code jwt.jwks-url}; role-to-role
 * calls are signed by each role's own key, so no profile here reaches {@code /interno/*}.
 */
@Command(name = "token", mixinStandardHelpOptions = true, description = "Print a development App token for an actor.")
public final class TokenCommand implements Callable<Integer> {

  @Parameters(arity = "0..1", paramLabel = "<actor>", description = "the actor id, e.g. vendedor-1")
  String actor;

  @Option(names = "--perfil", defaultValue = "VENDEDOR",
    description = "the actor's profile in the Gestor: VENDEDOR (default), CONSULTA, SEGURIDAD, OPERADOR or BODEGA")
  String perfil;

  @Mixin
  ConfOption conf;

  @Override
  public Integer call() throws Exception {
    if (actor == null) throw new ConfigException("token needs exactly one actor id, e.g. token vendedor-1");
    String upper = perfil.toUpperCase(Locale.ROOT);
    if (!Tokens.PERFILES.contains(upper)) {
      throw new ConfigException("perfil '" + perfil + "' is not an App profile (valid: " + Tokens.PERFILES.stream().sorted().toList()
        + "); role-to-role calls are signed by the calling role's own key, never by a token from here");
    }
    Settings settings = conf.settings();
    if (!settings.embeddedPostgres()) {
      throw new ConfigException("token mints with the development issuer of a laptop run: with " + Settings.envName("pg.host")
        + " set, App tokens come from the identity provider at " + Settings.envName("jwt.jwks-url"));
    }
    Vertx vertx = Vertx.vertx();
    try {
      System.out.println(DevIssuer.open(vertx, settings).mint(actor, upper));
    } finally {
      vertx.close();
    }
    return 0;
  }
}
