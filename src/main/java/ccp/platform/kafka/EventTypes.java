package ccp.platform.kafka;

/** The {@code type} of each event in its envelope: producers and consumers of different roles agree here. */
public final class EventTypes {

  public static final String SESION_ABIERTA = "ccp.sesion.abierta";
  public static final String ALERTA_SEGURIDAD = "ccp.alerta.seguridad";
  public static final String ESCRITURA_REALIZADA = "ccp.escritura.realizada";
  public static final String ETAPA_EJECUTAR = "ccp.etapa.ejecutar";
  public static final String ETAPA_COMPLETADA = "ccp.etapa.completada";
  public static final String PEDIDO_LISTO = "ccp.pedido.listo";
  public static final String REINTENTO = "ccp.cadena.reintento";
  public static final String ESCALADA = "ccp.cadena.escalada";
  public static final String MENSAJE_FALLIDO = "ccp.mensaje.fallido";
  /** On {@code cola.fallidos}: the Detector or a reaction that a peer keeps refusing past ASR-2's budget, for the Bandeja. */
  public static final String REACCION_DETENIDA = "ccp.reaccion.detenida";

  /**
   * The {@code operacion} of an {@code escritura.realizada}: the App's order, and the Reacción's annulment of one
   * ({@code servicio=pedidos}); the App's stock adjustment ({@code servicio=inventario}).
   */
  public static final String CREAR_PEDIDO = "CREAR_PEDIDO";
  public static final String ANULAR_PEDIDO = "ANULAR_PEDIDO";
  public static final String AJUSTAR_INVENTARIO = "AJUSTAR_INVENTARIO";

  private EventTypes() {}

  /** @throws PoisonMessageException when the event is not of the expected type */
  public static void require(Envelope event, String expected, String topic) {
    if (!expected.equals(event.type())) {
      throw new PoisonMessageException("unexpected type " + event.type() + " on " + topic + " (expected " + expected + ")");
    }
  }
}
