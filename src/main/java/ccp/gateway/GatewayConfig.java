package ccp.gateway;

import ccp.platform.config.Settings;

/**
 * The gateway's settings: the port it listens on ({@code gateway.port}) and where each role it forwards to listens
 * ({@code *.url}).
 */
public record GatewayConfig(int port, String gestorUrl, String pedidosUrl, String seguridadUrl, String cadenaUrl,
                            String inventarioUrl) {

  public static GatewayConfig from(Settings settings) {
    return new GatewayConfig(settings.integer("gateway.port"), settings.text("gestor.url"), settings.text("pedidos.url"),
      settings.text("seguridad.url"), settings.text("cadena.url"), settings.text("inventario.url"));
  }
}
