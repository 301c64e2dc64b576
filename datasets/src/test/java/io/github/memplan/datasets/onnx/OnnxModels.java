package io.github.memplan.datasets.onnx;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.OperatorSetIdProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnx.proto.OnnxMl.TensorShapeProto;
import ai.onnx.proto.OnnxMl.TypeProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;
import com.google.protobuf.ByteString;
import io.github.memplan.core.ir.DType;
import java.util.Arrays;
import java.util.List;

/** Builds small ONNX models in memory for the importer's tests. */
final class OnnxModels {
  private final ModelProto.Builder model = ModelProto.newBuilder().setIrVersion(8);
  private final GraphProto.Builder graph = GraphProto.newBuilder().setName("test");

  OnnxModels(int opset) {
    model.addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("").setVersion(opset));
  }

  OnnxModels opset(String domain, int version) {
    model.addOpsetImport(OperatorSetIdProto.newBuilder().setDomain(domain).setVersion(version));
    return this;
  }

  /**
   * A graph input; each dim is a Long (dim_value, may be 0 or -1), a String (dim_param) or null (a
   * dim with neither).
   */
  OnnxModels input(String name, DType dtype, Object... dims) {
    graph.addInput(valueInfo(name, dtype, dims));
    return this;
  }

  OnnxModels output(String name) {
    graph.addOutput(ValueInfoProto.newBuilder().setName(name));
    return this;
  }

  /** A float initializer of zeros. */
  OnnxModels weight(String name, long... dims) {
    graph.addInitializer(floats(name, dims));
    return this;
  }

  OnnxModels ints(String name, long[] dims, long... values) {
    graph.addInitializer(int64(name, dims, values));
    return this;
  }

  OnnxModels node(String op, String name, List<String> in, List<String> out, AttributeProto... a) {
    graph.addNode(node(op, name, "", in, out, a));
    return this;
  }

  OnnxModels node(NodeProto n) {
    graph.addNode(n);
    return this;
  }

  ModelProto build() {
    return model.setGraph(graph).build();
  }

  GraphProto.Builder graph() {
    return graph;
  }

  // ---------------------------------------------------------------- pieces

  static NodeProto node(
      String op,
      String name,
      String domain,
      List<String> in,
      List<String> out,
      AttributeProto... a) {
    return NodeProto.newBuilder()
        .setOpType(op)
        .setName(name)
        .setDomain(domain)
        .addAllInput(in)
        .addAllOutput(out)
        .addAllAttribute(Arrays.asList(a))
        .build();
  }

  /** A Constant node holding int64 {@code values} of {@code dims}. */
  static NodeProto constant(String out, long[] dims, long... values) {
    return node(
        "Constant",
        out + "_node",
        "",
        List.of(),
        List.of(out),
        tensorAttr("value", int64(out, dims, values)));
  }

  /** A Constant node holding float zeros of {@code dims}. */
  static NodeProto floatConstant(String out, long... dims) {
    return node(
        "Constant",
        out + "_node",
        "",
        List.of(),
        List.of(out),
        tensorAttr("value", floats(out, dims)));
  }

  static ValueInfoProto valueInfo(String name, DType dtype, Object... dims) {
    TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
    for (Object d : dims) {
      TensorShapeProto.Dimension.Builder b = TensorShapeProto.Dimension.newBuilder();
      if (d instanceof Number n) {
        b.setDimValue(n.longValue());
      } else if (d instanceof String s) {
        b.setDimParam(s);
      }
      shape.addDim(b);
    }
    return ValueInfoProto.newBuilder()
        .setName(name)
        .setType(
            TypeProto.newBuilder()
                .setTensorType(
                    TypeProto.Tensor.newBuilder().setElemType(dtype.onnxCode()).setShape(shape)))
        .build();
  }

  static TensorProto floats(String name, long... dims) {
    long n = 1;
    for (long d : dims) {
      n *= d;
    }
    return TensorProto.newBuilder()
        .setName(name)
        .setDataType(DType.F32.onnxCode())
        .addAllDims(Arrays.stream(dims).boxed().toList())
        .setRawData(ByteString.copyFrom(new byte[(int) (4 * n)]))
        .build();
  }

  static TensorProto int64(String name, long[] dims, long... values) {
    return TensorProto.newBuilder()
        .setName(name)
        .setDataType(DType.I64.onnxCode())
        .addAllDims(Arrays.stream(dims).boxed().toList())
        .addAllInt64Data(Arrays.stream(values).boxed().toList())
        .build();
  }

  static AttributeProto ints(String name, long... values) {
    return AttributeProto.newBuilder()
        .setName(name)
        .setType(AttributeProto.AttributeType.INTS)
        .addAllInts(Arrays.stream(values).boxed().toList())
        .build();
  }

  static AttributeProto intAttr(String name, long value) {
    return AttributeProto.newBuilder()
        .setName(name)
        .setType(AttributeProto.AttributeType.INT)
        .setI(value)
        .build();
  }

  static AttributeProto stringAttr(String name, String value) {
    return AttributeProto.newBuilder()
        .setName(name)
        .setType(AttributeProto.AttributeType.STRING)
        .setS(ByteString.copyFromUtf8(value))
        .build();
  }

  static AttributeProto tensorAttr(String name, TensorProto t) {
    return AttributeProto.newBuilder()
        .setName(name)
        .setType(AttributeProto.AttributeType.TENSOR)
        .setT(t)
        .build();
  }

  static AttributeProto graphAttr(String name, GraphProto g) {
    return AttributeProto.newBuilder()
        .setName(name)
        .setType(AttributeProto.AttributeType.GRAPH)
        .setG(g)
        .build();
  }
}
