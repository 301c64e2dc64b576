package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;

/**
 * The audio encoder of Whisper tiny, batch B, F log-mel frames: Radford, Kim, Xu, Brockman,
 * McLeavey and Sutskever, "Robust Speech Recognition via Large-Scale Weak Supervision", ICML 2023
 * (arXiv 2212.04356, 2022), Section 2.2 and Table 1 (tiny: 4 layers, width 384, 6 heads), as
 * OpenAI's reference {@code whisper/model.py} ({@code AudioEncoder}, dims {@code n_mels=80,
 * n_audio_ctx=1500, n_audio_state=384, n_audio_head=6, n_audio_layer=4}) defines it. Registered as
 * {@code whisper-tiny-encoder} (F=3000 frames, 30 s of audio at a 10 ms hop, B=1).
 *
 * <p>Input {@code mel} {@code [B,80,F]}. Stem: {@code conv1} (Conv1d 80 -> 384, kernel 3, pad 1)
 * and GELU, {@code conv2} (Conv1d 384 -> 384, kernel 3, stride 2, pad 1) and GELU, transposed to
 * {@code [B,T,384]}, T = ceil(F/2) (1500), plus the sinusoidal position embedding {@code
 * positional_embedding} {@code [T,384]}: a constant, as the reference registers it as a buffer, not
 * a parameter. Each block {@code blocks.i}: {@code attn_ln}; {@code attn.query}, {@code attn.key}
 * (no bias, as in the reference), {@code attn.value}; 6 heads of 64; Q and K^T each scaled by
 * {@code 64^-0.25} (the reference's {@code qkv_attention}, which multiplies both operands instead
 * of dividing the scores); softmax; times V; heads merged; {@code attn.out}; residual; {@code
 * mlp_ln}, {@code mlp.0} (384 -> 1536), exact GELU, {@code mlp.2} (1536 -> 384), residual. Then
 * {@code ln_post}. Linear layers are MatMul (+ Add) with {@code [in, out]} weights, as ONNX exports
 * them; LayerNorm epsilon 1e-5.
 *
 * <p>Output {@code ln_post} {@code [B,T,384]}. 7,632,384 parameters at every F and B, counted from
 * the reference definition: conv1 92,544 + conv2 442,752 + 4 blocks x 1,774,080 + ln_post 768. This
 * is {@code sum(p.numel() for p in model.encoder.parameters())} of the reference model. Hugging
 * Face's {@code WhisperEncoder} reports 8,208,384 because it stores the same 1500x384 sinusoids
 * (576,000 values) as an {@code nn.Embedding} weight; with the decoder (29,552,256 by the
 * reference's definition) the whole model is 37,184,640 by the reference's count and 37,760,640 by
 * Hugging Face's (both worked out from the definitions); the paper's Table 1 lists 39M.
 */
public final class WhisperTinyEncoder implements ModelProvider {
  /** 30 s of audio at 100 frames per second, the only length the reference accepts. */
  public static final long STANDARD_FRAMES = 3000;

  private static final long MELS = 80;
  private static final long D = 384;
  private static final long HEADS = 6;
  private static final long HEAD_DIM = D / HEADS;
  private static final long MLP = 4 * D;
  private static final int LAYERS = 4;
  private static final double LN_EPS = 1e-5;

  private final long frames;
  private final long batch;

  /** 3000 frames, batch 1. */
  public WhisperTinyEncoder() {
    this(STANDARD_FRAMES, 1);
  }

  /**
   * @param frames log-mel frames, at least 1 (the reference fixes 3000: its position table has 1500
   *     rows; other lengths get a table of their own length)
   * @param batch spectrograms per run, at least 1
   */
  public WhisperTinyEncoder(long frames, long batch) {
    this.frames = Ids.check("whisper-tiny-encoder", "frames", frames, 1, 1 << 20);
    this.batch = Ids.check("whisper-tiny-encoder", "batch", batch, 1, Integer.MAX_VALUE);
  }

  @Override
  public String name() {
    return Ids.sized("whisper-tiny-encoder", frames, STANDARD_FRAMES, batch);
  }

  @Override
  public String description() {
    return "Whisper tiny audio encoder, " + batch + "x80x" + frames + " log-mel, fp32";
  }

  @Override
  public String citation() {
    return "Radford et al., Robust Speech Recognition via Large-Scale Weak Supervision, 2022,"
        + " Table 1 (tiny); OpenAI whisper/model.py AudioEncoder";
  }

  @Override
  public Graph build() {
    Graph.Builder b = Graph.builder(name());
    Layers l = new Layers(b, DType.F32);
    b.input("mel", DType.F32, batch, MELS, frames);
    String x = l.conv1d("conv1", "mel", D, 3, 1, 1);
    x = l.gelu("conv1.gelu", x);
    x = l.conv1d("conv2", x, D, 3, 2, 1);
    x = l.gelu("conv2.gelu", x);
    x = l.transpose("conv2.transpose", x, 0, 2, 1);
    long ctx = l.shape(x).dim(1);
    b.constant("positional_embedding", DType.F32, ctx, D);
    x = l.add("add_positional_embedding", x, "positional_embedding");

    b.constant("attention_scale", DType.F32);
    for (int i = 0; i < LAYERS; i++) {
      x = block(l, "blocks." + i, x, ctx);
    }
    x = l.layerNorm("ln_post", x, LN_EPS);
    b.output(x);
    return b.build();
  }

  private String block(Layers l, String name, String x, long ctx) {
    String attn = name + ".attn";
    String h = l.layerNorm(name + ".attn_ln", x, LN_EPS);
    String q = l.linear(attn + ".query", h, D);
    String k = l.linear(attn + ".key", h, D, false);
    String v = l.linear(attn + ".value", h, D);
    q = heads(l, attn + ".query", q, ctx, 0, 2, 1, 3);
    q = l.mul(attn + ".query.scaled", q, "attention_scale");
    // keys go straight to [B, heads, head_dim, ctx], ready for Q K^T
    k = heads(l, attn + ".key", k, ctx, 0, 2, 3, 1);
    k = l.mul(attn + ".key.scaled", k, "attention_scale");
    v = heads(l, attn + ".value", v, ctx, 0, 2, 1, 3);
    String scores = l.matmul(attn + ".scores", q, k);
    String probs = l.softmax(attn + ".probs", scores, -1);
    String wv = l.matmul(attn + ".context", probs, v);
    wv = l.transpose(attn + ".context.merge_heads", wv, 0, 2, 1, 3);
    wv = l.reshape(attn + ".context.reshape", wv, batch, ctx, D);
    String y = l.linear(attn + ".out", wv, D);
    x = l.add(name + ".attn_residual", x, y);

    h = l.layerNorm(name + ".mlp_ln", x, LN_EPS);
    h = l.linear(name + ".mlp.0", h, MLP);
    h = l.gelu(name + ".mlp.1", h);
    h = l.linear(name + ".mlp.2", h, D);
    return l.add(name + ".mlp_residual", x, h);
  }

  /** [B, ctx, D] -> [B, ctx, HEADS, HEAD_DIM], then permuted. */
  private String heads(Layers l, String name, String x, long ctx, long... perm) {
    String y = l.reshape(name + ".split_heads", x, batch, ctx, HEADS, HEAD_DIM);
    return l.transpose(name + ".transpose", y, perm);
  }
}
