package io.github.memplan.core.solve;

import java.util.List;
import java.util.Map;

/**
 * Makes planners of one kind; registered in {@code META-INF/services} and found with {@link
 * java.util.ServiceLoader} (see {@link Planners}).
 *
 * @param <I> the instance type the planners take
 * @param <S> the solution type they return
 */
public interface PlannerProvider<I, S> {
  /** Stable, kebab-case, file-safe id, e.g. {@code tpumlir-doc}. */
  String id();

  /** One sentence on what the planner does. */
  String description();

  /** The source it follows (paper, compiler file, seed document), and any departure. */
  String citation();

  /** The problem's instance type, e.g. {@code DsaInstance.class}. */
  Class<I> instanceType();

  /** The parameters it accepts, with defaults. */
  default List<Parameter> parameters() {
    return List.of();
  }

  /** A planner configured by {@code config}. */
  Planner<I, S> create(PlannerConfig config);

  /** Resolves {@code config} against {@link #parameters()} (unknown keys fail) and creates. */
  default Planner<I, S> create(Map<String, String> config) {
    return create(PlannerConfig.resolve(id(), parameters(), config));
  }
}
