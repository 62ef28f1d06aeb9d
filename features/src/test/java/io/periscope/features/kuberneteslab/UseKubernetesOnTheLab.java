package io.periscope.features.kuberneteslab;

import io.cucumber.java.After;
import io.cucumber.java.AfterAll;
import io.cucumber.java.Before;
import io.cucumber.java.Scenario;
import io.periscope.features.backend.LabBackend;
import io.periscope.features.kubernetes.KubernetesLab;
import io.periscope.features.steps.ClusterSetUnderTest;
import org.opentest4j.TestAbortedException;

/**
 * Glue of the kubernetes-on-lab suite: every scenario it selects runs on the lab's namespaces,
 * programmed by the production Kubernetes agents against fabric8's mock API servers (kube-apiserver
 * cannot be had on this machine). As root only; otherwise each scenario is skipped with the reason.
 */
public final class UseKubernetesOnTheLab {

    private static final LabBackend BACKEND = LabBackend.kubernetesOnThisMachine(KubernetesLab::new);

    private final ClusterSetUnderTest world;

    public UseKubernetesOnTheLab(ClusterSetUnderTest world) {
        this.world = world;
    }

    @Before(order = 0)
    public void selectKubernetesOnTheLab() {
        BACKEND.unavailable().ifPresent(reason -> {
            throw new TestAbortedException(reason);
        });
        world.use(BACKEND);
    }

    /** A scenario that failed a gateway leaves the lab healed for the next, even when it failed itself. */
    @After
    public void healWhatTheScenarioFailed() {
        BACKEND.healFailures();
    }

    /** Whether a changed cluster set was rebuilt (a reader must know no deletion was shown), and what a failover measured. */
    @After(order = 20000)
    public void sayHowTheLabTookTheChanges(Scenario scenario) {
        for (String note : BACKEND.takeNotes()) {
            scenario.log(note);
            System.out.println("[kubernetes-on-lab] " + scenario.getName() + ": " + note);
        }
    }

    @AfterAll
    public static void takeTheLabDown() {
        BACKEND.shutDown();
    }
}
