package io.github.memplan.core.dataset;

import java.util.List;

/**
 * One benchmark dataset: a named, licensed set of instance files of one problem. Registered in
 * {@code META-INF/services/io.github.memplan.core.dataset.DatasetProvider} and found with {@link
 * java.util.ServiceLoader} by {@link Datasets}, as models are. {@link ClasspathDataset} is the
 * usual implementation: files shipped as resources beside a {@code SHA256SUMS} index.
 */
public interface DatasetProvider {
  /**
   * The dataset's name, {@code FAMILY/SET} in lower case ({@code minimalloc/challenging}): the
   * family names the source (a paper, a tool), the set one of its collections.
   */
  String name();

  /** The family: the part of {@link #name()} before the first {@code /}. */
  default String family() {
    int slash = name().indexOf('/');
    return slash < 0 ? name() : name().substring(0, slash);
  }

  /** The problem its entries are instances of, as suites name it ({@code dsa}). */
  String problem();

  /** One line: what the instances are and where they come from. */
  String description();

  /** The license of the files, as an SPDX identifier ({@code Apache-2.0}). */
  String license();

  /** Where the files come from: upstream repository, path, commit, and the paper to cite. */
  String citation();

  /** The instances, in a fixed order. */
  List<DatasetFile> entries();

  /**
   * The documents that travel with the files (the license text, the provenance note), exported
   * beside them by {@code memplan datasets export}.
   */
  List<DatasetFile> documents();
}
