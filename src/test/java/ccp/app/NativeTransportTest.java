package ccp.app;

import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.util.EnumSet;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("A process runs its servers and clients on Netty's epoll transport on Linux, unless told not to")
class NativeTransportTest {

  @Test
  @EnabledOnOs(OS.LINUX)
  @DisplayName("by default the process's Vert.x uses the native transport (the jar carries epoll for linux-x86_64)")
  void nativeByDefault() throws Exception {
    try (RunningApp app = RunningApp.start(SharedInfra.settings(), EnumSet.of(Role.VIGILANCIA))) {
      assertThat(app.app().vertx().isNativeTransportEnabled()).isTrue();
    }
  }

  @Test
  @DisplayName("vertx.native-transport=false gives the JDK's NIO")
  void nioWhenTurnedOff() throws Exception {
    try (RunningApp app = RunningApp.start(SharedInfra.settings(Map.of("vertx.native-transport", false)), EnumSet.of(Role.VIGILANCIA))) {
      assertThat(app.app().vertx().isNativeTransportEnabled()).isFalse();
    }
  }
}
