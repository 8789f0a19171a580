package ccp.platform.config;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The variables a kubelet gives a container for each Service of its namespace (its "service links", unless the pod
 * sets {@code enableServiceLinks: false}). A Service {@code ccp-gestor} at 10.96.0.11 with port {@code http} 8081/TCP
 * gives {@code CCP_GESTOR_SERVICE_HOST=10.96.0.11}, {@code CCP_GESTOR_SERVICE_PORT=8081},
 * {@code CCP_GESTOR_SERVICE_PORT_HTTP=8081}, {@code CCP_GESTOR_PORT=tcp://10.96.0.11:8081},
 * {@code CCP_GESTOR_PORT_8081_TCP=tcp://10.96.0.11:8081} and its {@code _PROTO}, {@code _PORT} and {@code _ADDR}.
 * A variable is one of them only when its whole shape holds: the Service's {@code _SERVICE_HOST} is set to an IP
 * address, and the name and value fit that host; so a misspelt setting is never mistaken for one.
 */
final class ServiceLinks {

  private static final Pattern IPV4 = Pattern.compile("(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(?:\\.(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]*:[0-9a-fA-F:.]*");
  private static final Pattern PORT = Pattern.compile("[1-9]\\d{0,4}");
  private static final String HOST_SUFFIX = "_SERVICE_HOST";
  private static final Pattern PORT_NAME = Pattern.compile("_SERVICE_PORT_[A-Z0-9_]+");
  private static final Pattern PROTOCOL_PORT = Pattern.compile("_PORT_([1-9]\\d{0,4})_(TCP|UDP|SCTP)(_PROTO|_PORT|_ADDR)?");
  private static final Pattern SERVICE_URL = Pattern.compile("(tcp|udp|sctp)://(.+):([1-9]\\d{0,4})");

  private ServiceLinks() {}

  /** The names among {@code env}'s that are a kubelet's service links (with {@code prefix}, e.g. {@code CCP_}). */
  static Set<String> in(Map<String, String> env, String prefix) {
    Map<String, String> hosts = new HashMap<>();
    env.forEach((name, value) -> {
      if (name.startsWith(prefix) && name.endsWith(HOST_SUFFIX) && isIp(value)) {
        hosts.put(name.substring(0, name.length() - HOST_SUFFIX.length()), value);
      }
    });
    Set<String> links = new HashSet<>();
    env.forEach((name, value) -> {
      for (Map.Entry<String, String> service : hosts.entrySet()) {
        String base = service.getKey();
        if (name.startsWith(base + "_") && fits(name.substring(base.length()), value, service.getValue())) {
          links.add(name);
          return;
        }
      }
    });
    return links;
  }

  private static boolean fits(String suffix, String value, String host) {
    if (suffix.equals(HOST_SUFFIX)) return true;
    if (suffix.equals("_SERVICE_PORT") || PORT_NAME.matcher(suffix).matches()) return PORT.matcher(value).matches();
    if (suffix.equals("_PORT")) return url(value, host) != null;
    Matcher port = PROTOCOL_PORT.matcher(suffix);
    if (!port.matches()) return false;
    String number = port.group(1);
    String protocol = port.group(2).toLowerCase(Locale.ROOT);
    if (port.group(3) == null) return (protocol + "://" + hostInUrl(host) + ":" + number).equals(value);
    return switch (port.group(3)) {
      case "_PROTO" -> protocol.equals(value);
      case "_PORT" -> number.equals(value);
      default -> host.equals(value);
    };
  }

  private static Matcher url(String value, String host) {
    Matcher url = SERVICE_URL.matcher(value);
    return url.matches() && url.group(2).equals(hostInUrl(host)) ? url : null;
  }

  private static String hostInUrl(String host) {
    return host.contains(":") ? "[" + host + "]" : host;
  }

  private static boolean isIp(String value) {
    return IPV4.matcher(value).matches() || (IPV6.matcher(value).matches() && value.length() >= 2);
  }
}
