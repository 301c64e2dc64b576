package io.github.memplan.core.solve;

import io.github.memplan.core.io.InputText;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A {@link PlannerProvider} from its data: id, instance type, description, citation, parameters and
 * the function that makes a planner from a resolved configuration. A subclass only calls the
 * constructor, so that {@link java.util.ServiceLoader} can instantiate it without arguments; a
 * factory that needs more than a line is a static method of the subclass.
 *
 * @param <I> the instance type the planners take
 * @param <S> the solution type they return
 */
public abstract class BasePlannerProvider<I, S> implements PlannerProvider<I, S> {
  private static final Pattern ID = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

  private final String id;
  private final Class<I> instanceType;
  private final String description;
  private final String citation;
  private final List<Parameter> parameters;
  private final Function<PlannerConfig, Planner<I, S>> factory;

  /**
   * @param id kebab-case and file-safe ({@code [a-z0-9]+(-[a-z0-9]+)*}); it names result files
   * @param factory makes a planner from the configuration resolved against {@code parameters}
   */
  protected BasePlannerProvider(
      String id,
      Class<I> instanceType,
      String description,
      String citation,
      List<Parameter> parameters,
      Function<PlannerConfig, Planner<I, S>> factory) {
    if (id == null || !ID.matcher(id).matches()) {
      throw new IllegalArgumentException(
          "planner id "
              + (id == null ? "null" : InputText.quote(id))
              + " is not kebab-case ([a-z0-9]+(-[a-z0-9]+)*)");
    }
    this.id = id;
    this.instanceType = Objects.requireNonNull(instanceType, "instanceType");
    this.description = Objects.requireNonNull(description, "description");
    this.citation = Objects.requireNonNull(citation, "citation");
    this.parameters = List.copyOf(parameters);
    this.factory = Objects.requireNonNull(factory, "factory");
  }

  /** A provider of planners that take no parameters. */
  protected BasePlannerProvider(
      String id,
      Class<I> instanceType,
      String description,
      String citation,
      Function<PlannerConfig, Planner<I, S>> factory) {
    this(id, instanceType, description, citation, List.of(), factory);
  }

  @Override
  public final String id() {
    return id;
  }

  @Override
  public final String description() {
    return description;
  }

  @Override
  public final String citation() {
    return citation;
  }

  @Override
  public final Class<I> instanceType() {
    return instanceType;
  }

  @Override
  public final List<Parameter> parameters() {
    return parameters;
  }

  @Override
  public final Planner<I, S> create(PlannerConfig config) {
    return factory.apply(config);
  }
}
