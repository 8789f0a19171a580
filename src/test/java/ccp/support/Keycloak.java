package ccp.support;

import ccp.embedded.FreePorts;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A real Keycloak ({@code org.keycloak:keycloak-quarkus-dist}, which the build unpacks into {@code system/target/keycloak})
 * in development mode on a loopback port of its own, with the Shared Signals transmitter on ({@code --features=ssf})
 * and the committed realm {@code k8s/keycloak/ccp-realm.json} imported. Started once per test JVM, on first use, and
 * shared by the classes that need it; stopped when the JVM exits. Its log is {@code system/target/keycloak-<port>.log}.
 * Tests change the realm only through Keycloak's admin API, as a person would.
 */
public final class Keycloak {

  public static final String REALM = "ccp";
  private static final Path REALM_FILE = Path.of("k8s", "keycloak", "ccp-realm.json");
  /** The first start after unpacking builds Keycloak for development mode: minutes on a loaded 2-core machine. */
  public static final Duration START_TIMEOUT = Duration.ofMinutes(14);
  /**
   * How often Keycloak's transmitter sends what its outbox holds: 1 s here, Keycloak's own 30 s with
   * {@code -Dccp.keycloak.drainer-interval=30s} (docs/ssf.md gives the figures of both).
   */
  public static final String DRAINER_INTERVAL = System.getProperty("ccp.keycloak.drainer-interval", "1s");
  private static final String PID_FILE_PREFIX = "ccp-test-";
  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final Pattern FORM_ACTION = Pattern.compile("<form[^>]*action=\"([^\"]+)\"");
  private static final Pattern CODE = Pattern.compile("[?&]code=([^&#]+)");
  private static CompletableFuture<Keycloak> shared;

  private final Process process;
  private final int port;
  private final String adminPassword;
  private final Path log;
  private String adminToken;
  private long adminTokenAt;

  private Keycloak(Process process, int port, String adminPassword, Path log) {
    this.process = process;
    this.port = port;
    this.adminPassword = adminPassword;
    this.log = log;
  }

  /**
   * Starts the test JVM's Keycloak on a thread of its own, if no one started it yet, and returns at once: its 20 s or
   * more pass while the caller starts the embedded infrastructure. {@link #shared} waits for it.
   */
  public static synchronized CompletableFuture<Keycloak> startInBackground() {
    if (shared == null) {
      shared = CompletableFuture.supplyAsync(() -> {
        try {
          Keycloak started = start();
          Runtime.getRuntime().addShutdownHook(new Thread(started::stop, "keycloak-stop"));
          return started;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }, command -> new Thread(command, "keycloak-start").start());
    }
    return shared;
  }

  /** The test JVM's Keycloak, started now if no class started it before. */
  public static Keycloak shared() {
    try {
      return startInBackground().get(START_TIMEOUT.toMillis() + 60_000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      if (e instanceof InterruptedException) Thread.currentThread().interrupt();
      throw new IllegalStateException("Keycloak did not start", e);
    }
  }

  /**
   * Two test JVMs may start a Keycloak from the same distribution at once (surefire's two forks, each given a Keycloak
   * test class with -Dtest): the first start in development mode builds into the distribution's lib/, so one starts at
   * a time, the other waiting on a file lock until the first serves its realm.
   */
  private static Keycloak start() throws IOException {
    Path home = Path.of(System.getProperty("ccp.keycloak.home", "system/target/keycloak/keycloak-26.7.3")).toAbsolutePath();
    Path lock = home.getParent().resolve("start.lock");
    try (FileChannel channel = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
         FileLock held = channel.lock()) {
      return start(home);
    }
  }

  private static Keycloak start(Path home) throws IOException {
    if (!Files.isExecutable(home.resolve("bin/kc.sh"))) {
      throw new IllegalStateException("no Keycloak at " + home + ": the build unpacks org.keycloak:keycloak-quarkus-dist "
        + "there (mvn -pl system -am verify, or process-test-resources)");
    }
    stopLeftOver(home);
    Path imports = Files.createDirectories(home.resolve("data/import"));
    Files.copy(REALM_FILE, imports.resolve(REALM + "-realm.json"), StandardCopyOption.REPLACE_EXISTING);
    int port = FreePorts.pick();
    String password = UUID.randomUUID().toString();
    Path log = home.getParent().getParent().resolve("keycloak-" + port + ".log");
    ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/kc.sh").toString(), "start-dev",
      "--http-port=" + port, "--http-host=127.0.0.1", "--http-management-port=" + FreePorts.pick(),
      "--db=dev-mem", "--features=ssf", "--import-realm",
      // The receivers here listen on plain http on loopback: Keycloak pushes only to https otherwise.
      "--spi-ssf-transmitter--default--allow-insecure-push-targets=true",
      // Keycloak pushes what its outbox holds on a tick, 30 s by default: a sign-out would take 15 s on average to
      // reach us, and the tests measure our side, not Keycloak's schedule (docs/ssf.md gives both figures).
      "--spi-ssf-transmitter--default--outbox-drainer-interval=" + DRAINER_INTERVAL)
      .directory(home.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
    // C1 alone: Keycloak's start in dev mode (a Quarkus build) takes half the CPU (15 s instead of 28 s here).
    builder.environment().put("JAVA_OPTS_APPEND", "-XX:TieredStopAtLevel=1");
    builder.environment().put("KC_BOOTSTRAP_ADMIN_USERNAME", "admin");
    builder.environment().put("KC_BOOTSTRAP_ADMIN_PASSWORD", password);
    long started = System.nanoTime();
    Process process = builder.start();
    Files.writeString(home.resolve(PID_FILE_PREFIX + ProcessHandle.current().pid() + ".pid"), String.valueOf(process.pid()));
    Keycloak keycloak = new Keycloak(process, port, password, log);
    keycloak.awaitRealm();
    System.out.printf("Keycloak started on port %d in %.1f s (log %s)%n", port, (System.nanoTime() - started) / 1e9, log);
    return keycloak;
  }

  /**
   * A Keycloak a test JVM started from {@code home} and could not stop (the JVM killed, not exited), found by the
   * file it wrote there ({@code ccp-test-<JVM pid>.pid}, holding Keycloak's pid): stopped once that JVM is gone, so
   * that it does not hold the machine. The Keycloak of a test JVM still running (surefire's other fork) is left alone.
   */
  private static void stopLeftOver(Path home) throws IOException {
    try (var files = Files.newDirectoryStream(home, PID_FILE_PREFIX + "*.pid")) {
      for (Path pidFile : files) {
        String name = pidFile.getFileName().toString();
        long owner = Long.parseLong(name.substring(PID_FILE_PREFIX.length(), name.length() - 4));
        if (ProcessHandle.of(owner).isPresent()) continue;
        ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim()))
          .filter(left -> left.info().commandLine().orElse("").contains(home.toString()))
          .ifPresent(left -> {
            left.descendants().forEach(ProcessHandle::destroy);
            left.destroy();
            left.onExit().orTimeout(30, TimeUnit.SECONDS).exceptionally(late -> {
              left.descendants().forEach(ProcessHandle::destroyForcibly);
              left.destroyForcibly();
              return left;
            }).join();
          });
        Files.delete(pidFile);
      }
    }
  }

