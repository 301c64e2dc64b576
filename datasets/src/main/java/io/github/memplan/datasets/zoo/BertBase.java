package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;

/**
 * BERT-base (uncased vocabulary) encoder with pooler, batch B, sequence S: Devlin, Chang, Lee and
 * Toutanova, "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
 * NAACL 2019, Section 3 (BERT-BASE: L=12, H=768, A=12, feed-forward 4H), in the layout of Hugging
 * Face's {@code BertModel} and its ONNX export. Registered as {@code bert-base} (S=128, B=1) and
 * {@code bert-base-384} (S=384, B=1: the {@code max_seq_length} of SQuAD fine-tuning in the
 * authors' {@code run_squad.py} and of MLPerf Inference's BERT benchmark; see {@link Seq384}).
 *
 * <p>Inputs: {@code input_ids} and {@code token_type_ids} {@code [B,S]} I64 and {@code
 * attention_mask} {@code [B,S]} fp32 (1 keeps, 0 masks a token), applied as Hugging Face does: the
 * additive mask {@code (1 - mask) * min_float}, reshaped to {@code [B,1,1,S]}, is added to every
 * layer's attention scores. Embeddings: word (30522x768), position (512x768, looked up with the
 * constant position ids 0..S-1) and token type (2x768), summed and layer-normalized. Each of the 12
 * layers: Q, K, V linear layers (MatMul + Add), split into 12 heads of 64, scores {@code QK^T /
 * sqrt(64)} plus the mask, softmax, times V, heads merged, output dense, residual, LayerNorm, then
 * the feed-forward 768 -> 3072 (exact GELU) -> 768, residual, LayerNorm (epsilon 1e-12 throughout).
 * Pooler: the first token's hidden state through a 768x768 dense layer and tanh. Dropout is omitted
 * (inference).
 *
 * <p>Outputs: the sequence output (Hugging Face's {@code last_hidden_state}) {@code [B,S,768]},
 * which is tensor {@code encoder.layer.11.output.LayerNorm}, and {@code pooler_output} {@code
 * [B,768]}. 109,482,240 parameters at every S and B, as {@code
 * BertModel.from_pretrained("bert-base-uncased")} reports. Scalar constants (the 1.0, min_float and
 * sqrt(64) operands, the first-token index) are {@code CONSTANT} tensors; the IR records their
 * shapes, not their values.
 */
public final class BertBase implements ModelProvider {
  /** The sequence length of the registered {@code bert-base}. */
  public static final long STANDARD_SEQUENCE = 128;

  /** The most tokens the 512 learned positions allow. */
  public static final long MAX_SEQUENCE = 512;

  private static final long HIDDEN = 768;
  private static final long HEADS = 12;
  private static final long HEAD_DIM = HIDDEN / HEADS;
  private static final long FFN = 3072;
  private static final int LAYERS = 12;
  private static final long VOCAB = 30522;
  private static final long MAX_POSITIONS = 512;
  private static final long TYPES = 2;
  private static final double LN_EPS = 1e-12;

  private final long seq;
  private final long batch;

  /** Sequence 128, batch 1. */
  public BertBase() {
    this(STANDARD_SEQUENCE, 1);
  }

  /**
   * @param sequence tokens per sequence, 1 to 512
   * @param batch sequences per run, at least 1
   */
  public BertBase(long sequence, long batch) {
    this.seq = Ids.check("bert-base", "sequence", sequence, 1, MAX_SEQUENCE);
    this.batch = Ids.check("bert-base", "batch", batch, 1, Integer.MAX_VALUE);
  }

  /** BERT-base at sequence 384, batch 1, registered as {@code bert-base-384}. */
  public static final class Seq384 implements ModelProvider {
    private final BertBase model = new BertBase(384, 1);

    @Override
    public String name() {
      return model.name();
    }

    @Override
    public String description() {
      return model.description();
    }

    @Override
    public String citation() {
      return model.citation();
    }

    @Override
    public Graph build() {
      return model.build();
    }
  }

  @Override
  public String name() {
    return Ids.sized("bert-base", seq, STANDARD_SEQUENCE, batch);
  }

  @Override
  public String description() {
    return "BERT-base encoder + pooler, batch " + batch + ", sequence " + seq + ", fp32";
  }

