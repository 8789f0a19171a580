package ccp.gateway;

import ccp.platform.config.Settings;
import ccp.platform.http.JwtConfig;

import java.nio.file.Path;

/**
 * The gateway's settings: the port it listens on ({@code gateway.port}), where each role it forwards to listens
 * ({@code *.url}) and its console's sign-in: the OIDC issuer and public client of {@code consola.oidc.*}, and — for the
 * development sign-in — the data directory and the App's token settings.
 */
public record GatewayConfig(int port, String gestorUrl, String pedidosUrl, String seguridadUrl, String cadenaUrl,
                            String inventarioUrl, String oidcIssuer, String oidcClientId, Path dataDir, JwtConfig jwt) {

  public static GatewayConfig from(Settings settings) {
    return new GatewayConfig(settings.integer("gateway.port"), settings.text("gestor.url"), settings.text("pedidos.url"),
      settings.text("seguridad.url"), settings.text("cadena.url"), settings.text("inventario.url"),
      settings.text("consola.oidc.issuer"), settings.text("consola.oidc.client-id"), settings.dataDir(), JwtConfig.from(settings));
  }
}
