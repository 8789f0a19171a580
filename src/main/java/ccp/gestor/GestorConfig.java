package ccp.gestor;

import ccp.platform.config.Settings;

/**
 * The Gestor de sesión's settings: the port its HiloPeticion listens on ({@code gestor.port}) and how long it warms its
 * session route before its process is ready ({@code gestor.warm-up-ms}, 0: no warm-up; {@link WarmUp}).
 */
public record GestorConfig(int port, long warmUpMs) {

  public static GestorConfig from(Settings settings) {
    return new GestorConfig(settings.integer("gestor.port"), settings.integer("gestor.warm-up-ms"));
  }
}
