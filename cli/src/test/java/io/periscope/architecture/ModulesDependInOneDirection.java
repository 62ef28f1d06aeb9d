package io.periscope.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import io.periscope.lab.wrongway.LabReachingTheSimulator;
import io.periscope.labsimulator.SimulatorFailover;
import io.periscope.model.wrongway.ModelReachingUp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The dependency direction docs/architecture.md draws, checked on the compiled main classes of every
 * module (this module's test classpath holds them all, as class directories or as jars): a class
 * that reaches the wrong way, or a new cycle between packages, fails the build here rather than being
 * found in review.
 */
class ModulesDependInOneDirection {

    /** Main classes only: not this build's test classes, nor a module's test jar (the visualizer's). */
    private static final ImportOption MAIN_CLASSES = location -> !location.contains("/test-classes/")
            && !location.contains("-tests.jar");
    private static final List<String> ROOTS = List.of("model", "plan", "planner", "simulator", "dataplane", "dns", "kubernetes",
            "lab",
            "visualizer", "cli");

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter().withImportOption(MAIN_CLASSES).importPackages("io.periscope");
    }

    static LayeredArchitecture layers() {
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("model").definedBy("io.periscope.model..")
                .layer("plan").definedBy("io.periscope.plan..")
                .layer("planner").definedBy("io.periscope.planner..")
                .layer("simulator").definedBy("io.periscope.simulator..")
                .layer("dataplane").definedBy("io.periscope.dataplane..")
                .layer("dns").definedBy("io.periscope.dns..")
                .layer("kubernetes").definedBy("io.periscope.kubernetes..")
                .layer("lab").definedBy("io.periscope.lab..")
                .layer("lab-simulator").definedBy("io.periscope.labsimulator..")
                .layer("visualizer").definedBy("io.periscope.visualizer..")
                .layer("cli").definedBy("io.periscope.cli..")
                .whereLayer("cli").mayNotBeAccessedByAnyLayer()
                .whereLayer("visualizer").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("lab-simulator").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("lab").mayOnlyBeAccessedByLayers("lab-simulator", "cli")
                .whereLayer("kubernetes").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("dataplane").mayOnlyBeAccessedByLayers("kubernetes", "lab", "cli")
                .whereLayer("dns").mayOnlyBeAccessedByLayers("kubernetes", "lab", "cli")
                .whereLayer("simulator").mayOnlyBeAccessedByLayers("lab-simulator", "visualizer", "cli")
                .whereLayer("planner").mayOnlyBeAccessedByLayers("kubernetes", "lab", "visualizer", "cli")
                .whereLayer("plan").mayOnlyBeAccessedByLayers("planner", "simulator", "dataplane", "dns", "kubernetes", "lab",
                        "lab-simulator", "visualizer", "cli");
    }

    /** A rule over classes that are not there would hold vacuously: every module's classes were found. */
    @Test
    void everyModulesClassesAreImported() {
        for (String root : ROOTS) {
            String pkg = "io.periscope." + root;
            assertThat(classes.stream().filter(c -> c.getPackageName().equals(pkg) || c.getPackageName().startsWith(pkg + ".")))
                    .as("main classes under io.periscope.%s", root).hasSizeGreaterThan(5);
        }
        assertThat(classes.contain(SimulatorFailover.class)).as("lab-simulator's adapters (a handful of classes)").isTrue();
        assertThat(classes.contain(ModelReachingUp.class)).as("the wrong-way fixture is a test class").isFalse();
        assertThat(classes.contain(LabReachingTheSimulator.class)).as("the wrong-way fixture is a test class").isFalse();
    }

    @Test
    void everyModuleUsesOnlyTheModulesBelowIt() {
        layers().check(classes);
    }

    @Test
    void aModelClassThatUsesTheSimulatorBreaksTheRule() {
        JavaClasses withFixture = new ClassFileImporter().importClasses(ModelReachingUp.class, io.periscope.simulator.Simulator.class);

        assertThatThrownBy(() -> layers().check(withFixture)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("ModelReachingUp").hasMessageContaining("io.periscope.simulator.Simulator");
    }

    @Test
    void aLabClassThatUsesTheSimulatorBreaksTheRule() {
        JavaClasses withFixture = new ClassFileImporter().importClasses(LabReachingTheSimulator.class, io.periscope.simulator.Simulator.class);

        assertThatThrownBy(() -> layers().check(withFixture)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("LabReachingTheSimulator").hasMessageContaining("io.periscope.simulator.Simulator");
    }

    @Test
    void theModulesFormNoCycle() {
        slices().matching("io.periscope.(*)..").should().beFreeOfCycles().check(classes);
    }

    @ParameterizedTest
    @ValueSource(strings = {"model", "plan", "planner"})
    void noPackageCycleInsideTheSharedModel(String root) {
        // The planner's classes all sit in io.periscope.planner today (its benchmark went to benchmarks/),
        // so its rule has no slice to check yet; it holds for any package the planner gains.
        slices().matching("io.periscope." + root + ".(*)..").should().beFreeOfCycles().allowEmptyShould(root.equals("planner"))
                .check(classes);
    }
}