  private void awaitRealm() throws IOException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) throw new IllegalStateException("Keycloak exited (" + process.exitValue() + "): " + tail());
      try {
        if (send(HttpRequest.newBuilder(URI.create(realmUrl() + "/.well-known/openid-configuration")).GET()).statusCode() == 200) {
          return;
        }
      } catch (IllegalStateException notYet) {
        // Not listening yet.
      }
      sleep(500);
    }
    stop();
    throw new IllegalStateException("Keycloak did not serve realm " + REALM + " within " + START_TIMEOUT + ": " + tail());
  }

  private String tail() throws IOException {
    List<String> lines = Files.readAllLines(log);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
  }

  private void stop() {
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public String url() {
    return "http://127.0.0.1:" + port;
  }

  /** The realm's issuer: the {@code iss} of its tokens. */
  public String realmUrl() {
    return url() + "/realms/" + REALM;
  }

  public String jwksUrl() {
    return realmUrl() + "/protocol/openid-connect/certs";
  }

  /**
   * A token of the master realm's administrator, reused for 30 s (it lasts 60): an admin call costs one request, so
   * that a measured admin call is that call alone.
   */
  public synchronized String adminToken() {
    if (adminToken == null || System.nanoTime() - adminTokenAt > TimeUnit.SECONDS.toNanos(30)) {
      adminTokenAt = System.nanoTime();
      adminToken = tokenResponse(url() + "/realms/master/protocol/openid-connect/token",
        Map.of("grant_type", "password", "client_id", "admin-cli", "username", "admin", "password", adminPassword))
        .getString("access_token");
    }
    return adminToken;
  }

  /** The admin REST API of the realm ({@code path} after {@code /admin/realms/ccp}); {@code body} may be null. */
  public Http.Response admin(String method, String path, Object body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url() + "/admin/realms/" + REALM + path))
      .header("Authorization", "Bearer " + adminToken()).header("Content-Type", "application/json")
      .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body.toString()));
    HttpResponse<String> response = send(request);
    return new Http.Response(response.statusCode(), response.body(), response.headers());
  }

  /** {@link #admin}, failing unless Keycloak answered 2xx. */
  public Http.Response adminOk(String method, String path, Object body) {
    Http.Response response = admin(method, path, body);
    if (response.status() / 100 != 2) {
      throw new IllegalStateException(method + " " + path + " answered " + response.status() + ": " + response.body());
    }
    return response;
  }

  /** A new enabled user of the realm with a password and, if not null, the {@code perfil} attribute; its id (the token's sub). */
  public String newUser(String username, String password, String perfil) {
    JsonObject user = new JsonObject().put("username", username).put("enabled", true).put("emailVerified", true)
      .put("firstName", "Prueba").put("lastName", username).put("email", username + "@example.test")
      .put("credentials", new JsonArray().add(new JsonObject().put("type", "password").put("value", password).put("temporary", false)));
    if (perfil != null) user.put("attributes", new JsonObject().put("perfil", new JsonArray().add(perfil)));
    String location = adminOk("POST", "/users", user).header("Location");
    return location.substring(location.lastIndexOf('/') + 1);
  }

  /** The realm's client {@code clientId}'s internal id. */
  public String clientUuid(String clientId) {
    JsonArray found = new JsonArray(adminOk("GET", "/clients?clientId=" + clientId, null).body());
    return found.getJsonObject(0).getString("id");
  }

  /**
   * What an App does to sign a person in with the realm's public client {@code clientId}: authorization code with PKCE
   * (S256), the person typing their password into Keycloak's own login page; the redirect back to {@code redirectUri}
   * is not followed, its code is exchanged here. The token endpoint's answer.
   */
  public JsonObject signIn(String clientId, String redirectUri, String username, String password) {
    HttpClient browser = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();
    String verifier = Base64.getUrlEncoder().withoutPadding().encodeToString((UUID.randomUUID() + "-" + UUID.randomUUID())
      .getBytes(StandardCharsets.US_ASCII));
    String challenge;
    try {
      challenge = Base64.getUrlEncoder().withoutPadding().encodeToString(MessageDigest.getInstance("SHA-256")
        .digest(verifier.getBytes(StandardCharsets.US_ASCII)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    String authorize = realmUrl() + "/protocol/openid-connect/auth?" + form(Map.of("client_id", clientId,
      "redirect_uri", redirectUri, "response_type", "code", "scope", "openid", "state", UUID.randomUUID().toString(),
      "code_challenge", challenge, "code_challenge_method", "S256"));
    HttpResponse<String> page = send(browser, HttpRequest.newBuilder(URI.create(authorize)).GET());
    Matcher action = FORM_ACTION.matcher(page.body());
    if (page.statusCode() != 200 || !action.find()) {
      throw new IllegalStateException("no login form at " + authorize + " (" + page.statusCode() + "): " + page.body());
    }
    // The login session's cookies, sent back as a browser would (they are marked Secure, which Java's cookie store
    // keeps from a plain http request).
    String cookies = page.headers().allValues("Set-Cookie").stream().map(c -> c.split(";", 2)[0]).collect(Collectors.joining("; "));
    HttpResponse<String> answer = send(browser, HttpRequest.newBuilder(URI.create(action.group(1).replace("&amp;", "&")))
      .header("Content-Type", "application/x-www-form-urlencoded").header("Cookie", cookies)
      .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("username", username, "password", password, "credentialId", "")))));
    String location = answer.headers().firstValue("Location").orElse("");
    Matcher code = CODE.matcher(location);
    if (answer.statusCode() != 302 || !location.startsWith(redirectUri) || !code.find()) {
      throw new IllegalStateException("the sign-in of " + username + " did not come back with a code (" + answer.statusCode()
        + " " + location + "): " + answer.body());
    }
    return tokenResponse(realmUrl() + "/protocol/openid-connect/token", Map.of("grant_type", "authorization_code",
      "client_id", clientId, "redirect_uri", redirectUri, "code", URLDecoder.decode(code.group(1), StandardCharsets.UTF_8),
      "code_verifier", verifier));
  }

  /** A person's own sign-out from the App (the OIDC logout endpoint with its refresh token), as an App does it. */
  public void signOut(String clientId, String refreshToken) {
    HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(realmUrl() + "/protocol/openid-connect/logout"))
      .header("Content-Type", "application/x-www-form-urlencoded")
      .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("client_id", clientId, "refresh_token", refreshToken)))));
    if (response.statusCode() / 100 != 2) throw new IllegalStateException("logout answered " + response.statusCode() + ": " + response.body());
  }

  private static String form(Map<String, String> fields) {
    return fields.entrySet().stream()
      .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
      .collect(Collectors.joining("&"));
  }

  /** The answer of a token endpoint call, failing unless it is 200. */
  public static JsonObject tokenResponse(String endpoint, Map<String, String> form) {
    HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(endpoint))
      .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form(form))));
    if (response.statusCode() != 200) throw new IllegalStateException(endpoint + " answered " + response.statusCode() + ": " + response.body());
    return new JsonObject(response.body());
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) {
    return send(CLIENT, request);
  }

  private static HttpResponse<String> send(HttpClient client, HttpRequest.Builder request) {
    try {
      return client.sendAsync(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString())
        .get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      if (e instanceof InterruptedException) Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
