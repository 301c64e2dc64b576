package io.github.memplan.core.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DatasetFileTest {
  private static DatasetFile file(String path, String content, String sha) {
    byte[] b = content.getBytes(StandardCharsets.UTF_8);
    return new DatasetFile(path, sha, () -> new ByteArrayInputStream(b));
  }

  @Test
  void namesComeFromTheFileName() {
    String text = "id,lower,upper,size\n";
    DatasetFile f =
        file(
            "challenging/A.1048576.csv",
            text,
            DatasetFile.sha256Of(text.getBytes(StandardCharsets.UTF_8)));
    assertThat(f.fileName()).isEqualTo("A.1048576.csv");
    assertThat(f.name()).isEqualTo("A.1048576");
    assertThat(f.shortName()).isEqualTo("A");
    assertThat(f.text()).isEqualTo(text);
  }

  @Test
  void knownDigest() {
    // sha256("abc"), FIPS 180-2 appendix B.1
    assertThat(DatasetFile.sha256Of("abc".getBytes(StandardCharsets.US_ASCII)))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  }

  @Test
  void aFileWhoseBytesDoNotMatchTheIndexIsRefused() {
    String recorded =
        DatasetFile.sha256Of("id,lower,upper,size\n".getBytes(StandardCharsets.UTF_8));
    DatasetFile edited = file("x/A.csv", "id,lower,upper,size\n0,0,1,8\n", recorded);
    assertThatThrownBy(edited::bytes)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("x/A.csv: SHA-256 is ")
        .hasMessageEndingWith("but the dataset's index records " + recorded);
  }

  @Test
  void aMalformedDigestIsRefused() {
    assertThatThrownBy(() -> file("a.csv", "", "ABC"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a.csv: SHA-256 must be 64 lower-case hex digits");
  }
}
