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
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * No import circles: between modules, between the queue's packages and between the dispatcher's
 * (docs/architecture.md draws the map), and no package of the dispatcher holds one class only. The API package of each module sits on top of its module's
 * other packages, which never import it back. Production classes only; a guard checks the import
 * saw every package the rules are about.
 */
@AnalyzeClasses(packages = "io.ankusa",
        importOptions = {ImportOption.DoNotIncludeTests.class, DoNotIncludeTestJars.class})
class PackageCyclesTest {

    @ArchTest
    static final ArchRule modulesAreFreeOfCycles = slices().matching("io.ankusa.(*)..")
            .should().beFreeOfCycles()
            .because("dependencies run one way: api, keys and store at the bottom, then queue, dispatch, cli");

    @ArchTest
    static final ArchRule theQueuesPackagesAreFreeOfCycles = slices().matching("io.ankusa.queue.(*)..")
            .should().beFreeOfCycles()
            .because("a reader follows the queue in one direction: intake writes through deliveries, the ledger and "
                    + "upkeep sit beside them, migration guards the format, the engine wires them");

    @ArchTest
    static final ArchRule nothingBelowTheQueuesApiImportsItBack = noClasses()
            .that().resideInAPackage("io.ankusa.queue.*..")
            .and().resideOutsideOfPackage("io.ankusa.queue.fixtures..")
            .should().dependOnClassesThat().resideInAPackage("io.ankusa.queue")
            .because("the API package (Queue, ArchiveCompactor, StoreUpgrade) depends on the engine, never the "
                    + "reverse: the engine holds Queue's methods and the API's EngineQueue adds the interface "
                    + "(the fixture writer is a user of the API, above it)");

    /** Each dispatcher class in the slice of its package below {@code io.ankusa.dispatch}; the root package is "api". */
    private static final SliceAssignment DISPATCH_PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getPackageName();
            if (name.equals("io.ankusa.dispatch")) {
                return SliceIdentifier.of("api");
            }
            if (name.startsWith("io.ankusa.dispatch.")) {
                return SliceIdentifier.of(name.substring("io.ankusa.dispatch.".length()).split("\\.")[0]);
            }
            return SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the dispatcher's packages, its API package included";
        }
    };

    @ArchTest
    static final ArchRule theDispatchersPackagesAreFreeOfCycles = slices().assignedFrom(DISPATCH_PACKAGES)
            .should().beFreeOfCycles()
            .because("entry points, engine, sink contract, reports and the HTTP sink depend one way: the entry "
                    + "points on the engine, the engine on the sink contract and the reports");

    @ArchTest
    static final ArchRule nothingBelowTheDispatchersEntryPointsImportsThem = noClasses()
            .that().resideInAPackage("io.ankusa.dispatch.*..")
            .should().dependOnClassesThat().resideInAPackage("io.ankusa.dispatch")
            .because("Pipeline, Replayer and QueueMonitor sit on top: the engine returns the report types, which "
                    + "live in their own package so that it never needs the entry points");

    @ArchTest
    static final ArchRule theSinkContractAndTheReportsStandAlone = noClasses()
            .that().resideInAnyPackage("io.ankusa.dispatch.sink..", "io.ankusa.dispatch.report..")
            .should().dependOnClassesThat().resideInAnyPackage("io.ankusa.dispatch.engine..", "io.ankusa.dispatch.http..")
            .because("a sink author reads the sink package alone; the engine and the HTTP sink are users of it");

    @ArchTest
    static final ArchRule theHttpSinkIsASinkLikeAnyOther = noClasses()
            .that().resideInAPackage("io.ankusa.dispatch.http..")
            .should().dependOnClassesThat().resideInAPackage("io.ankusa.dispatch.engine..")
            .because("the HTTP sink implements the public sink contract and needs nothing of the engine");

    @ArchTest
    static final ArchRule theAdminApisPackagesAreFreeOfCycles = slices().matching("io.ankusa.admin.(*)..")
            .should().beFreeOfCycles()
            .because("the servlet plumbing calls the routes, the routes write through the JSON layer, never back");

    @ArchTest
    static final ArchRule nothingBelowTheAdminEntryPointsImportsThem = noClasses()
            .that().resideInAPackage("io.ankusa.admin.*..")
            .should().dependOnClassesThat().resideInAPackage("io.ankusa.admin")
            .because("AdminServlet, AdminServer and the access policy sit on top of the router and its handlers");

    @ArchTest
    static final ArchRule theAdminRoutesAndJsonKnowNoServlet = noClasses()
            .that().resideInAnyPackage("io.ankusa.admin.route..", "io.ankusa.admin.json..")
            .should().dependOnClassesThat().resideInAnyPackage("jakarta.servlet..", "org.eclipse.jetty..",
                    "io.ankusa.admin.http..")
            .because("the JSON handlers are the layer a dashboard or another front end reuses without the servlet");

    @ArchTest
    static void noPackageOfTheDispatcherHoldsASingleClass(JavaClasses classes) {
        Map<String, Long> topLevel = classes.stream()
                .filter(c -> c.getPackageName().startsWith("io.ankusa.dispatch"))
                .filter(c -> c.getEnclosingClass().isEmpty() && !c.getSimpleName().equals("package-info"))
                .collect(Collectors.groupingBy(JavaClass::getPackageName, Collectors.counting()));
        assertThat(topLevel).as("top-level classes per dispatcher package").hasSizeGreaterThanOrEqualTo(5)
                .allSatisfy((name, count) -> assertThat(count).as(name).isGreaterThan(1));
    }

    @ArchTest
    static void theRulesSawEveryPackage(JavaClasses classes) {
        assertThat(classes.stream().map(JavaClass::getPackageName).distinct())
                .contains("io.ankusa.api", "io.ankusa.keys", "io.ankusa.store", "io.ankusa.queue",
                        "io.ankusa.queue.intake", "io.ankusa.queue.deliveries", "io.ankusa.queue.ledger",
                        "io.ankusa.queue.upkeep", "io.ankusa.queue.migration", "io.ankusa.queue.engine",
                        "io.ankusa.queue.fixtures", "io.ankusa.dispatch", "io.ankusa.dispatch.engine",
                        "io.ankusa.dispatch.sink", "io.ankusa.dispatch.report", "io.ankusa.dispatch.http",
                        "io.ankusa.cli", "io.ankusa.admin", "io.ankusa.admin.route", "io.ankusa.admin.http",
                        "io.ankusa.admin.json")
                .noneMatch(name -> name.startsWith("io.ankusa.tests"));
        // The "import back" rule sees real dependencies: the API package itself depends on the engine.
        assertThat(classes.get("io.ankusa.queue.EngineQueue").getDirectDependenciesFromSelf())
                .anyMatch(d -> d.getTargetClass().getPackageName().equals("io.ankusa.queue.engine"));
    }
}
