package ccp.seguridad.ssf;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Which addresses a push must not reach: every range that is not the public Internet (IANA's special-purpose
 * registries), and the IPv4 address inside each IPv6 form that carries one — IPv4-mapped ({@code ::ffff:a.b.c.d}),
 * IPv4-compatible ({@code ::a.b.c.d}), NAT64 ({@code 64:ff9b::/96}), 6to4 ({@code 2002::/16}) and Teredo
 * ({@code 2001::/32}) — checked as that IPv4 address, so {@code [::127.0.0.1]} is loopback. The local-use NAT64 prefix
 * ({@code 64:ff9b:1::/48}) is refused whole: where it embeds its address is the network's choice.
 */
final class DireccionesInternas {

  private static final List<Rango> IPV4 = Rango.lista(String.join(",",
    "0.0.0.0/8",          // this network, unspecified
    "10.0.0.0/8",         // private
    "100.64.0.0/10",      // carrier-grade NAT
    "127.0.0.0/8",        // loopback
    "169.254.0.0/16",     // link-local, the cloud metadata service
    "172.16.0.0/12",      // private
    "192.0.0.0/24",       // IETF protocol assignments
    "192.0.2.0/24",       // documentation
    "192.88.99.0/24",     // 6to4 relay anycast
    "192.168.0.0/16",     // private
    "198.18.0.0/15",      // benchmarking
    "198.51.100.0/24",    // documentation
    "203.0.113.0/24",     // documentation
    "224.0.0.0/4",        // multicast
    "240.0.0.0/4"));      // reserved, broadcast
  private static final List<Rango> IPV6 = Rango.lista(String.join(",",
    "::/128",             // unspecified
    "::1/128",            // loopback
    "64:ff9b:1::/48",     // local-use NAT64
    "100::/64",           // discard-only
    "2001:db8::/32",      // documentation
    "2001:2::/48",        // benchmarking
    "fc00::/7",           // unique-local
    "fe80::/10",          // link-local
    "fec0::/10",          // site-local (deprecated)
    "ff00::/8"));         // multicast

  private DireccionesInternas() {}

  /** Why {@code direccion} is internal (the range it falls in), or empty for a public address. */
  static Optional<String> interna(InetAddress direccion) {
    byte[] b = direccion.getAddress();
    if (b.length == 16) {
      for (Rango r : IPV6) if (r.contiene(b)) return Optional.of(direccion.getHostAddress() + ", in " + r);
    }
    Optional<byte[]> v4 = b.length == 4 ? Optional.of(b) : ipv4Incrustada(b);
    if (v4.isPresent()) {
      for (Rango r : IPV4) if (r.contiene(v4.get())) return Optional.of(describir(direccion, v4.get(), r));
    }
    return Optional.empty();
  }

  /** The IPv4 address an IPv6 address carries, in each form that routes to it. */
  static Optional<byte[]> ipv4Incrustada(byte[] b) {
    if (ceros(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) return Optional.of(Arrays.copyOfRange(b, 12, 16));
    if (ceros(b, 0, 12)) return Optional.of(Arrays.copyOfRange(b, 12, 16)); // IPv4-compatible; :: and ::1 too (0.0.0.x)
    if (b[0] == 0 && b[1] == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b && ceros(b, 4, 12)) {
      return Optional.of(Arrays.copyOfRange(b, 12, 16)); // NAT64 well-known prefix
    }
    if (b[0] == 0x20 && b[1] == 0x02) return Optional.of(Arrays.copyOfRange(b, 2, 6)); // 6to4
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0) { // Teredo: the client's address, inverted
      byte[] cliente = Arrays.copyOfRange(b, 12, 16);
      for (int i = 0; i < 4; i++) cliente[i] = (byte) ~cliente[i];
      return Optional.of(cliente);
    }
    return Optional.empty();
  }

  private static boolean ceros(byte[] b, int desde, int hasta) {
    for (int i = desde; i < hasta; i++) if (b[i] != 0) return false;
    return true;
  }

  private static String describir(InetAddress direccion, byte[] v4, Rango rango) {
    try {
      String ipv4 = InetAddress.getByAddress(v4).getHostAddress();
      String propia = direccion.getHostAddress();
      return (propia.equals(ipv4) ? ipv4 : propia + " (IPv4 " + ipv4 + ")") + ", in " + rango;
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }
}
