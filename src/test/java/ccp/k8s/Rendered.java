package ccp.k8s;

import ccp.k8s.Manifests.Doc;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What {@code kubectl apply -k <dir>} would send: the documents kustomize renders from a directory of {@code k8s/},
 * generated ConfigMaps and replacements included. Rendered with {@code kubectl kustomize} (kubectl embeds kustomize;
 * {@code labels} and {@code replacements} need kustomize 4.1 or later, kubectl 1.22 or later), else a stand-alone
 * {@code kustomize build}. This machine and CI's have kubectl 1.32 (kustomize 5.5).
 */
final class Rendered {

  private Rendered() {}

  static List<Doc> of(Path dir) throws IOException, InterruptedException {
    List<String> command = onPath("kubectl") ? List.of("kubectl", "kustomize", dir.toString())
      : onPath("kustomize") ? List.of("kustomize", "build", dir.toString()) : null;
    if (command == null) throw new AssertionError("neither kubectl (1.22 or later) nor kustomize is on the PATH: k8s/ cannot be rendered");
    Path out = Files.createTempFile("kustomize", ".yaml");
    try {
      Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectErrorStream(false).start();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(String.join(" ", command) + " did not end within 60 s");
      }
      String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      if (process.exitValue() != 0) throw new AssertionError(String.join(" ", command) + " failed: " + err);
      List<Doc> docs = new ArrayList<>();
      for (Object doc : new Yaml().loadAll(Files.readString(out))) {
        if (doc != null) docs.add(new Doc(dir, Manifests.map(doc)));
      }
      return docs;
    } finally {
      Files.deleteIfExists(out);
    }
  }

  static List<Doc> ofKind(List<Doc> docs, String kind) {
    return docs.stream().filter(d -> kind.equals(d.kind())).toList();
  }

  private static boolean onPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) return false;
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (Files.isExecutable(Path.of(dir, program))) return true;
    }
    return false;
  }
}