  @Override
  public String citation() {
    return "Devlin et al., BERT: Pre-training of Deep Bidirectional Transformers for Language"
        + " Understanding, NAACL 2019 (BERT-BASE); Hugging Face BertModel layout";
  }

  @Override
  public Graph build() {
    Graph.Builder b = Graph.builder(name());
    Layers l = new Layers(b, DType.F32);
    b.input("input_ids", DType.I64, batch, seq);
    b.input("token_type_ids", DType.I64, batch, seq);
    b.input("attention_mask", DType.F32, batch, seq);

    // additive attention mask, shared by all layers: (1 - mask) * min_float as [B, 1, 1, S]
    b.constant("one", DType.F32);
    b.constant("min_float", DType.F32);
    String mask = l.reshape("extended_attention_mask.reshape", "attention_mask", batch, 1, 1, seq);
    mask = l.sub("extended_attention_mask.invert", "one", mask);
    mask = l.mul("extended_attention_mask", mask, "min_float");

    b.constant("embeddings.position_ids", DType.I64, 1, seq);
    String words = l.embedding("embeddings.word_embeddings", "input_ids", VOCAB, HIDDEN);
    String types = l.embedding("embeddings.token_type_embeddings", "token_type_ids", TYPES, HIDDEN);
    String positions =
        l.embedding(
            "embeddings.position_embeddings", "embeddings.position_ids", MAX_POSITIONS, HIDDEN);
    String x = l.add("embeddings.add_token_types", words, types);
    x = l.add("embeddings.add_positions", x, positions);
    x = l.layerNorm("embeddings.LayerNorm", x, LN_EPS);

    b.constant("attention_scale", DType.F32);
    for (int i = 0; i < LAYERS; i++) {
      x = encoderLayer(l, "encoder.layer." + i, x, mask);
    }
    // the sequence output is the last layer's LayerNorm itself: no copy under another name
    b.output(x);

    b.constant("pooler.first_token_index", DType.I64);
    String first = l.gather("pooler.first_token", x, "pooler.first_token_index", 1);
    // a Linear on a 2-D input exports to ONNX as a single Gemm
    String pooled = l.gemm("pooler.dense", first, HIDDEN);
    pooled = l.tanh("pooler_output", pooled);
    b.output(pooled);
    return b.build();
  }

  private String encoderLayer(Layers l, String name, String x, String mask) {
    String att = name + ".attention";
    String q = heads(l, att + ".self.query", x, 0, 2, 1, 3);
    // keys go straight to [B, heads, head_dim, S], ready for Q K^T
    String k = heads(l, att + ".self.key", x, 0, 2, 3, 1);
    String v = heads(l, att + ".self.value", x, 0, 2, 1, 3);
    String scores = l.matmul(att + ".self.scores", q, k);
    scores = l.div(att + ".self.scaled_scores", scores, "attention_scale");
    scores = l.add(att + ".self.masked_scores", scores, mask);
    String probs = l.softmax(att + ".self.probs", scores, -1);
    String ctx = l.matmul(att + ".self.context", probs, v);
    ctx = l.transpose(att + ".self.context.merge_heads", ctx, 0, 2, 1, 3);
    ctx = l.reshape(att + ".self.context.reshape", ctx, batch, seq, HIDDEN);
    String y = l.linear(att + ".output.dense", ctx, HIDDEN);
    y = l.add(att + ".output.residual", y, x);
    String attended = l.layerNorm(att + ".output.LayerNorm", y, LN_EPS);

    String h = l.linear(name + ".intermediate.dense", attended, FFN);
    h = l.gelu(name + ".intermediate.gelu", h);
    h = l.linear(name + ".output.dense", h, HIDDEN);
    h = l.add(name + ".output.residual", h, attended);
    return l.layerNorm(name + ".output.LayerNorm", h, LN_EPS);
  }

  /**
   * A linear projection split into heads, [B, S, HIDDEN] -> [B, S, HEADS, HEAD_DIM], then permuted.
   */
  private String heads(Layers l, String name, String x, long... perm) {
    String y = l.linear(name, x, HIDDEN);
    y = l.reshape(name + ".split_heads", y, batch, seq, HEADS, HEAD_DIM);
    return l.transpose(name + ".transpose", y, perm);
  }
}
