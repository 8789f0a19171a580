package ccp.platform.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/** A file of passwords or keys in the data directory, readable by its owner only from the moment it exists. */
public final class SecretFile {

  private SecretFile() {}

  /** Written beside {@code file} with mode 600 from the start, then moved over it: never readable by others, never half written. */
  public static void write(Path file, String content) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path next = file.resolveSibling(file.getFileName() + ".next");
    Files.deleteIfExists(next);
    try {
      Files.createFile(next, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (UnsupportedOperationException notPosix) {
      // Not a POSIX file system: the file keeps the directory's permissions.
      Files.createFile(next);
    }
    Files.writeString(next, content, StandardCharsets.UTF_8);
    Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
