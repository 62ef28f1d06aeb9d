package io.periscope.features.lab;

import io.cucumber.java.AfterAll;
import io.cucumber.java.Before;
import io.periscope.features.backend.LabBackend;
import io.periscope.features.steps.ClusterSetUnderTest;
import org.opentest4j.TestAbortedException;

/**
 * Glue of the lab suite: every scenario runs in the lab. Where the lab cannot run (not root, or no
 * lab on the classpath) each scenario is skipped, and says why, rather than passing unchecked.
 */
public final class UseTheLab {

    private static final LabBackend LAB = LabBackend.onThisMachine();

    private final ClusterSetUnderTest world;

    public UseTheLab(ClusterSetUnderTest world) {
        this.world = world;
    }

    @Before(order = 0)
    public void selectTheLab() {
        LAB.unavailable().ifPresent(reason -> {
            throw new TestAbortedException(reason);
        });
        world.use(LAB);
    }

    @AfterAll
    public static void takeTheLabDown() {
        LAB.shutDown();
    }
}
