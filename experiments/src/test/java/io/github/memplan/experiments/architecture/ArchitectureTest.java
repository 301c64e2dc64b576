package io.github.memplan.experiments.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module and package rules of docs/architecture.md, checked on the compiled main classes of
 * every module (experiments sees them all): {@code core} depends on no other module; {@code
 * baseline}, {@code solvers} and {@code datasets} on {@code core} only (so solvers never import
 * baselines); the only {@code main} is the CLI's; and no two packages depend on each other,
 * directly or round a longer cycle.
 */
class ArchitectureTest {
  static final String ROOT = "io.github.memplan";
  static final List<String> MODULES = List.of("core", "baseline", "solvers", "datasets");

  /** Main classes only: neither test-classes directories nor test-jars. */
  static final ImportOption MAIN_ONLY =
      (Location location) ->
          !location.contains("/test-classes/") && !location.contains("-tests.jar");

  private static JavaClasses main;

  @BeforeAll
  static void importMainClasses() {
    main = new ClassFileImporter().withImportOption(MAIN_ONLY).importPackages(ROOT);
  }

  @Test
  void coreDependsOnNoOtherModule() {
    onlyOn("core").check(main);
  }

  @Test
  void baselineDependsOnCoreOnly() {
    onlyOn("baseline", "core").check(main);
  }

  @Test
  void solversDependOnCoreOnlySoNeverOnBaselines() {
    onlyOn("solvers", "core").check(main);
  }

  @Test
  void datasetsDependOnCoreOnly() {
    onlyOn("datasets", "core").check(main);
  }

  @Test
  void theOnlyMainIsTheCli() {
    methods()
        .that()
        .haveName("main")
        .and()
        .haveModifier(JavaModifier.STATIC)
        .and()
        .arePublic()
        .should()
        .beDeclaredIn(ROOT + ".experiments.cli.Main")
        .because("library modules have no entry point (docs/architecture.md)")
        .check(main);
  }

  @Test
  void packagesFormNoCycle() {
    packageCycles().check(main);
  }

  /** No two packages under {@link #ROOT} depend on each other, directly or round a cycle. */
  static ArchRule packageCycles() {
    return slices().matching(ROOT + ".(**)").should().beFreeOfCycles();
  }

  /** Classes of {@code module} depend on no module but {@code allowed} (and the JDK, libraries). */
  static ArchRule onlyOn(String module, String... allowed) {
    String[] others =
        Stream.concat(MODULES.stream(), Stream.of("experiments"))
            .filter(m -> !m.equals(module) && !List.of(allowed).contains(m))
            .map(m -> ROOT + "." + m + "..")
            .toArray(String[]::new);
    return noClasses()
        .that()
        .resideInAPackage(ROOT + "." + module + "..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(others)
        .because("module " + module + "'s dependency rule in docs/architecture.md");
  }
}
