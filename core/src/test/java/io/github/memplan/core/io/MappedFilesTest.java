package io.github.memplan.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MappedFilesTest {
  @Test
  void aFileIsMappedWhole(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("m.onnx");
    Files.write(f, new byte[] {1, 2, 3});
    MappedByteBuffer b = MappedFiles.readOnly(f, "protobuf's");
    assertThat(b.isReadOnly()).isTrue();
    assertThat(b.remaining()).isEqualTo(3);
    assertThat(b.get(2)).isEqualTo((byte) 3);
  }

  /** One byte past Integer.MAX_VALUE (a sparse file: nothing is written) is refused, naming it. */
  @Test
  void aFileBeyondTwoGibIsRefusedNamingTheLimit(@TempDir Path dir) throws IOException {
    Path f = SparseFiles.pastTwoGib(dir, "big.tflite");
    assertThatThrownBy(() -> MappedFiles.readOnly(f, "a flatbuffer's"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(f + ": 2147483648 bytes is beyond a flatbuffer's 2 GiB limit");
  }

  @Test
  void aMissingFileIsAnIoException(@TempDir Path dir) {
    assertThatThrownBy(() -> MappedFiles.readOnly(dir.resolve("none.onnx"), "protobuf's"))
        .isInstanceOf(IOException.class);
  }
}
