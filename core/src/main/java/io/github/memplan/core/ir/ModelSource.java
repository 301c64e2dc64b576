package io.github.memplan.core.ir;

import java.util.List;

/**
 * Contributes any number of models to the zoo at once, where {@link ModelProvider} contributes one
 * per registered class: for instance one entry per darknet {@code .cfg} file of a directory.
 * Registered in {@code META-INF/services/io.github.memplan.core.ir.ModelSource} and found with
 * {@link java.util.ServiceLoader} by {@link Models}.
 */
public interface ModelSource {
  /**
   * The models this source offers now, possibly none (when the files it reads are absent). Listing
   * must be cheap: parsing and building belong in {@link ModelProvider#build()}.
   */
  List<ModelProvider> models();
}
