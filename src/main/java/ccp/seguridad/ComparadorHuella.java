package ccp.seguridad;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** Passive object of the Verificador (A6): runs on the ConsumidorSesiones thread that calls it. */
final class ComparadorHuella {

  /** Constant-time, so the comparison leaks nothing about how close a forged fingerprint came. */
  boolean coincide(String vigente, String presentada) {
    return MessageDigest.isEqual(vigente.getBytes(StandardCharsets.UTF_8), presentada.getBytes(StandardCharsets.UTF_8));
  }
}
