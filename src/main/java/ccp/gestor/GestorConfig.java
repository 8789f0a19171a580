package ccp.gestor;

import ccp.platform.config.Settings;

/**
 * The Gestor de sesión's settings: the port its HiloPeticion listens on ({@code gestor.port}), how long it warms its
 * session route before its process is ready ({@code gestor.warm-up-ms}, 0: no warm-up; {@link WarmUp}), and how long
 * the Verificador's queue may keep a session waiting before new sessions are refused
 * ({@code gestor.admission-max-verificador-lag-ms}; 0: never, and the lag is not read).
 */
public record GestorConfig(int port, long warmUpMs, long maxRetrasoVerificadorMs) {

  public static GestorConfig from(Settings settings) {
    return new GestorConfig(settings.integer("gestor.port"), settings.integer("gestor.warm-up-ms"),
      settings.integer("gestor.admission-max-verificador-lag-ms"));
  }
}
