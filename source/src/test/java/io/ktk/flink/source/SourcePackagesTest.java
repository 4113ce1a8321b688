package io.ktk.flink.source;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The packages of the source module import each other in one direction only: a cycle would tie
 * their roles together so that none can change or be understood alone. Checked on the compiled
 * classes of the module, tests excluded; one slice per package.
 */
class SourcePackagesTest {
  @Test
  void packagesHaveNoCycle() {
    JavaClasses classes = new ClassFileImporter().importPath(Path.of("target", "classes"));
    assertThat(classes).isNotEmpty();
    slices().matching("io.ktk.flink.(**)").should().beFreeOfCycles().check(classes);
  }
}
