package io.github.memplan.core.io;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Whole files mapped read-only into memory, for the readers of binary model formats (ONNX's
 * protobuf, TFLite's flatbuffer) whose parsers index a buffer with an {@code int} and so read at
 * most {@link Integer#MAX_VALUE} bytes: a larger file is refused in one line naming it and the
 * format's limit, before anything is mapped.
 */
public final class MappedFiles {
  private MappedFiles() {}

  /**
   * {@code file}'s bytes, mapped read-only (the mapping outlives the channel, which is closed).
   *
   * @param whose the owner of the 2 GiB limit as the message names it, e.g. {@code "protobuf's"}
   *     gives {@code x.onnx: 3000000000 bytes is beyond protobuf's 2 GiB limit}
   * @throws IllegalArgumentException when the file holds more than {@link Integer#MAX_VALUE} bytes
   * @throws IOException when it cannot be read
   */
  public static MappedByteBuffer readOnly(Path file, String whose) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      if (size > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            file + ": " + size + " bytes is beyond " + whose + " 2 GiB limit");
      }
      return ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
    }
  }
}
