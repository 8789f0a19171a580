package ccp.app;

import ccp.Main;
import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import ccp.platform.http.Tokens;
import io.vertx.core.Vertx;

import java.util.Locale;
import java.util.Set;

/** {@code token <actor> [--perfil=VENDEDOR]}: prints a bearer token signed with the configured (or development) key. */
public final class TokenCommand {

  private TokenCommand() {}

  public static void run(Settings settings, Main.Arguments arguments) {
    arguments.allowOnly(Set.of("perfil", "conf"));
    if (arguments.positional().size() != 1) throw new ConfigException("token needs exactly one actor id, e.g. token vendedor-1");
    String perfil = arguments.flag("perfil", "VENDEDOR").toUpperCase(Locale.ROOT);
    if (!Tokens.PERFILES.contains(perfil)) throw new ConfigException("unknown perfil '" + perfil + "' (valid: " + Tokens.PERFILES + ")");
    Vertx vertx = Vertx.vertx();
    try {
      System.out.println(Tokens.create(vertx, settings).mint(arguments.positional().get(0), perfil));
    } finally {
      vertx.close();
    }
  }
}
