package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.OpKind;

/**
 * GPT-2 small with its language-model head, one prefill pass over S tokens (no key/value cache in
 * or out), batch B: Radford, Wu, Child, Luan, Amodei and Sutskever, "Language Models are
 * Unsupervised Multitask Learners", OpenAI 2019, Table 2 (the 117M row: 12 layers, d_model 768) and
 * Section 2.3 (pre-activation LayerNorm in each sub-block, a final LayerNorm after the last block),
 * with 12 heads of 64 and the 4*768 feed-forward of the GPT-1 design it builds on, in the layout of
 * Hugging Face's {@code GPT2LMHeadModel}. Registered as {@code gpt2} (S=1024, the full context,
 * B=1).
 *
 * <p>Input {@code input_ids} {@code [B,S]} I64. Token embeddings ({@code transformer.wte},
 * 50257x768) plus learned positions ({@code transformer.wpe}, 1024x768, looked up with the constant
 * position ids 0..S-1). Each block {@code transformer.h.i}: {@code ln_1}; the fused Q, K, V
 * projection {@code attn.c_attn} (768 -> 2304, MatMul + Add) cut into Q, K and V by three Slices
 * (Hugging Face splits it with {@code torch.split}, an ONNX Split); heads of 64; scores {@code QK^T
 * / sqrt(64)} plus the causal mask, softmax, times V, heads merged, {@code attn.c_proj}, residual;
 * {@code ln_2}, {@code mlp.c_fc} (768 -> 3072), GELU in its tanh form (GPT-2's {@code gelu_new}),
 * {@code mlp.c_proj} (3072 -> 768), residual. Then {@code transformer.ln_f} and the LM head.
 * LayerNorm epsilon 1e-5. Dropout is omitted (inference).
 *
 * <p>The causal mask is the constant {@code transformer.causal_mask} {@code [1,1,S,S]} (0 on and
 * below the diagonal, the most negative float above) added to the scores, as ONNX exports write
 * Hugging Face's {@code torch.where(causal_mask, scores, min_float)}: every score is still
 * computed. The LM head is tied to the token embedding: logits are {@code x wte^T}, written as one
 * Gemm with {@code transB=1} on the flattened {@code [B*S,768]} activations that reads {@code
 * transformer.wte.weight} itself, so the tied matrix is one stored tensor and counted once, and no
 * transposed copy of it is materialised (an explicit Transpose would add a 154 MB activation that
 * PyTorch's {@code F.linear} never creates).
 *
 * <p>Output {@code logits} {@code [B,S,50257]}. 124,439,808 parameters at every S and B, as {@code
 * GPT2LMHeadModel.from_pretrained("gpt2")} reports (Table 2's "117M" was a miscount: OpenAI's gpt-2
 * repository renamed the model 124M). Scalar constants and the mask record shapes, not values.
 */
public final class Gpt2 implements ModelProvider {
  /** The context the 1024 learned positions allow; the standard prefill length. */
  public static final long CONTEXT = 1024;

  private static final long D = 768;
  private static final long HEADS = 12;
  private static final long HEAD_DIM = D / HEADS;
  private static final long FFN = 4 * D;
  private static final int LAYERS = 12;
  private static final long VOCAB = 50257;
  private static final double LN_EPS = 1e-5;

  private final long seq;
  private final long batch;

  /** Prefill of the full 1024-token context, batch 1. */
  public Gpt2() {
    this(CONTEXT, 1);
  }

  /**
   * @param sequence tokens in the prefill, 1 to 1024
   * @param batch sequences per run, at least 1
   */
  public Gpt2(long sequence, long batch) {
    this.seq = Ids.check("gpt2", "sequence", sequence, 1, CONTEXT);
    this.batch = Ids.check("gpt2", "batch", batch, 1, Integer.MAX_VALUE);
  }

  @Override
  public String name() {
    return Ids.sized("gpt2", seq, CONTEXT, batch);
  }

  @Override
  public String description() {
    return "GPT-2 small with tied LM head, prefill of "
        + seq
        + " tokens, batch "
        + batch
        + ", fp32";
  }

  @Override
  public String citation() {
    return "Radford et al., Language Models are Unsupervised Multitask Learners, OpenAI 2019,"
        + " Table 2 (117M); Hugging Face GPT2LMHeadModel layout";
  }

  @Override
  public Graph build() {
    Graph.Builder b = Graph.builder(name());
    Layers l = new Layers(b, DType.F32);
    b.input("input_ids", DType.I64, batch, seq);
    b.constant("transformer.position_ids", DType.I64, 1, seq);
    String tokens = l.embedding("transformer.wte", "input_ids", VOCAB, D);
    String positions = l.embedding("transformer.wpe", "transformer.position_ids", CONTEXT, D);
    String x = l.add("transformer.embeddings", tokens, positions);

    b.constant("transformer.causal_mask", DType.F32, 1, 1, seq, seq);
    b.constant("attention_scale", DType.F32);
    for (int i = 0; i < LAYERS; i++) {
      x = block(l, "transformer.h." + i, x);
    }
    x = l.layerNorm("transformer.ln_f", x, LN_EPS);

    String flat = l.reshape("lm_head.flatten", x, batch * seq, D);
    String logits =
        l.op(
            "lm_head",
            OpKind.GEMM,
            Attributes.builder().put("transB", 1L).build(),
            flat,
            "transformer.wte.weight");
    logits = l.reshape("logits", logits, batch, seq, VOCAB);
    b.output(logits);
    return b.build();
  }

  private String block(Layers l, String name, String x) {
    String attn = name + ".attn";
    String h = l.layerNorm(name + ".ln_1", x, LN_EPS);
    String qkv = l.linear(attn + ".c_attn", h, 3 * D);
    String q = heads(l, attn + ".query", l.slice(attn + ".query", qkv, 2, 0, D), 0, 2, 1, 3);
    // keys go straight to [B, heads, head_dim, S], ready for Q K^T
    String k = heads(l, attn + ".key", l.slice(attn + ".key", qkv, 2, D, 2 * D), 0, 2, 3, 1);
    String v =
        heads(l, attn + ".value", l.slice(attn + ".value", qkv, 2, 2 * D, 3 * D), 0, 2, 1, 3);
    String scores = l.matmul(attn + ".scores", q, k);
    scores = l.div(attn + ".scaled_scores", scores, "attention_scale");
    scores = l.add(attn + ".masked_scores", scores, "transformer.causal_mask");
    String probs = l.softmax(attn + ".probs", scores, -1);
    String ctx = l.matmul(attn + ".context", probs, v);
    ctx = l.transpose(attn + ".merge_heads", ctx, 0, 2, 1, 3);
    ctx = l.reshape(attn + ".merge_heads.reshape", ctx, batch, seq, D);
    String y = l.linear(attn + ".c_proj", ctx, D);
    x = l.add(name + ".attn_residual", y, x);

    h = l.layerNorm(name + ".ln_2", x, LN_EPS);
    h = l.linear(name + ".mlp.c_fc", h, FFN);
    h = l.geluTanh(name + ".mlp.act", h);
    h = l.linear(name + ".mlp.c_proj", h, D);
    return l.add(name + ".mlp_residual", h, x);
  }

  /** [B, S, D] -> [B, S, HEADS, HEAD_DIM], then permuted. */
  private String heads(Layers l, String name, String x, long... perm) {
    String y = l.reshape(name + ".split_heads", x, batch, seq, HEADS, HEAD_DIM);
    return l.transpose(name + ".transpose", y, perm);
  }
}
