package io.ankusa.tests.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The queue and the dispatcher see storage only through the SPI: no class of theirs may touch a
 * backend module or a backend library. Each rule also fails when it matched no class
 * (ArchUnit's default {@code failOnEmptyShould}), and a guard checks the import saw the project.
 */
@AnalyzeClasses(packages = "io.ankusa",
        importOptions = {ImportOption.DoNotIncludeTests.class, DoNotIncludeTestJars.class})
class BackendIndependenceTest {

    private static final String[] BACKENDS = {
        "io.ankusa.store.rocksdb..", "io.ankusa.store.lmdb..", "org.rocksdb..", "org.lmdbjava.."
    };

    @ArchTest
    static final ArchRule theQueueNeverDependsOnAStoreBackend = noClasses()
            .that().resideInAPackage("io.ankusa.queue..")
            .should().dependOnClassesThat().resideInAnyPackage(BACKENDS)
            .because("the queue works through the storage SPI; the backend is chosen by what is on the module path");

    @ArchTest
    static final ArchRule theDispatcherNeverDependsOnAStoreBackend = noClasses()
            .that().resideInAPackage("io.ankusa.dispatch..")
            .should().dependOnClassesThat().resideInAnyPackage(BACKENDS)
            .because("the dispatcher sees decoded rows from the queue and never a store, let alone a backend");

    @ArchTest
    static final ArchRule theStorageSpiNeverDependsOnABackend = noClasses()
            .that().resideInAnyPackage("io.ankusa.store", "io.ankusa.store.spi")
            .should().dependOnClassesThat().resideInAnyPackage(BACKENDS)
            .because("backends implement the SPI; an SPI that knows a backend cannot be implemented by a third party");

    @ArchTest
    static void theRulesLookedAtTheWholeProject(JavaClasses classes) {
        assertThat(classes.size()).as("io.ankusa production classes imported").isGreaterThan(20);
        assertThat(classes.stream().map(JavaClass::getPackageName))
                .as("packages imported")
                .contains("io.ankusa.queue", "io.ankusa.dispatch", "io.ankusa.store", "io.ankusa.store.spi")
                .noneMatch(name -> name.startsWith("io.ankusa.tests"));
    }
}
