package ccp.gestor;

import ccp.platform.config.Settings;

/** The Gestor de sesión's settings: the port its HiloPeticion listens on ({@code gestor.port}). */
public record GestorConfig(int port) {

  public static GestorConfig from(Settings settings) {
    return new GestorConfig(settings.integer("gestor.port"));
  }
}
