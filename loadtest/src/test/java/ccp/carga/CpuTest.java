package ccp.carga;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

@DisplayName("Cpu: what the system, its PostgreSQL and the driver spent, per request")
class CpuTest {

  @Test
  @DisplayName("the system's time is its scrape's process_cpu_time_ns_total; none there, none said")
  void systemFromTheScrape() {
    String scrape = "# HELP process_cpu_time_ns_total The \"cpu time\" used by the Java Virtual Machine process\n"
      + "# TYPE process_cpu_time_ns_total counter\nprocess_cpu_time_ns_total 3.517E10\nprocess_cpu_usage 0.5\n";
    assertThat(Cpu.systemIn(scrape).getAsDouble()).isCloseTo(35.17, within(1e-9));
    assertThat(Cpu.systemIn("process_cpu_usage 0.5\n")).isEmpty();
  }

  @Test
  @DisplayName("a server's time is its main process's, its live children's and its ended children's, as the kernel counts them")
  void serverAndItsChildren(@TempDir Path dir) throws Exception {
    // A stand-in for the postmaster: a shell whose two children spin, as backends do under load.
    Process server = new ProcessBuilder("sh", "-c", "yes > /dev/null & yes > /dev/null & sleep 600").start();
    Path pidFile = dir.resolve("postmaster.pid");
    Files.write(pidFile, List.of(Long.toString(server.pid()), dir.toString(), "0", "5432"));
    try {
      double read = await("the children's first half second").atMost(Duration.ofSeconds(30))
        .until(() -> Cpu.postgresOf(pidFile).orElse(0), spent -> spent > 0.5);
      double kernel = cpuSeconds(server.toHandle()) + server.children().mapToDouble(CpuTest::cpuSeconds).sum();
      assertThat(read).isCloseTo(kernel, within(0.1 + 0.1 * kernel));

      // The spinning children end (the shell's sleep, and so the shell, stay): the kernel adds their time to the shell's.
      List<ProcessHandle> children = server.children()
        .filter(child -> child.info().command().orElse("").endsWith("/yes")).toList();
      assertThat(children).hasSize(2);
      children.forEach(ProcessHandle::destroyForcibly);
      for (ProcessHandle child : children) child.onExit().get(10, TimeUnit.SECONDS);
      assertThat(Cpu.postgresOf(pidFile).getAsDouble()).as("ended children keep their time").isGreaterThanOrEqualTo(read);
    } finally {
      server.descendants().forEach(ProcessHandle::destroyForcibly);
      server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  @DisplayName("no postmaster.pid, or one naming no process: PostgreSQL is not on this machine, and the report says so")
  void noServerHere(@TempDir Path dir) throws IOException {
    assertThat(Cpu.postgresOf(dir.resolve("postmaster.pid"))).isEmpty();
    Files.writeString(dir.resolve("postmaster.pid"), "999999999\n");
    assertThat(Cpu.postgresOf(dir.resolve("postmaster.pid"))).isEmpty();

    Cpu before = new Cpu(OptionalDouble.of(10), OptionalDouble.empty(), 2);
    Cpu after = new Cpu(OptionalDouble.of(47.6), OptionalDouble.empty(), 18);
    assertThat(after.since(before).perRequest(40_000, "session"))
      .isEqualTo("0.94 ms per session: system 0.94 ms, PostgreSQL not on this machine; the driver 0.40 ms (in all 37.6 s, —, 16.0 s)");
  }

  @Test
  @DisplayName("each request's share: system and PostgreSQL together, the driver apart")
  void perRequest() {
    Cpu spent = new Cpu(OptionalDouble.of(37.6), OptionalDouble.of(15.75), 16.0);
    assertThat(spent.perRequest(41_986, "session"))
      .isEqualTo("1.27 ms per session: system 0.90 ms, PostgreSQL 0.38 ms; the driver 0.38 ms (in all 37.6 s, 15.8 s, 16.0 s)");
    assertThat(spent.perRequest(0, "order")).isEqualTo("no order to share it over");
  }

  private static double cpuSeconds(ProcessHandle process) {
    return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L) / 1e9;
  }
}
