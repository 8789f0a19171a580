package ccp.platform.config;

import io.vertx.core.json.JsonObject;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The validated configuration of one process. Every key has a default in {@code conf/ccp.json} and may be
 * overridden by the environment variable {@code CCP_<KEY>} ({@code kafka.bootstrap} → {@code CCP_KAFKA_BOOTSTRAP}).
 * The prefix keeps most of the kubelet's service links ({@code <SERVICE>_PORT} and the like) from being read as ours;
 * those of a Service whose name starts with {@code ccp-} are recognised by their shape ({@link ServiceLinks}) and left
 * alone, while any other unknown {@code CCP_} variable is refused.
 */
public final class Settings {

  private enum Kind { TEXT, INTEGER, BOOLEAN }

  private record Rule(Kind kind, Predicate<Object> valid, String expected) {}

  private static final String PREFIX = "CCP_";
  private static final Map<String, Rule> RULES = new LinkedHashMap<>();
  /** The issuers a token or SET is checked against or signed as: a placeholder here refuses every real one. */
  private static final List<String> ISSUERS = List.of("jwt.issuer", "consola.oidc.issuer", "ssf.issuer");
  /** Names that never reach a real host: the examples' domains and top-level domains. */
  private static final List<String> PLACEHOLDER_DOMAINS = List.of("example.com", "example.net", "example.org", "example", "invalid");

