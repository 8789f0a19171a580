package ccp.app;

import ccp.cadena.CadenaConfig;
import ccp.etapas.EtapasConfig;
import ccp.gateway.GatewayConfig;
import ccp.gestor.GestorConfig;
import ccp.pedidos.PedidosConfig;
import ccp.platform.config.Settings;
import ccp.seguridad.SeguridadConfig;
import ccp.vigilancia.VigilanciaConfig;

/**
 * Every process group's typed settings, built once per process from its validated settings, and the batch of the Lista
 * de revocación lookups that every role's App door makes ({@code revocacion.lote-max}).
 */
record RoleConfigs(GatewayConfig gateway, GestorConfig gestor, SeguridadConfig seguridad, PedidosConfig pedidos,
                   CadenaConfig cadena, EtapasConfig etapas, VigilanciaConfig vigilancia, int revocacionLoteMax) {

  static RoleConfigs from(Settings settings) {
    return new RoleConfigs(GatewayConfig.from(settings), GestorConfig.from(settings), SeguridadConfig.from(settings),
      PedidosConfig.from(settings), CadenaConfig.from(settings), EtapasConfig.from(settings), VigilanciaConfig.from(settings),
      settings.integer("revocacion.lote-max"));
  }
}
