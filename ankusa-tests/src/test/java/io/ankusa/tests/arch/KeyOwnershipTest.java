package io.ankusa.tests.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.ankusa.keys.ActiveKey;
import io.ankusa.keys.AttemptKey;
import io.ankusa.keys.DeadByTenantKey;
import io.ankusa.keys.DueKey;
import io.ankusa.keys.InflightKey;
import io.ankusa.keys.EndpointKey;
import io.ankusa.keys.OrderKey;
import io.ankusa.keys.QuarantineKey;
import java.util.Set;

/**
 * Who may build which keys (TEN-1 §3 and §9; design.md "Boundaries"). Checked on the production
 * classes only; each rule would also fail if its "that" matched nothing, and a guard checks the
 * import saw the queue and the keys.
 */
@AnalyzeClasses(packages = "io.ankusa",
        importOptions = {ImportOption.DoNotIncludeTests.class, DoNotIncludeTestJars.class})
class KeyOwnershipTest {

    private static final Set<String> KEY_BUILDERS = Set.of(DueKey.class.getName(), InflightKey.class.getName(),
            DeadByTenantKey.class.getName(), ActiveKey.class.getName(), QuarantineKey.class.getName(),
            EndpointKey.class.getName(), OrderKey.class.getName());

    /** Builders of a ?D ?F ?X ?A key: their constructors, encode(), and the static factories and ranges. */
    private static final Set<String> BUILDING_MEMBERS = Set.of("<init>", "encode", "forDue", "tenantRange", "upTo",
            "groupRange");

    private static final DescribedPredicate<JavaCall<?>> A_TENANT_INDEX_KEY_CONSTRUCTOR = DescribedPredicate.describe(
            "a constructor, encoder or range builder of DueKey, InflightKey, DeadByTenantKey, ActiveKey, QuarantineKey, EndpointKey or OrderKey",
            call -> KEY_BUILDERS.contains(call.getTargetOwner().getName())
                    && BUILDING_MEMBERS.contains(call.getTarget().getName()));

    @ArchTest
    static final ArchRule onlyDeliveriesBuildsDueInflightDeadByTenantAndActiveKeys = noClasses()
            .that().resideOutsideOfPackages("io.ankusa.queue.deliveries..", "io.ankusa.keys..")
            .should().callCodeUnitWhere(A_TENANT_INDEX_KEY_CONSTRUCTOR)
            .because("only the deliveries package builds a ?D, ?F, ?X, ?A, ?Q, ?E or ?O key, so no due row is written without its marker and "
                    + "no index row changes without its counter deltas (TEN-1 §3, §9)");

    /** Builders of an attempt history key ({@code ?H}): constructor, encoders, slot keys and ranges. */
    private static final DescribedPredicate<JavaCall<?>> AN_ATTEMPT_HISTORY_KEY_BUILDER = DescribedPredicate.describe(
            "a constructor, encoder or range builder of AttemptKey",
            call -> call.getTargetOwner().getName().equals(AttemptKey.class.getName())
                    && Set.of("<init>", "encodeByTenant", "encodeByHook", "slotKey", "tenantRange", "hookRange", "tenantAll",
                            "tenantsAfter").contains(call.getTarget().getName()));

    @ArchTest
    static final ArchRule onlyDeliveriesBuildsAttemptHistoryKeys = noClasses()
            .that().resideOutsideOfPackages("io.ankusa.queue.deliveries..", "io.ankusa.keys..")
            .should().callCodeUnitWhere(AN_ATTEMPT_HISTORY_KEY_BUILDER)
            .because("only the attempt history in the deliveries package writes ?H keys, so its three keys of an entry "
                    + "(by tenant, by hook, the delivery's slot) change together");

    @ArchTest
    static void theAttemptHistoryRuleSeesRealCalls(JavaClasses classes) {
        assertThat(classes.get("io.ankusa.queue.deliveries.AttemptHistory").getCodeUnits().stream()
                .flatMap(u -> u.getCallsFromSelf().stream())
                .filter(AN_ATTEMPT_HISTORY_KEY_BUILDER)).isNotEmpty();
    }

    @ArchTest
    static final ArchRule onlyTheMigrationTouchesTheFormat2Layout = noClasses()
            .that().resideOutsideOfPackages("io.ankusa.queue.migration..", "io.ankusa.keys.v2..")
            .should().dependOnClassesThat().resideInAPackage("io.ankusa.keys.v2..")
            .because("the format-2 families survive only inside the 2 -> 3 migration");

    @ArchTest
    static final ArchRule onlyTheQueueUsesTheKeyLayout = noClasses()
            .that().resideOutsideOfPackages("io.ankusa.queue..", "io.ankusa.keys..")
            .should().dependOnClassesThat().resideInAPackage("io.ankusa.keys..")
            .because("the byte layout is the queue's; the dispatcher works with decoded rows from the ledger");

    @ArchTest
    static void theRulesLookedAtTheQueueAndTheKeys(JavaClasses classes) {
        assertThat(classes.size()).as("io.ankusa production classes imported").isGreaterThan(60);
        assertThat(classes.stream().map(JavaClass::getPackageName))
                .contains("io.ankusa.queue.deliveries", "io.ankusa.queue.intake", "io.ankusa.queue.migration",
                        "io.ankusa.keys", "io.ankusa.keys.v2", "io.ankusa.dispatch")
                .noneMatch(name -> name.startsWith("io.ankusa.tests"));
        assertThat(classes.stream().filter(c -> KEY_BUILDERS.contains(c.getName())).map(HasName::getName))
                .as("the guarded key classes").hasSize(7);
        // The rule sees real calls: Deliveries itself calls the guarded constructors.
        assertThat(classes.get("io.ankusa.queue.deliveries.Deliveries").getCodeUnits().stream()
                .flatMap(u -> u.getCallsFromSelf().stream())
                .filter(A_TENANT_INDEX_KEY_CONSTRUCTOR)).isNotEmpty();
    }
}
