package io.periscope.features.backend;

import io.periscope.model.topology.ClusterSet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Runs the scenarios in the lab: real namespaces, real packets. It needs root and a {@link LabDriver}
 * on the test classpath; without either it says why, and the lab suite skips every scenario with
 * that reason instead of pretending. One lab is up at a time; consecutive scenarios on the same
 * cluster set share it.
 */
public final class LabBackend implements Backend {

    /** The start of every skip message, so that a skipped lab run is recognised at a glance. */
    public static final String NEEDS = "needs root and the lab (lab)";

    /** The name of the backend whose lab nodes are programmed by the production Kubernetes agents. */
    public static final String KUBERNETES_ON_LAB = "kubernetes-on-lab";

    private final String name;
    private final Optional<LabDriver> driver;
    private final Optional<String> unavailable;
    private ClusterSet current;
    private Deployment deployment;

    private LabBackend(Optional<LabDriver> driver, Optional<String> unavailable) {
        this("lab", driver, unavailable);
    }

    private LabBackend(String name, Optional<LabDriver> driver, Optional<String> unavailable) {
        this.name = name;
        this.driver = driver;
        this.unavailable = unavailable;
    }

    /**
     * The lab's namespaces programmed by the production Kubernetes agents instead of the lab's own
     * ({@code kubernetes-on-lab}): {@code driver} builds them; as root only, like the lab.
     */
    public static LabBackend kubernetesOnThisMachine(java.util.function.Supplier<LabDriver> driver) {
        ProcessUser uid = ProcessUser.effective(Path.of("/proc/self/status"));
        if (!uid.isRoot()) {
            return new LabBackend(KUBERNETES_ON_LAB, Optional.empty(), Optional.of(NEEDS + ": this process runs as " + uid.describe()
                    + "; run KubernetesOnLabAcceptance as root, e.g. sudo mvn -pl features -am verify"));
        }
        return new LabBackend(KUBERNETES_ON_LAB, Optional.of(driver.get()), Optional.empty());
    }

    /** The lab as this machine and this classpath offer it. */
    public static LabBackend onThisMachine() {
        ProcessUser uid = ProcessUser.effective(Path.of("/proc/self/status"));
        if (!uid.isRoot()) {
            return new LabBackend(Optional.empty(), Optional.of(NEEDS + ": this process runs as " + uid.describe()
                    + "; run the lab suite as root, e.g. sudo mvn -pl features -am verify"));
        }
        List<LabDriver> drivers = ServiceLoader.load(LabDriver.class).stream().map(ServiceLoader.Provider::get).toList();
        if (drivers.isEmpty()) {
            return new LabBackend(Optional.empty(), Optional.of(NEEDS + ": no LabDriver on the test classpath, so the lab module "
                    + "is not available to this suite; add periscope-lab and its LabDriver adapter to features/"));
        }
        if (drivers.size() > 1) {
            return new LabBackend(Optional.empty(), Optional.of(NEEDS + ": " + drivers.size() + " LabDrivers on the test classpath ("
                    + drivers.stream().map(d -> d.getClass().getName()).toList() + "); keep exactly one"));
        }
        return new LabBackend(Optional.of(drivers.getFirst()), Optional.empty());
    }

    /** Why the lab cannot run here, or empty when it can. */
    public Optional<String> unavailable() {
        return unavailable;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public synchronized Deployment deploy(ClusterSet set) {
        LabDriver lab = driver.orElseThrow(() -> new IllegalStateException(unavailable.orElse(NEEDS)));
        if (!set.equals(current)) {
            // A build that fails has already taken the previous lab down: nothing is reused after it.
            current = null;
            deployment = null;
            deployment = lab.up(set);
            current = set;
        }
        return deployment;
    }

    /** The lab's own {@code lab up} given the file: it must refuse it before creating anything ({@link LabDriver#refuse}). */
    @Override
    public synchronized Optional<io.periscope.model.load.TopologyException> refusal(String yaml) {
        LabDriver lab = driver.orElseThrow(() -> new IllegalStateException(unavailable.orElse(NEEDS)));
        // The namespaces listed before and after the refusal: nothing was created.
        EvidenceLog.record(Evidence.KERNEL_STATE);
        return lab.refuse(yaml);
    }

    /** How the lab realised this scenario's changes of the cluster set (see {@link LabDriver#takeNotes}). */
    public synchronized List<String> takeNotes() {
        return driver.map(LabDriver::takeNotes).orElse(List.of());
    }

    @Override
    public synchronized Deployment change(ClusterSet changed) {
        LabDriver lab = driver.orElseThrow(() -> new IllegalStateException(unavailable.orElse(NEEDS)));
        if (!changed.equals(current)) {
            try {
                deployment = current == null ? lab.up(changed) : lab.change(changed);
            } catch (RuntimeException | AssertionError e) {
                // The lab may now run either set (an apply that timed out was handed over): the next deploy rebuilds.
                current = null;
                deployment = null;
                throw e;
            }
            current = changed;
        }
        return deployment;
    }

    /** The lab that runs holds more than its cluster set says: the next deploy builds the set anew. */
    @Override
    public synchronized void changedOutsideTheSet() {
        current = null;
    }

    /** Heals whatever the scenario left failed in the lab that is up. */
    public synchronized void healFailures() {
        if (current != null) {
            driver.ifPresent(LabDriver::healFailures);
        }
    }

    /** Takes the lab down after the last scenario. */
    public synchronized void shutDown() {
        if (current != null || deployment != null) {
            driver.ifPresent(LabDriver::down);
            current = null;
            deployment = null;
        }
    }

    /** The effective user id from {@code /proc/self/status}, when the file says. */
    private record ProcessUser(Optional<Integer> uid) {

        static ProcessUser effective(Path status) {
            try {
                for (String line : Files.readAllLines(status)) {
                    if (line.startsWith("Uid:")) {
                        String[] ids = line.substring(4).trim().split("\\s+");
                        return new ProcessUser(Optional.of(Integer.parseInt(ids[1])));
                    }
                }
            } catch (IOException | RuntimeException e) {
                return new ProcessUser(Optional.empty());
            }
            return new ProcessUser(Optional.empty());
        }

        boolean isRoot() {
            return uid.filter(id -> id == 0).isPresent();
        }

        String describe() {
            return uid.map(id -> "uid " + id).orElse("an unknown user (no /proc/self/status)");
        }
    }
}