  static {
    text("data.dir", v -> !v.isBlank(), "a directory path");
    text("kafka.bootstrap", v -> true, "host:port[,host:port], or empty for the embedded broker");
    // One SCRAM identity per role that touches the broker (the gateway does not); empty beside the embedded broker,
    // which generates them into the data directory.
    for (String role : new String[] {"gestor", "seguridad", "pedidos", "cadena", "facturacion", "inventario", "despacho", "vigilancia"}) {
      text("kafka.password." + role, v -> v.matches("[A-Za-z0-9._-]*"),
        "empty beside the embedded broker, else the password of Kafka user ccp-" + role + " (letters, digits, '.', '_', '-')");
    }
    integer("kafka.partitions.security", 1, 64);
    integer("kafka.partitions.chain", 1, 1024);
    integer("kafka.replication-factor", 1, 5);
    integer("kafka.session-timeout-ms", 3000, 300_000);
    integer("kafka.commit-interval-ms", 10, 60_000);
    integer("kafka.consumer.max-in-flight", 1, 100_000);
    integer("kafka.consumer.fetch-min-bytes", 1, 1_048_576);
    integer("kafka.consumer.fetch-max-wait-ms", 1, 500);
    integer("kafka.consumer.retry-ms", 1_000, 3_600_000);
    integer("kafka.consumer.yield-delay-ms", 10, 60_000);
    integer("kafka.consumer.yield-in-flight", 1, 100_000);
    text("pg.host", v -> true, "a host name, or empty for the embedded PostgreSQL");
    integer("pg.port", 1, 65535);
    text("pg.database", v -> v.matches("[A-Za-z_][A-Za-z0-9_]*"), "an SQL identifier");
    // Each process group's own login role (PgRoles); empty: none configured, which only the embedded PostgreSQL fills.
    for (String role : PgRoles.LOGIN) text(PgRoles.passwordKey(role), v -> true, "the role's password");
    integer("pg.pool-size", 1, 512);
    integer("pg.statement-timeout-ms", 100, 3_600_000);
    integer("pg.connect-timeout-ms", 100, 600_000);
    integer("infra.kafka-port", 0, 65535);
    integer("infra.pg-port", 0, 65535);
    integer("infra.issuer-port", 0, 65535);
    bool("infra.pg-durable");
    bool("vertx.native-transport");
    text("http.host", v -> !v.isBlank(), "an address to bind");
    integer("http.instances", 0, 256);
    integer("http.max-connections", 1, 1_000_000);
    integer("http.body-limit-bytes", 1024, 16 * 1024 * 1024);
    integer("http.idle-timeout-ms", 100, 3_600_000);
    integer("http.request-timeout-ms", 100, 600_000);
    integer("http.admission-initial-limit", 1, 100_000);
    integer("http.admission-min-limit", 1, 100_000);
    integer("http.admission-max-limit", 1, 100_000);
    integer("http.admission-target-ms", 1, 60_000);
    integer("http.admission-delay-ms", 0, 10_000);
    integer("http.admission-admin-limit", 1, 100_000);
    integer("health.event-loop-deadline-ms", 100, 600_000);
    integer(PuertosDesplazados.OFFSET, 0, 55_000);
    integer("management.port", 0, 65535);
    integer("gateway.port", 0, 65535);
    integer("gestor.port", 0, 65535);
    integer("gestor.warm-up-ms", 0, 60_000);
    integer("seguridad.port", 0, 65535);
    integer("pedidos.port", 0, 65535);
    integer("cadena.port", 0, 65535);
    integer("inventario.port", 0, 65535);
    text("gestor.url", Settings::isHttpUrl, "an http(s) URL of the gestor role");
    text("seguridad.url", Settings::isHttpUrl, "an http(s) URL of the seguridad role");
    text("pedidos.url", Settings::isHttpUrl, "an http(s) URL of the pedidos role");
    text("cadena.url", Settings::isHttpUrl, "an http(s) URL of the cadena role");
    text("inventario.url", Settings::isHttpUrl, "an http(s) URL of the inventario role");
    integer("http.client-timeout-ms", 100, 120_000);
    integer("http.client-pool-size", 1, 4_096);
    text("jwt.jwks-url", v -> v.isEmpty() || isHttpUrl(v), "empty (the development issuer) or the http(s) URL of the issuer's JWK Set");
    text("jwt.issuer", v -> !v.isBlank(), "the issuer (iss) of the App's tokens");
    text("jwt.audience", v -> !v.isBlank(), "the audience (aud) the App's tokens must name");
    integer("jwt.max-ttl-minutes", 1, 24 * 60);
    integer("jwt.ttl-minutes", 1, 24 * 60);
    text("peer.private-key", v -> true, "empty or the private JWK of this process's calling role");
    text("peer.jwks", v -> true, "empty or the JWK Set of the calling roles' public keys");
    bool("demo.seed");
    text("consola.oidc.issuer", v -> v.isEmpty() || (isHttpUrl(v) && !v.endsWith("/")),
      "empty (no OIDC sign-in on the console) or the http(s) issuer URL, no trailing slash, whose "
        + ".well-known/openid-configuration the console reads");
    text("consola.oidc.client-id", v -> v.matches("[A-Za-z0-9._-]{1,128}"), "the console's public OIDC client id");
    text("ssf.issuer", v -> isHttpUrl(v) && !v.endsWith("/") && !v.contains("?") && !v.contains("#"),
      "the transmitter's issuer: the http(s) base URL receivers reach it at, no trailing slash, query or fragment");
    text("ssf.private-key", v -> true, "empty or the private RSA JWK the SETs are signed with");
    integer("ssf.push-timeout-ms", 100, 60_000);
    bool("ssf.push-private-allowed");
    text("ssf.push-denied-cidrs", Settings::cidrs, "empty or comma-separated CIDR ranges a push must never reach (the cluster's)");
    text("ssf.push-allowed-cidrs", Settings::cidrs, "empty or comma-separated CIDR ranges a push may reach although internal");
    integer("ssf.streams-per-owner", 1, 100);
    integer("ssf.retry-initial-ms", 10, 60_000);
    integer("ssf.retry-max-ms", 10, 3_600_000);
    integer("ssf.barrido-ms", 50, 60_000);
    text("ssf.receptor.jwks-url", v -> v.isEmpty() || isHttpUrl(v), "empty (no SETs received) or the http(s) URL of the provider's JWK Set");
    text("ssf.receptor.issuer", v -> true, "the iss of the provider's SETs");
    text("ssf.receptor.audience", v -> true, "the aud the provider's SETs name this system by");
    integer("ssf.receptor.clock-skew-s", 0, 3_600);
    integer("outbox.poll-ms", 10, 60_000);
    integer("outbox.batch-size", 1, 10_000);
    integer("outbox.claim-timeout-ms", 100, 600_000);
    integer("outbox.admission-max-age-ms", 100, 600_000);
    integer("pedidos.admission-max-chain-lag-ms", 0, 600_000);
    integer("gestor.admission-max-verificador-lag-ms", 0, 600_000);
    integer("cadena.plazo-etapa-ms", 100, 3_600_000);
    integer("cadena.lote-max", 1, 10_000);
    // A batch of 256 ids of 128 characters stays within the default http.body-limit-bytes (64 KiB).
    integer("detector.lote-max", 1, 256);
    integer("inventario.lote-max", 1, 10_000);
    integer("revocacion.lote-max", 1, 10_000);
    integer("vigilancia.barrido-ms", 50, 600_000);
    integer("vigilancia.sondeo-ms", 50, 600_000);
    integer("vigilancia.sondeo-plazo-ms", 100, 600_000);
    for (String etapa : new String[] {"facturacion", "despacho"}) {
      text("vigilancia.sondeo." + etapa + "-urls", v -> v.isEmpty() || java.util.Arrays.stream(v.split(",")).allMatch(Settings::isHttpUrl),
        "empty (only the broker is asked whether the stage has a consumer) or the comma-separated http(s) management"
          + " URLs of the processes that run the stage");
    }
    integer("vigilancia.liderazgo-ms", 50, 60_000);
    integer("reanudador.espera-ms", 50, 600_000);
    integer("reaccion.revocacion-horas", 1, 24 * 365);
    integer("reaccion.reanudar-tras-ms", 100, 600_000);
    integer("seguridad.liderazgo-ms", 50, 60_000);
    integer("liderazgo.confirmar-ms", 50, 60_000);
    integer("liderazgo.sesion-ms", 1_000, 600_000);
    integer("asr1.budget-ms", 1, 60_000);
    integer("asr2.budget-ms", 1, 60_000);
    integer("asr3.budget-ms", 1, 600_000);
    integer("asr4.budget-ms", 1, 60_000);
  }

