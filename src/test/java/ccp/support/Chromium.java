package ccp.support;

import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;

/**
 * Debian's headless Chromium driven through its chromedriver ({@code apt-get install chromium chromium-driver}; the CI
 * script installs them). Selenium Manager is never asked (the paths are given), and the browser is kept from reaching
 * the network on its own (updates, sync, QUIC): on a closed network those make it hang. A fresh profile per browser.
 */
public final class Chromium implements AutoCloseable {

  private static final Path BINARY = Path.of("/usr/bin/chromium");
  private static final Path DRIVER = Path.of("/usr/bin/chromedriver");

  private final ChromeDriver driver;
  private final Path profile;

  private Chromium(ChromeDriver driver, Path profile) {
    this.driver = driver;
    this.profile = profile;
  }

  public static Chromium start(int width, int height) throws IOException {
    if (!Files.isExecutable(BINARY) || !Files.isExecutable(DRIVER)) {
      throw new IllegalStateException("the browser tests need " + BINARY + " and " + DRIVER
        + ": apt-get install -y chromium chromium-driver (.ci/run does)");
    }
    Path profile = Files.createTempDirectory("ccp-chromium");
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    ChromeOptions options = new ChromeOptions().setBinary(BINARY.toFile())
      .addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
        "--user-data-dir=" + profile, "--window-size=" + width + "," + height);
    options.setCapability("goog:loggingPrefs", logs);
    ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).usingAnyFreePort().build();
    ChromeDriver driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30)).scriptTimeout(Duration.ofSeconds(30));
    return new Chromium(driver, profile);
  }

  public ChromeDriver driver() {
    return driver;
  }

  /** The page as shown now, into {@code target/consola/<name>.png} for review. */
  public Path screenshot(String name) {
    try {
      Path dir = Path.of("system", "target", "consola");
      if (!Files.isDirectory(Path.of("system"))) dir = Path.of("target", "consola");
      Files.createDirectories(dir);
      File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
      Path file = dir.resolve(name + ".png");
      Files.copy(shot.toPath(), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The browser console's errors since the previous call (each read empties the browser's log). */
  public List<String> consoleErrors() {
    return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
      .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).map(LogEntry::getMessage).toList();
  }

  @Override
  public void close() throws IOException {
    try {
      driver.quit();
    } finally {
      try (var files = Files.walk(profile)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
