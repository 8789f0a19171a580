package ccp.pedidos;

import ccp.platform.config.Settings;
import ccp.platform.outbox.OutboxConfig;

/**
 * Pedidos' settings: the port its HiloPeticion listens on ({@code pedidos.port}), how its RelevoOutbox drains, and
 * how long the order chain's queues may keep a record waiting before new orders are refused
 * ({@code pedidos.admission-max-chain-lag-ms}; 0: never, and the chain's lag is not read).
 */
public record PedidosConfig(int port, OutboxConfig outbox, long maxRetrasoCadenaMs) {

  public static PedidosConfig from(Settings settings) {
    return new PedidosConfig(settings.integer("pedidos.port"), OutboxConfig.from(settings),
      settings.integer("pedidos.admission-max-chain-lag-ms"));
  }
}
