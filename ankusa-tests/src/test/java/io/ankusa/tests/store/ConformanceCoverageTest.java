package io.ankusa.tests.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.ankusa.store.Stores;
import io.ankusa.store.spi.StoreProvider;
import io.ankusa.testkit.store.StoreConformanceSuite;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Checks that the conformance suite really runs for every backend: each registered provider has a
 * subclass, each subclass is picked up by Surefire and discovers every test of the suite under
 * its own class name (which is what the build output shows per backend), and none is switched off.
 */
class ConformanceCoverageTest {

    private static final List<Class<? extends StoreConformanceSuite>> SUBCLASSES = concreteSubclasses();

    @Test
    void theBackendsOfThisProjectHaveConformanceSubclasses() {
        assertThat(SUBCLASSES).contains(MemoryStoreConformanceTest.class, RocksDbConformanceTest.class,
                LmdbConformanceTest.class);
        assertThat(SUBCLASSES).extracting(ConformanceCoverageTest::backendOf)
                .contains("memory", "rocksdb", "lmdb").doesNotHaveDuplicates();
    }

    @Test
    void everyRegisteredBackendHasAConformanceSubclass() {
        Set<String> covered = SUBCLASSES.stream().map(ConformanceCoverageTest::backendOf).collect(Collectors.toSet());
        assertThat(Stores.providers()).extracting(StoreProvider::name).isNotEmpty().allSatisfy(
                name -> assertThat(covered).as("backends with a conformance subclass").contains(name));
    }

    @Test
    void everySuiteTestIsDiscoveredUnderEverySubclass() {
        Set<String> suiteTests = suiteTestMethods().stream().map(Method::getName).collect(Collectors.toCollection(TreeSet::new));
        assertThat(suiteTests).hasSizeGreaterThan(30);
        for (Class<? extends StoreConformanceSuite> subclass : SUBCLASSES) {
            TestPlan plan = LauncherFactory.create().discover(
                    LauncherDiscoveryRequestBuilder.request().selectors(selectClass(subclass)).build());
            List<MethodSource> sources = plan.getRoots().stream()
                    .flatMap(root -> plan.getDescendants(root).stream())
                    .map(TestIdentifier::getSource)
                    .flatMap(java.util.Optional::stream)
                    .filter(MethodSource.class::isInstance)
                    .map(MethodSource.class::cast)
                    .toList();
            assertThat(sources).as("tests discovered for %s", subclass.getSimpleName())
                    .allSatisfy(source -> assertThat(source.getClassName()).isEqualTo(subclass.getName()));
            Set<String> discovered = sources.stream().map(MethodSource::getMethodName)
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(discovered).as("tests discovered for %s", subclass.getSimpleName())
                    .isEqualTo(suiteTests);
        }
    }

    @Test
    void subclassesRunUnderSurefireAndSwitchNoSuiteTestOff() {
        Set<String> suiteTests = suiteTestMethods().stream().map(Method::getName).collect(Collectors.toSet());
        for (Class<? extends StoreConformanceSuite> subclass : SUBCLASSES) {
            assertThat(subclass.getSimpleName()).as("Surefire's default includes").endsWith("Test");
            assertThat(Arrays.stream(subclass.getDeclaredMethods()).map(Method::getName))
                    .as("%s overrides no suite test", subclass.getSimpleName())
                    .doesNotContainAnyElementsOf(suiteTests);
        }
    }

    @Test
    void suiteTestsArePublicSoThatSubclassesInOtherPackagesInheritThem() {
        assertThat(suiteTestMethods()).allSatisfy(m -> assertThat(Modifier.isPublic(m.getModifiers()))
                .as("%s is public", m.getName()).isTrue());
    }

    private static List<Method> suiteTestMethods() {
        return Arrays.stream(StoreConformanceSuite.class.getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(Test.class) || m.isAnnotationPresent(ParameterizedTest.class))
                .toList();
    }

    private static String backendOf(Class<? extends StoreConformanceSuite> subclass) {
        try {
            var constructor = subclass.getDeclaredConstructor();
            constructor.setAccessible(true);
            // backend() is protected, and the suite lives in the kit's package.
            Method backend = StoreConformanceSuite.class.getDeclaredMethod("backend");
            backend.setAccessible(true);
            return (String) backend.invoke(constructor.newInstance());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot instantiate " + subclass, e);
        }
    }

    private static List<Class<? extends StoreConformanceSuite>> concreteSubclasses() {
        return new ClassFileImporter()
                .importPackages(StoreConformanceSuite.class.getPackageName(), ConformanceCoverageTest.class.getPackageName())
                .get(StoreConformanceSuite.class).getAllSubclasses().stream()
                .filter(c -> !c.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.ABSTRACT))
                .map(JavaClass::reflect)
                .map(c -> c.asSubclass(StoreConformanceSuite.class))
                .sorted((a, b) -> a.getName().compareTo(b.getName()))
                .collect(Collectors.toList());
    }
}
