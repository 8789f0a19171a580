package ccp.carga.flota;

/**
 * The load's fleet by name: vendedor {@code i} and the device it registers as its own. The drivers, the floor and the
 * experiment name their actors alike, so the floor's data answers the same requests the system's does; a package of
 * its own because both the drivers ({@code ccp.carga}) and the floor they start ({@code ccp.carga.suelo}) read it.
 */
public final class Flota {

  private Flota() {
  }

  public static String vendedor(int i) {
    return "vendedor-" + (i + 1);
  }

  public static String casa(String vendedor) {
    return "casa-" + vendedor;
  }
}