  private final JsonObject values;

  private Settings(JsonObject values) {
    this.values = values;
  }

  /**
   * Validates {@code defaults} overlaid with {@code CCP_*} variables of {@code env}.
   *
   * @throws ConfigException naming the first bad key, its value and what is expected
   */
  public static Settings from(JsonObject defaults, Map<String, String> env) {
    JsonObject merged = new JsonObject();
    Set<String> fromEnv = new HashSet<>();
    for (String key : defaults.fieldNames()) {
      if (!RULES.containsKey(key)) {
        throw new ConfigException("unknown configuration key '" + key + "' (valid: " + String.join(", ", RULES.keySet()) + ")");
      }
      merged.put(key, defaults.getValue(key));
    }
    Set<String> links = ServiceLinks.in(env, PREFIX);
    for (Map.Entry<String, String> e : env.entrySet()) {
      // A Service ccp-gestor's CCP_GESTOR_PORT=tcp://10.96.0.11:8081 is the kubelet's, not gestor.port.
      if (!e.getKey().startsWith(PREFIX) || links.contains(e.getKey())) continue;
      String key = keyOfEnv(e.getKey());
      merged.put(key, parse(key, e.getValue(), e.getKey()));
      fromEnv.add(key);
    }
    PuertosDesplazados.aplicar(defaults, fromEnv, merged);
    for (Map.Entry<String, Rule> e : RULES.entrySet()) {
      String key = e.getKey();
      Object value = merged.getValue(key);
      if (value == null) throw new ConfigException("configuration key '" + key + "' is missing (expected " + e.getValue().expected + ")");
      check(key, value, e.getValue(), key);
    }
    if (merged.getInteger("http.admission-min-limit") > merged.getInteger("http.admission-initial-limit")
        || merged.getInteger("http.admission-initial-limit") > merged.getInteger("http.admission-max-limit")) {
      throw new ConfigException("http.admission-min-limit <= http.admission-initial-limit <= http.admission-max-limit must hold");
    }
    if (merged.getInteger("ssf.retry-max-ms") < merged.getInteger("ssf.retry-initial-ms")) {
      throw new ConfigException("ssf.retry-max-ms must be >= ssf.retry-initial-ms");
    }
    if (!merged.getString("ssf.receptor.jwks-url").isEmpty()
        && (merged.getString("ssf.receptor.issuer").isBlank() || merged.getString("ssf.receptor.audience").isBlank())) {
      throw new ConfigException("ssf.receptor.jwks-url is set: ssf.receptor.issuer and ssf.receptor.audience must be set too");
    }
    for (String key : ISSUERS) {
      String host = placeholderHost(merged.getString(key));
      if (host != null) {
        throw new ConfigException(envName(key) + "='" + merged.getString(key) + "' is a placeholder: " + host + " is a name reserved "
          + "for examples; set " + key + " to the real issuer's URL (in Kubernetes: k8s/public.env)");
      }
    }
    if (merged.getInteger("jwt.ttl-minutes") > merged.getInteger("jwt.max-ttl-minutes")) {
      throw new ConfigException("jwt.ttl-minutes must be <= jwt.max-ttl-minutes (the roles refuse longer-lived tokens)");
    }
    return new Settings(merged);
  }

