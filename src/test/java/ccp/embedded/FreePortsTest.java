package ccp.embedded;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.FileReader;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("FreePorts: the servers' ports come from below the kernel's ephemeral range, each one once")
class FreePortsTest {

  @Test
  @DisplayName("no port it hands out is one the kernel could give a connection, and none twice")
  void belowTheEphemeralRange() throws Exception {
    int ephemeralLow;
    try (BufferedReader range = new BufferedReader(new FileReader("/proc/sys/net/ipv4/ip_local_port_range"))) {
      ephemeralLow = Integer.parseInt(range.readLine().trim().split("\\s+")[0]);
    }
    Set<Integer> picked = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      int port = FreePorts.pick();
      assertThat(port).isBetween(10_000, ephemeralLow - 1);
      assertThat(picked.add(port)).as("port %d handed out twice", port).isTrue();
    }
  }
}
