package io.periscope.features.lab;

import io.cucumber.java.After;
import io.cucumber.java.AfterAll;
import io.cucumber.java.Before;
import io.cucumber.java.Scenario;
import io.periscope.features.report.FeatureCatalog;
import io.periscope.features.backend.LabBackend;
import io.periscope.features.steps.ClusterSetUnderTest;
import org.opentest4j.TestAbortedException;

/**
 * Glue of the lab suite: every scenario runs in the lab. Where the lab cannot run (not root, or no
 * lab on the classpath) each scenario is skipped, and says why, rather than passing unchecked. A
 * scenario tagged {@code @simulator-only} is skipped here with the reason its description gives
 * (the {@code Simulator only:} line); the lab's pending report counts and lists them.
 */
public final class UseTheLab {

    private static final LabBackend LAB = LabBackend.onThisMachine();

    private final ClusterSetUnderTest world;

    public UseTheLab(ClusterSetUnderTest world) {
        this.world = world;
    }

    private static final FeatureCatalog CATALOG = FeatureCatalog.fromClasspath("features");

    @Before(order = 0)
    public void selectTheLab(Scenario scenario) {
        LAB.unavailable().ifPresent(reason -> {
            throw new TestAbortedException(reason);
        });
        if (scenario.getSourceTagNames().contains(FeatureCatalog.SIMULATOR_ONLY)) {
            // classpath:features/x.feature is an opaque URI: its file name is the text after the last slash.
            String uri = scenario.getUri().toString();
            String file = uri.substring(uri.lastIndexOf('/') + 1);
            String reason = CATALOG.scenario(file, scenario.getName()).flatMap(FeatureCatalog.Entry::simulatorOnlyReason)
                    .orElse("tagged " + FeatureCatalog.SIMULATOR_ONLY + " without a line '" + FeatureCatalog.SIMULATOR_ONLY_REASON
                            + " ...' in its description saying why");
            throw new TestAbortedException(reason);
        }
        world.use(LAB);
    }

    /** A scenario that failed a node (a gateway failover step) leaves the lab healed for the next, even when it failed itself. */
    @After
    public void healWhatTheScenarioFailed() {
        LAB.healFailures();
    }

    /**
     * Whether the scenario's changes went to the running lab in place or rebuilt it (and why): a
     * deletion checked on a rebuilt lab shows no cleanup, and its report must say so.
     */
    @After(order = 20000)
    public void sayHowTheLabTookTheChanges(Scenario scenario) {
        for (String note : LAB.takeNotes()) {
            scenario.log(note);
            System.out.println("[lab] " + scenario.getName() + ": " + note);
        }
    }

    @AfterAll
    public static void takeTheLabDown() {
        LAB.shutDown();
    }
}
