package io.ankusa.tests.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * No import circles: between modules, between the queue's packages and between the dispatcher's
 * (docs/architecture.md draws the map). The API package of each module sits on top of its module's
 * other packages, which never import it back. Production classes only; a guard checks the import
 * saw every package the rules are about.
 */
@AnalyzeClasses(packages = "io.ankusa", importOptions = ImportOption.DoNotIncludeTests.class)
class PackageCyclesTest {

    @ArchTest
    static final ArchRule modules_are_free_of_cycles = slices().matching("io.ankusa.(*)..")
            .should().beFreeOfCycles()
            .because("dependencies run one way: api, keys and store at the bottom, then queue, dispatch, cli");

    @ArchTest
    static final ArchRule the_queues_packages_are_free_of_cycles = slices().matching("io.ankusa.queue.(*)..")
            .should().beFreeOfCycles()
            .because("a reader follows the queue in one direction: intake writes through deliveries, the ledger and "
                    + "upkeep sit beside them, migration guards the format, the engine wires them");

    @ArchTest
    static final ArchRule nothing_below_the_queues_api_imports_it_back = noClasses()
            .that().resideInAPackage("io.ankusa.queue.*..")
            .and().resideOutsideOfPackage("io.ankusa.queue.fixtures..")
            .should().dependOnClassesThat().resideInAPackage("io.ankusa.queue")
            .because("the API package (Queue, ArchiveCompactor, StoreUpgrade) depends on the engine, never the "
                    + "reverse: the engine holds Queue's methods and the API's EngineQueue adds the interface "
                    + "(the fixture writer is a user of the API, above it)");

    @ArchTest
    static final ArchRule the_dispatchers_packages_are_free_of_cycles = slices().matching("io.ankusa.dispatch.(*)..")
            .should().beFreeOfCycles()
            .because("marker cleanup and the HTTP sink do not reach back into each other");

    @ArchTest
    static final ArchRule marker_cleanup_does_not_import_the_dispatchers_api_package = noClasses()
            .that().resideInAPackage("io.ankusa.dispatch.pipeline..")
            .should().dependOnClassesThat().resideInAPackage("io.ankusa.dispatch")
            .because("the pipeline's parts that need API types live beside Pipeline, package-private; marker cleanup "
                    + "needs the ledger only");

    @ArchTest
    static void the_rules_saw_every_package(JavaClasses classes) {
        assertThat(classes.stream().map(JavaClass::getPackageName).distinct())
                .contains("io.ankusa.api", "io.ankusa.keys", "io.ankusa.store", "io.ankusa.queue",
                        "io.ankusa.queue.intake", "io.ankusa.queue.deliveries", "io.ankusa.queue.ledger",
                        "io.ankusa.queue.upkeep", "io.ankusa.queue.migration", "io.ankusa.queue.engine",
                        "io.ankusa.queue.fixtures", "io.ankusa.dispatch", "io.ankusa.dispatch.pipeline",
                        "io.ankusa.dispatch.http", "io.ankusa.cli")
                .noneMatch(name -> name.startsWith("io.ankusa.tests"));
        // The "import back" rule sees real dependencies: the API package itself depends on the engine.
        assertThat(classes.get("io.ankusa.queue.EngineQueue").getDirectDependenciesFromSelf())
                .anyMatch(d -> d.getTargetClass().getPackageName().equals("io.ankusa.queue.engine"));
    }
}
