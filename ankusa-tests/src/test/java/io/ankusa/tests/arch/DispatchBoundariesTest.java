package io.ankusa.tests.arch;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.ankusa.dispatch.engine.MarkerCleanup;
import io.ankusa.queue.ledger.DeliveryLedger;
import java.util.Collection;
import java.util.Map;

/**
 * What the dispatcher may see of the queue (design.md "Boundaries", TEN-1 §3 and §5): decoded
 * rows through the ledger port, never a key; and marker deletes come from the pipeline's cleanup
 * only. Checked on the production classes; a guard checks the import saw the dispatcher.
 */
@AnalyzeClasses(packages = "io.ankusa",
        importOptions = {ImportOption.DoNotIncludeTests.class, DoNotIncludeTestJars.class})
class DispatchBoundariesTest {

    @ArchTest
    static final ArchRule theDispatcherNeverBuildsOrDecodesAKey = noClasses()
            .that().resideInAPackage("io.ankusa.dispatch..")
            .should().dependOnClassesThat().resideInAPackage("io.ankusa.keys..")
            .because("the dispatcher works with decoded rows handed out by the queue's ledger; only the queue knows "
                    + "the byte layout (TEN-1 §3)");

    @ArchTest
    static final ArchRule theDispatcherReachesTheQueueOnlyThroughItsApiTheLedgerPortAdmissionAndEvents = noClasses()
            .that().resideInAPackage("io.ankusa.dispatch..")
            .should().dependOnClassesThat(resideInAPackage("io.ankusa.queue..")
                    .and(not(resideInAnyPackage("io.ankusa.queue", "io.ankusa.queue.ledger", "io.ankusa.queue.admission",
                            "io.ankusa.queue.events", "io.ankusa.queue.tracing"))))
            .because("the queue's internals are not exported; the ledger is the dispatcher's port, admission "
                    + "(cached tenant policies, token buckets) the one admission step it shares with ingest, "
                    + "events the one hand-off to listeners both publish through, and tracing the one "
                    + "conversion of a stored trace context");

    @ArchTest
    static final ArchRule onlyThePipelinesMarkerCleanupDeletesActiveMarkers = noClasses()
            .that().doNotHaveFullyQualifiedName(MarkerCleanup.class.getName())
            .and().resideOutsideOfPackage("io.ankusa.queue..")
            .should().callMethod(DeliveryLedger.class, "deleteMarkers", long.class, Collection.class)
            .orShould().callMethod(DeliveryLedger.class, "deleteMarkers", Map.class)
            .orShould().callMethod(DeliveryLedger.class, "restoreMarker", long.class, long.class)
            .because("the pipeline is the only deleter of active markers: the delete-then-verify argument rests on it "
                    + "(TEN-1 §5)");

    @ArchTest
    static void theRulesLookedAtTheDispatcher(JavaClasses classes) {
        assertThat(classes.stream().map(JavaClass::getPackageName))
                .contains("io.ankusa.dispatch", "io.ankusa.dispatch.engine", "io.ankusa.dispatch.sink",
                        "io.ankusa.dispatch.report", "io.ankusa.dispatch.http", "io.ankusa.queue.ledger");
        assertThat(classes.get(MarkerCleanup.class.getName()).getMethodCallsFromSelf())
                .as("the cleanup's own calls, which the rule exempts")
                .anyMatch(call -> call.getTarget().getName().equals("deleteMarkers"));
        assertThat(classes.stream().filter(c -> c.getPackageName().startsWith("io.ankusa.dispatch")).count())
                .as("dispatcher classes imported").isGreaterThan(20);
    }
}
