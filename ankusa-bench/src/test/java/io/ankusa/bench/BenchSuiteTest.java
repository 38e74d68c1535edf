package io.ankusa.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BenchSuiteTest {

    @AfterEach
    void forget() {
        System.clearProperty("ankusa.bench.testOnly");
        System.clearProperty("ankusa.bench.testKept");
    }

    @Test
    void aBenchsOwnOptionOnTheMavenCommandLineReachesTheSuiteAndAPassedOneKeepsItsValue() {
        System.setProperty("ankusa.bench.testKept", "from-the-profile");

        BenchSuite.adoptCommandLine(" -B -Pbench verify -pl ankusa-bench -Dankusa.bench.testOnly=10000"
                + " -Dankusa.bench.testKept=from-the-command-line -Dother.option=1 -Dankusa.bench.noValue");

        assertThat(System.getProperty("ankusa.bench.testOnly")).isEqualTo("10000");
        assertThat(System.getProperty("ankusa.bench.testKept")).isEqualTo("from-the-profile");
        assertThat(System.getProperty("other.option")).isNull();
        assertThat(System.getProperty("ankusa.bench.noValue")).isNull();
    }

    @Test
    void theDrainProfileRunsOnlyWhenNamed() {
        assertThat(BenchSuite.BENCHES).noneMatch(b -> b.endsWith(".DrainProfile"));
        assertThat(BenchSuite.ON_REQUEST).anyMatch(b -> b.endsWith(".DrainProfile"));
    }
}
