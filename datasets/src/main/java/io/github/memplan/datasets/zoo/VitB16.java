package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;

/**
 * ViT-B/16 image classifier for Bx3xRxR fp32 images: Dosovitskiy et al., "An Image is Worth 16x16
 * Words: Transformers for Image Recognition at Scale", ICLR 2021, Table 1 (ViT-Base: 12 layers,
 * hidden 768, MLP 3072, 12 heads) and Section 3.1 (Eq. 1-4: a learned class token, learned 1-D
 * position embeddings, pre-norm encoder blocks, a LayerNorm on the class token's output), with
 * patch size 16 and a 1000-way head, in the layout of Hugging Face's {@code
 * ViTForImageClassification} (separate query, key and value projections, as in the paper's JAX
 * code). Registered as {@code vit-b16} (R=224: 196 patches + the class token = 197 tokens, B=1).
 *
 * <p>Input {@code pixel_values} {@code [B,3,R,R]}, R a multiple of 16. The patch embedding is a
 * 16x16 stride-16 Conv with bias to 768 channels, flattened to {@code [B,768,N]} and transposed to
 * {@code [B,N,768]}, N = (R/16)^2. The class token {@code embeddings.cls_token} {@code [1,1,768]}
 * is concatenated in front (for B > 1 first repeated B times, ONNX's Expand, written as a Gather of
 * row 0 B times: the same values and buffer), then the position embeddings {@code [1,N+1,768]} are
 * added; they are learned per token, so a resolution other than 224 has its own table, as the
 * fine-tuned 384 checkpoints do. Each layer {@code encoder.layer.i}: {@code layernorm_before},
 * multi-head self-attention (Q, K, V linear layers, 12 heads of 64, scores {@code QK^T / sqrt(64)},
 * softmax, times V, heads merged, {@code attention.output.dense}), residual, {@code
 * layernorm_after}, 768 -> 3072 (exact GELU) -> 768, residual. Then the final {@code layernorm},
 * the class token's row (Gather) and the classifier Gemm. LayerNorm epsilon 1e-12 (Hugging Face's
 * configuration). Dropout is omitted (inference).
 *
 * <p>Output {@code logits} {@code [B,1000]}. 86,567,656 parameters at R=224, as Hugging Face's
 * {@code google/vit-base-patch16-224} and timm's {@code vit_base_patch16_224} report; at R=384
 * 86,859,496 (577 position embeddings).
 */
public final class VitB16 implements ModelProvider {
  public static final long STANDARD_RESOLUTION = 224;

  private static final long PATCH = 16;
  private static final long D = 768;
  private static final long HEADS = 12;
  private static final long HEAD_DIM = D / HEADS;
  private static final long MLP = 3072;
  private static final int LAYERS = 12;
  private static final long CLASSES = 1000;
  private static final double LN_EPS = 1e-12;

  private final long resolution;
  private final long batch;
  private final long tokens;

  /** 224x224 images, batch 1. */
  public VitB16() {
    this(STANDARD_RESOLUTION, 1);
  }

  /**
   * @param resolution image height and width in pixels, a positive multiple of 16
   * @param batch images per run, at least 1
   */
  public VitB16(long resolution, long batch) {
    Ids.check("vit-b16", "resolution", resolution, PATCH, 1 << 16);
    if (resolution % PATCH != 0) {
      throw new IllegalArgumentException(
          "vit-b16: resolution " + resolution + " must be a multiple of the patch size 16");
    }
    this.resolution = resolution;
    this.batch = Ids.check("vit-b16", "batch", batch, 1, Integer.MAX_VALUE);
    long side = resolution / PATCH;
    this.tokens = side * side + 1;
  }

  @Override
  public String name() {
    return Ids.sized("vit-b16", resolution, STANDARD_RESOLUTION, batch);
  }

  @Override
  public String description() {
    return "ViT-B/16, " + batch + "x3x" + resolution + "x" + resolution + ", fp32";
  }

  @Override
  public String citation() {
    return "Dosovitskiy et al., An Image is Worth 16x16 Words: Transformers for Image Recognition"
        + " at Scale, ICLR 2021, Table 1 (ViT-Base, patch 16); Hugging Face"
        + " ViTForImageClassification layout";
  }

  @Override
  public Graph build() {
    Graph.Builder b = Graph.builder(name());
    Layers l = new Layers(b, DType.F32);
    b.input("pixel_values", DType.F32, batch, 3, resolution, resolution);
    String x =
        l.conv(
            "embeddings.patch_embeddings.projection", "pixel_values", D, PATCH, PATCH, 0, 1, true);
    x = l.reshape("embeddings.patch_embeddings.flatten", x, batch, D, tokens - 1);
    x = l.transpose("embeddings.patch_embeddings.transpose", x, 0, 2, 1);

    b.weight("embeddings.cls_token", DType.F32, 1, 1, D);
    String cls = "embeddings.cls_token";
    if (batch > 1) {
      b.constant("embeddings.cls_token.expand_indices", DType.I64, batch);
      cls = l.gather("embeddings.cls_token.expand", cls, "embeddings.cls_token.expand_indices", 0);
    }
    x = l.concat("embeddings.concat", 1, cls, x);
    b.weight("embeddings.position_embeddings", DType.F32, 1, tokens, D);
    x = l.add("embeddings.add_positions", x, "embeddings.position_embeddings");

    b.constant("attention_scale", DType.F32);
    for (int i = 0; i < LAYERS; i++) {
      x = layer(l, "encoder.layer." + i, x);
    }
    x = l.layerNorm("layernorm", x, LN_EPS);
    b.constant("class_token_index", DType.I64);
    x = l.gather("class_token", x, "class_token_index", 1);
    x = l.gemm("classifier", x, CLASSES);
    b.output(x);
    return b.build();
  }

  private String layer(Layers l, String name, String x) {
    String att = name + ".attention";
    String h = l.layerNorm(name + ".layernorm_before", x, LN_EPS);
    String q = heads(l, att + ".attention.query", h, 0, 2, 1, 3);
    // keys go straight to [B, heads, head_dim, N+1], ready for Q K^T
    String k = heads(l, att + ".attention.key", h, 0, 2, 3, 1);
    String v = heads(l, att + ".attention.value", h, 0, 2, 1, 3);
    String scores = l.matmul(att + ".attention.scores", q, k);
    scores = l.div(att + ".attention.scaled_scores", scores, "attention_scale");
    String probs = l.softmax(att + ".attention.probs", scores, -1);
    String ctx = l.matmul(att + ".attention.context", probs, v);
    ctx = l.transpose(att + ".attention.context.merge_heads", ctx, 0, 2, 1, 3);
    ctx = l.reshape(att + ".attention.context.reshape", ctx, batch, tokens, D);
    String y = l.linear(att + ".output.dense", ctx, D);
    x = l.add(att + ".residual", y, x);

    h = l.layerNorm(name + ".layernorm_after", x, LN_EPS);
    h = l.linear(name + ".intermediate.dense", h, MLP);
    h = l.gelu(name + ".intermediate.gelu", h);
    h = l.linear(name + ".output.dense", h, D);
    return l.add(name + ".output.residual", h, x);
  }

  /** A linear projection split into heads, [B, N+1, D] -> [B, N+1, HEADS, HEAD_DIM], permuted. */
  private String heads(Layers l, String name, String x, long... perm) {
    String y = l.linear(name, x, D);
    y = l.reshape(name + ".split_heads", y, batch, tokens, HEADS, HEAD_DIM);
    return l.transpose(name + ".transpose", y, perm);
  }
}
