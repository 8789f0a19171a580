package ccp.app;

import ccp.platform.cli.ConfOption;
import ccp.platform.config.ConfigException;
import ccp.platform.config.DevelopmentKey;
import ccp.platform.http.JwtConfig;
import ccp.platform.http.Tokens;
import io.vertx.core.Vertx;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code token <actor> [--perfil=VENDEDOR]}: prints a bearer token signed with the configured (or development) key. */
@Command(name = "token", mixinStandardHelpOptions = true, description = "Print a bearer token for an actor.")
public final class TokenCommand implements Callable<Integer> {

  @Parameters(arity = "0..1", paramLabel = "<actor>", description = "the actor id, e.g. vendedor-1")
  String actor;

  @Option(names = "--perfil", defaultValue = "VENDEDOR", description = "the actor's profile (default: ${DEFAULT-VALUE})")
  String perfil;

  @Mixin
  ConfOption conf;

  @Override
  public Integer call() throws Exception {
    if (actor == null) throw new ConfigException("token needs exactly one actor id, e.g. token vendedor-1");
    String upper = perfil.toUpperCase(Locale.ROOT);
    if (!Tokens.PERFILES.contains(upper)) throw new ConfigException("unknown perfil '" + perfil + "' (valid: " + Tokens.PERFILES + ")");
    Vertx vertx = Vertx.vertx();
    try {
      Tokens tokens = Tokens.create(vertx, JwtConfig.from(DevelopmentKey.resolve(conf.settings())));
      System.out.println(tokens.mint(actor, upper));
    } finally {
      vertx.close();
    }
    return 0;
  }
}
