package ccp.pedidos;

import ccp.platform.config.Settings;
import ccp.platform.outbox.OutboxConfig;

/** Pedidos' settings: the port its HiloPeticion listens on ({@code pedidos.port}) and how its RelevoOutbox drains. */
public record PedidosConfig(int port, OutboxConfig outbox) {

  public static PedidosConfig from(Settings settings) {
    return new PedidosConfig(settings.integer("pedidos.port"), OutboxConfig.from(settings));
  }
}
