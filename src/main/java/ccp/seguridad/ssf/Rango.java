package ccp.seguridad.ssf;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * An address range in CIDR notation ({@code 10.96.0.0/12}, {@code fd00::/8}): the internal ranges a push may never
 * reach and the operator's own lists ({@code ssf.push-denied-cidrs}, {@code ssf.push-allowed-cidrs}). Compared on the
 * address's bytes, never on its text, so every way of writing one address is the same address.
 */
record Rango(byte[] red, int prefijo, String texto) {

  private static final Pattern LITERAL = Pattern.compile("[0-9.]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

  /** @throws IllegalArgumentException naming {@code texto} when it is not an address literal with a prefix length */
  static Rango of(String texto) {
    String[] partes = texto.trim().split("/", -1);
    if (partes.length != 2 || !LITERAL.matcher(partes[0]).matches() || !partes[1].matches("\\d{1,3}")) {
      throw new IllegalArgumentException("'" + texto + "' is not a CIDR range (address/prefix length)");
    }
    byte[] red;
    try {
      red = InetAddress.getByName(partes[0]).getAddress();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("'" + texto + "' is not a CIDR range (address/prefix length)");
    }
    int prefijo = Integer.parseInt(partes[1]);
    if (prefijo > red.length * 8) throw new IllegalArgumentException("'" + texto + "': prefix longer than the address");
    return new Rango(red, prefijo, texto.trim());
  }

  /** A comma-separated list; empty text is no range. */
  static List<Rango> lista(String texto) {
    List<Rango> rangos = new ArrayList<>();
    for (String parte : texto.split(",")) {
      if (!parte.isBlank()) rangos.add(of(parte));
    }
    return List.copyOf(rangos);
  }

  boolean contiene(byte[] direccion) {
    if (direccion.length != red.length) return false;
    for (int bit = 0; bit < prefijo; bit++) {
      int mascara = 0x80 >>> (bit % 8);
      if ((direccion[bit / 8] & mascara) != (red[bit / 8] & mascara)) return false;
    }
    return true;
  }

  @Override
  public String toString() {
    return texto;
  }
}
