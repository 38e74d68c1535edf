package io.ankusa.tests.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.ankusa.keys.AuditKey;
import io.ankusa.keys.DedupeExpiryKey;
import io.ankusa.keys.DedupeKey;
import io.ankusa.queue.intake.IdempotencyKeys;
import io.ankusa.queue.upkeep.AuditLog;
import java.util.Set;

/**
 * Who may build the operator families' keys: dedupe entries are the ingest writer's alone (its
 * check and its sweep cannot race only because nothing else writes them), audit keys the audit
 * log's. Production classes only.
 */
@AnalyzeClasses(packages = "io.ankusa",
        importOptions = {ImportOption.DoNotIncludeTests.class, DoNotIncludeTestJars.class})
class OperatorKeyOwnershipTest {

    private static final Set<String> BUILDING_MEMBERS = Set.of("<init>", "encode", "of", "value", "tenantRange", "expiredBy",
            "before");

    private static DescribedPredicate<JavaCall<?>> buildingA(Class<?>... keys) {
        Set<String> names = java.util.Arrays.stream(keys).map(Class::getName).collect(java.util.stream.Collectors.toSet());
        return DescribedPredicate.describe("a constructor, encoder or range builder of " + names,
                call -> names.contains(call.getTargetOwner().getName()) && BUILDING_MEMBERS.contains(call.getTarget().getName()));
    }

    @ArchTest
    static final ArchRule onlyIdempotencyKeysBuildsDedupeKeys = noClasses()
            .that().doNotHaveFullyQualifiedName(IdempotencyKeys.class.getName())
            .and().resideOutsideOfPackage("io.ankusa.keys..")
            .should().callCodeUnitWhere(buildingA(DedupeKey.class, DedupeExpiryKey.class))
            .because("?u and ?e are written only on the ingest writer's thread (IdempotencyKeys), which is what keeps "
                    + "the dedupe check and the expiry sweep from racing");

    @ArchTest
    static final ArchRule onlyTheAuditLogBuildsAuditKeys = noClasses()
            .that().doNotHaveFullyQualifiedName(AuditLog.class.getName())
            .and().resideOutsideOfPackage("io.ankusa.keys..")
            .should().callCodeUnitWhere(buildingA(AuditKey.class))
            .because("audit seqs are drawn by the AuditLog alone, so they are unique and never reused");

    @ArchTest
    static void theRulesSawTheOwners(JavaClasses classes) {
        assertThat(classes.contain(IdempotencyKeys.class.getName())).isTrue();
        assertThat(classes.contain(AuditLog.class.getName())).isTrue();
        assertThat(classes.get(IdempotencyKeys.class.getName()).getCodeUnits().stream()
                .flatMap(u -> u.getCallsFromSelf().stream())
                .filter(buildingA(DedupeKey.class, DedupeExpiryKey.class))).isNotEmpty();
    }
}
