package ccp.platform.kafka;

import io.vertx.kafka.client.consumer.KafkaConsumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.invoke.MethodType;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * vertx-kafka-client 5.0 is built against kafka-clients 3.7 and runs here on the broker's kafka-clients (pom.xml). Its
 * bytecode is read with {@code javap}: every Kafka method it calls must exist in the kafka-clients on the classpath, but
 * for the ones named here, which no class of ours may reach.
 */
@DisplayName("The Vert.x Kafka client links against the kafka-clients it runs on")
class EnlaceClienteKafkaTest {

  /** The Kafka methods Kafka 4 removed that vertx-kafka-client 5.0 still calls, and the Vert.x calls that reach them. */
  private static final Set<String> REMOVED = Set.of(
    "org/apache/kafka/clients/consumer/Consumer.committed:(Lorg/apache/kafka/common/TopicPartition;)Lorg/apache/kafka/clients/consumer/OffsetAndMetadata;",
    "org/apache/kafka/clients/admin/ListConsumerGroupOffsetsOptions.topicPartitions:(Ljava/util/List;)Lorg/apache/kafka/clients/admin/ListConsumerGroupOffsetsOptions;");
  private static final Set<String> REACHING_THEM = Set.of(
    "io/vertx/kafka/client/consumer/KafkaConsumer.committed:",
    "io/vertx/kafka/client/consumer/KafkaReadStream.committed:",
    "io/vertx/kafka/admin/ListConsumerGroupOffsetsOptions.topicPartitions:(Ljava/util/List;)");
  private static final Pattern CALL = Pattern.compile("// (?:Interface)?Method ([\\w/$]+)\\.(\"?[\\w<>$]+\"?):(\\S+)");

  @Test
  @DisplayName("only the calls Kafka 4 removed are missing, and no class of ours calls the Vert.x methods that make them")
  void linked() throws Exception {
    Set<String> missing = new TreeSet<>();
    for (String call : calls(classesOf(KafkaConsumer.class), "org/apache/kafka/")) {
      if (!exists(call)) missing.add(call);
    }
    assertThat(missing).as("Kafka methods vertx-kafka-client calls that kafka-clients lacks").isEqualTo(new TreeSet<>(REMOVED));

    List<String> ours = calls(classesOf(ReliableConsumer.class), "io/vertx/kafka/").stream()
      .filter(call -> REACHING_THEM.stream().anyMatch(call::startsWith)).toList();
    assertThat(ours).as("calls of ours that reach a removed Kafka method").isEmpty();
  }

  /** Where {@code type} was loaded from: a jar, or a directory of classes. */
  private static Path classesOf(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  /** Every method called from the classes at {@code location} on a class under {@code prefix}: owner.name:descriptor. */
  private static List<String> calls(Path location, String prefix) throws IOException {
    List<String> classes = new ArrayList<>();
    if (Files.isDirectory(location)) {
      try (Stream<Path> walk = Files.walk(location)) {
        walk.filter(f -> f.toString().endsWith(".class"))
          .forEach(f -> classes.add(location.relativize(f).toString().replace(".class", "").replace('/', '.')));
      }
    } else {
      try (JarFile jar = new JarFile(location.toFile())) {
        jar.stream().map(JarEntry::getName).filter(n -> n.endsWith(".class") && !n.startsWith("META-INF"))
          .forEach(n -> classes.add(n.replace(".class", "").replace('/', '.')));
      }
    }
    List<String> args = new ArrayList<>(List.of("-c", "-p", "-cp", location.toString()));
    args.addAll(classes);
    StringWriter out = new StringWriter();
    int rc = ToolProvider.findFirst("javap").orElseThrow().run(new PrintWriter(out), new PrintWriter(out), args.toArray(String[]::new));
    assertThat(rc).as("javap " + location).isZero();
    Set<String> found = new TreeSet<>();
    Matcher m = CALL.matcher(out.toString());
    while (m.find()) {
      if (m.group(1).startsWith(prefix)) found.add(m.group(1) + "." + m.group(2).replace("\"", "") + ":" + m.group(3));
    }
    return List.copyOf(found);
  }

  /** Whether the method exists in its class or a supertype, as the JVM would link it. */
  private static boolean exists(String call) throws ClassNotFoundException {
    int dot = call.lastIndexOf('.', call.indexOf(':'));
    Class<?> owner = Class.forName(call.substring(0, dot).replace('/', '.'), false, EnlaceClienteKafkaTest.class.getClassLoader());
    String name = call.substring(dot + 1, call.indexOf(':'));
    String descriptor = call.substring(call.indexOf(':') + 1);
    if (name.equals("<init>")) {
      return Stream.of(owner.getDeclaredConstructors()).anyMatch(c -> descriptor(c, void.class).equals(descriptor));
    }
    for (Class<?> c : hierarchy(owner)) {
      for (Method method : c.getDeclaredMethods()) {
        if (method.getName().equals(name) && descriptor(method, method.getReturnType()).equals(descriptor)) return true;
      }
    }
    return false;
  }

  private static List<Class<?>> hierarchy(Class<?> type) {
    List<Class<?>> all = new ArrayList<>();
    List<Class<?>> next = new ArrayList<>(List.of(type));
    while (!next.isEmpty()) {
      Class<?> c = next.remove(0);
      if (c == null || all.contains(c)) continue;
      all.add(c);
      next.add(c.getSuperclass());
      next.addAll(List.of(c.getInterfaces()));
    }
    if (type.isInterface()) all.add(Object.class);
    return all;
  }

  private static String descriptor(Executable executable, Class<?> returned) {
    return MethodType.methodType(returned, executable.getParameterTypes()).toMethodDescriptorString();
  }
}
