package ccp.seguridad.ssf;

import java.util.List;

/**
 * The event types of the SETs, by URI: CAEP's and RISC's where one means what happened, the project's own
 * ({@code urn:ccp:secevent:event-type:*}) where none does. docs/ssf.md describes each.
 */
public final class TiposEvento {

  public static final String VERIFICACION = "https://schemas.openid.net/secevent/ssf/event-type/verification";
  public static final String SESION_REVOCADA = "https://schemas.openid.net/secevent/caep/event-type/session-revoked";
  public static final String CAMBIO_CREDENCIAL = "https://schemas.openid.net/secevent/caep/event-type/credential-change";
  public static final String CUENTA_DESHABILITADA = "https://schemas.openid.net/secevent/risc/event-type/account-disabled";

  private static final String CCP = "urn:ccp:secevent:event-type:";
  public static final String DISPOSITIVO_NO_VALIDO = CCP + "dispositivo-no-valido";
  public static final String ACCESO_INDEBIDO = CCP + "acceso-indebido";
  public static final String ESCRITURA_COMPENSADA = CCP + "escritura-compensada";
  public static final String REACCION_DETENIDA = CCP + "reaccion-detenida";
  public static final String DETECCION_DETENIDA = CCP + "deteccion-detenida";
  public static final String SENAL_RECIBIDA = CCP + "senal-recibida";

  /** What a stream may carry ({@code events_supported}); the verification event is sent whatever a stream asked for. */
  public static final List<String> SOPORTADOS = List.of(DISPOSITIVO_NO_VALIDO, ACCESO_INDEBIDO, SESION_REVOCADA,
    CUENTA_DESHABILITADA, ESCRITURA_COMPENSADA, REACCION_DETENIDA, DETECCION_DETENIDA, SENAL_RECIBIDA);

  /** What the receiver acts on: each puts the subject in the Lista de revocación. */
  public static final List<String> REVOCAN = List.of(SESION_REVOCADA, CAMBIO_CREDENCIAL, CUENTA_DESHABILITADA);

  private TiposEvento() {}

  /** The project URI of an alert type: {@code REACCION_DETENIDA} is {@code urn:ccp:secevent:event-type:reaccion-detenida}. */
  static String propio(String tipoAlerta) {
    return CCP + tipoAlerta.toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}
