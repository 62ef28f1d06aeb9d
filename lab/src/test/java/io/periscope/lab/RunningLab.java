package io.periscope.lab;

import io.periscope.lab.agent.ReconcilingAgents;
import io.periscope.lab.down.LabDown;
import io.periscope.lab.down.LabTeardown;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.machine.MachineCapacity;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.probe.FlowSimulation;
import io.periscope.lab.probe.LabProbe;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.state.SupervisorProcess;
import io.periscope.lab.supervisor.SupervisorLauncher;
import io.periscope.lab.up.LabUp;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A lab brought up by a test, under a name of the test's own (so it never meets a lab someone
 * started by hand) and with its state in the test's temporary directory. Closing it removes every
 * namespace of its layout that still exists, whatever state the test left it in.
 */
public final class RunningLab implements AutoCloseable {

    public static final String NEEDS_ROOT = "needs root to create network namespaces";

    private final ClusterSet set;
    private final LabStateFile stateFile;
    private final ProcessCommandRunner runner = ProcessCommandRunner.here();
    private final LabLayout layout;
    private final List<String> progress = new ArrayList<>();
    /**
     * Removes the lab when a signal stops the JVM before the test closed it (Ctrl-C, a build's timeout,
     * a stopped CI run): JUnit then runs no {@code @AfterAll}, and a killed run once left a lab's 27
     * namespaces behind. Registered before anything is created, removed by {@link #close}.
     */
    private final Thread onSignal;

    private RunningLab(ClusterSet set, Path stateDirectory) {
        this.set = set;
        this.stateFile = new LabStateFile(stateDirectory);
        this.layout = LabLayout.of(Planner.plan(LabCables.of(set).set()));
        this.onSignal = Thread.ofPlatform().name("remove-lab-" + set.name()).unstarted(() -> {
            removeWhatIsLeft();
            try {
                // The test's temporary directory, which JUnit would have removed; only when the lab left it empty.
                Files.deleteIfExists(stateDirectory);
            } catch (IOException e) {
                // not empty: something else of the test's is in it
            }
        });
        Runtime.getRuntime().addShutdownHook(onSignal);
    }

    public static void assumeRoot() {
        Assumptions.assumeTrue(NetworkNamespaces.runningAsRoot(), NEEDS_ROOT);
    }

    /** A name no other lab has: the test's, the topology's and this JVM's. */
    public static ClusterSet forTest(ClusterSet set, String test) {
        return Examples.renamed(set, "labtest-" + test + "-" + ProcessHandle.current().pid());
    }

    /**
     * Creates the lab and starts its supervisor, as {@code lab up} does: the agents keep running and
     * every cluster's DNS server answers, which the probe's lookups of flows written with names need.
     * The caller closes it.
     */
    public static RunningLab up(ClusterSet set, Path stateDirectory) {
        RunningLab lab = upWithoutSupervisor(set, stateDirectory);
        try {
            new SupervisorLauncher(lab.stateFile).start(set, lab.layout.names().hash(), lab.progress::add);
        } catch (RuntimeException e) {
            lab.close();
            throw e;
        }
        return lab;
    }

    /**
     * Built from a real file, as {@code lab up FILE} builds it: the state records the file's path and
     * SHA-256, which the commands that act on a running lab ({@code apply}) check.
     */
    public static RunningLab upFrom(Path file, ClusterSet set, Path stateDirectory) {
        RunningLab lab = new RunningLab(set, stateDirectory);
        try {
            new LabUp(lab.runner, lab.stateFile, new ReconcilingAgents()).run(file, set, lab.progress::add);
            new SupervisorLauncher(lab.stateFile).start(set, lab.layout.names().hash(), lab.progress::add);
        } catch (RuntimeException e) {
            lab.close();
            throw e;
        }
        return lab;
    }

    /** The lab as {@code LabUp} alone builds it, for tests of the supervisor's own start. */
    public static RunningLab upWithoutSupervisor(ClusterSet set, Path stateDirectory) {
        RunningLab lab = new RunningLab(set, stateDirectory);
        try {
            new LabUp(lab.runner, lab.stateFile, new ReconcilingAgents()).run(Path.of(set.name() + ".yaml"), set, lab.progress::add);
        } catch (RuntimeException e) {
            lab.close();
            throw e;
        }
        return lab;
    }

    /** The supervisor {@link #up} started, as the state file records it. */
    public SupervisorProcess supervisor() {
        return stateFile.read(layout.names().hash()).map(LabState::supervisor)
                .orElseThrow(() -> new IllegalStateException("lab " + set.name() + " has no supervisor in its state"));
    }

    /** Not created yet: for tests that run {@code up} themselves. */
    public static RunningLab planned(ClusterSet set, Path stateDirectory) {
        return new RunningLab(set, stateDirectory);
    }

    public ClusterSet set() {
        return set;
    }

    /** The plan the lab builds (its cables as the lab runs them). */
    public ClusterSetPlan plan() {
        return Planner.plan(LabCables.of(set).set());
    }

    public LabLayout layout() {
        return layout;
    }

    public LabStateFile stateFile() {
        return stateFile;
    }

    public List<String> progress() {
        return List.copyOf(progress);
    }

    /**
     * A probe of the running lab whose reference is {@code simulations}: the lab's tests pass the
     * simulator's (lab-simulator's {@code SimulatorFlows::new}), or a simulator of the plan changed
     * the way the test changed the kernel's state on purpose.
     */
    public ProbeReport probe(Optional<String> flow, Function<ClusterSetPlan, FlowSimulation> simulations) {
        return new LabProbe(runner, stateFile, simulations).run(Path.of(set.name() + ".yaml"), set, flow, progress::add);
    }

    /** The same, on a machine whose capacity is {@code machine}'s. */
    public ProbeReport probe(Optional<String> flow, Function<ClusterSetPlan, FlowSimulation> simulations,
            Supplier<MachineCapacity> machine) {
        return new LabProbe(runner, stateFile, simulations, machine).run(Path.of(set.name() + ".yaml"), set, flow, progress::add);
    }

    public List<String> down() {
        return new LabDown(runner, stateFile).run(Path.of(set.name() + ".yaml"), set, false, progress::add);
    }

    public String inNamespace(String namespace, String... argv) {
        return runner.run(Command.of(argv).inNamespace(namespace)).stdout();
    }

    /** Every namespace on the machine whose name starts with this lab's prefix. */
    public List<String> namespacesOnTheMachine() {
        String listed = runner.run(Command.of("ip", "netns", "list")).stdout();
        return Arrays.stream(listed.split("\n")).map(line -> line.split(" ")[0]).filter(n -> n.startsWith(layout.names().prefix())).toList();
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(onSignal);
        } catch (IllegalStateException e) {
            // the JVM is shutting down, and the hook removes the lab as well: removal can be repeated
        }
        removeWhatIsLeft();
    }

    private void removeWhatIsLeft() {
        Optional<LabState> state = stateFile.read(layout.names().hash());
        LabState toRemove = state.orElseGet(() -> new LabState(set.name(), "", layout.names().hash(), layout.namespaces(), LabState.BUILDING));
        new LabTeardown(runner, stateFile).remove(toRemove);
    }
}