  /** A copy with some keys replaced, validated like the original (tests and commands use it). */
  public Settings with(Map<String, Object> overrides) {
    JsonObject copy = values.copy();
    overrides.forEach(copy::put);
    return from(copy, Map.of());
  }

  public static String envName(String key) {
    return PREFIX + key.toUpperCase().replace('.', '_').replace('-', '_');
  }

  private static String keyOfEnv(String envName) {
    for (String key : RULES.keySet()) {
      if (envName(key).equals(envName)) return key;
    }
    TreeSet<String> valid = new TreeSet<>();
    RULES.keySet().forEach(k -> valid.add(envName(k)));
    throw new ConfigException("unknown environment variable " + envName + " (valid: " + String.join(", ", valid) + ")");
  }

  private static Object parse(String key, String raw, String source) {
    Rule rule = RULES.get(key);
    return switch (rule.kind) {
      case TEXT -> raw;
      case INTEGER -> {
        try {
          yield Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
          throw new ConfigException(source + "='" + raw + "' is not a number (expected " + rule.expected + ")");
        }
      }
      case BOOLEAN -> {
        if (!raw.equalsIgnoreCase("true") && !raw.equalsIgnoreCase("false")) {
          throw new ConfigException(source + "='" + raw + "' is not a boolean (expected true or false)");
        }
        yield Boolean.parseBoolean(raw);
      }
    };
  }

  private static void check(String key, Object value, Rule rule, String source) {
    boolean typed = switch (rule.kind) {
      case TEXT -> value instanceof String;
      case INTEGER -> value instanceof Integer;
      case BOOLEAN -> value instanceof Boolean;
    };
    if (!typed || !rule.valid.test(value)) {
      throw new ConfigException(source + "='" + value + "' is invalid (expected " + rule.expected + ")");
    }
  }

  private static void text(String key, Predicate<String> valid, String expected) {
    RULES.put(key, new Rule(Kind.TEXT, v -> valid.test((String) v), expected));
  }

  private static void integer(String key, int min, int max) {
    RULES.put(key, new Rule(Kind.INTEGER, v -> (Integer) v >= min && (Integer) v <= max, "an integer from " + min + " to " + max));
  }

  private static void bool(String key) {
    RULES.put(key, new Rule(Kind.BOOLEAN, v -> true, "true or false"));
  }

  /** The shape of a CIDR list; the seguridad role parses each range when it starts. */
  private static boolean cidrs(String v) {
    return v.matches("\\s*|[0-9A-Fa-f:.]+/\\d{1,3}(\\s*,\\s*[0-9A-Fa-f:.]+/\\d{1,3})*");
  }

  /** The host of {@code url} when it is a name reserved for documentation (RFC 2606, RFC 6761), else null. */
  private static String placeholderHost(String url) {
    String host;
    try {
      host = URI.create(url).getHost();
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (host == null) return null;
    String lower = host.toLowerCase(Locale.ROOT);
    for (String reserved : PLACEHOLDER_DOMAINS) {
      if (lower.equals(reserved) || lower.endsWith("." + reserved)) return host;
    }
    return null;
  }

  public static boolean isHttpUrl(String v) {
    try {
      URI uri = URI.create(v);
      return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  public String text(String key) {
    return values.getString(key);
  }

  public int integer(String key) {
    return values.getInteger(key);
  }

  public boolean flag(String key) {
    return values.getBoolean(key);
  }

  public Duration millis(String key) {
    return Duration.ofMillis(values.getInteger(key));
  }

  public Path dataDir() {
    return Path.of(text("data.dir"));
  }

  public boolean embeddedKafka() {
    return text("kafka.bootstrap").isBlank();
  }

  public boolean embeddedPostgres() {
    return text("pg.host").isBlank();
  }
}
