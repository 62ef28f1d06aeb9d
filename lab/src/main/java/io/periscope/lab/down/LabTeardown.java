package io.periscope.lab.down;

import io.periscope.lab.dns.PodResolverFiles;
import io.periscope.lab.layout.LabBatches;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.ovn.OvnDaemons;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.state.WireGuardProcess;
import io.periscope.lab.supervisor.SupervisorStop;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Stops the lab's supervisor, the {@code wireguard-go} daemons and the OVN daemons a {@link LabState} lists (their
 * namespaces would outlive the deletion while they run), removes the namespaces it lists and the
 * resolver files of those namespaces under {@code /etc/netns}, and nothing else, then the state
 * itself. Deleting
 * a namespace deletes every interface in it (and so the other end of each veth), its routes and
 * its iptables rules. Namespaces already gone are skipped, so removal can be repeated.
 */
public final class LabTeardown {

    private final CommandRunner runner;
    private final LabStateFile stateFile;
    private final PodResolverFiles resolverFiles;

    public LabTeardown(CommandRunner runner, LabStateFile stateFile) {
        this(runner, stateFile, PodResolverFiles.SYSTEM);
    }

    public LabTeardown(CommandRunner runner, LabStateFile stateFile, PodResolverFiles resolverFiles) {
        this.runner = runner;
        this.stateFile = stateFile;
        this.resolverFiles = resolverFiles;
    }

    /** A {@code wireguard-go} gets this long to end after SIGTERM before it is killed. */
    static final long WIREGUARD_STOP_SECONDS = 5;
    /** Above this many namespaces the deletion takes long enough to announce. */
    private static final int LARGE = 500;

    /** @return the namespaces that were there and are now removed */
    public List<String> remove(LabState state) {
        return remove(state, System.err::println);
    }

    /**
     * The same, saying on {@code progress} what it waits for: stopping the {@code wireguard-go}
     * daemons can take seconds, and a silent wait looks like a hang.
     */
    public List<String> remove(LabState state, Consumer<String> progress) {
        if (state.supervisor() != null) {
            new SupervisorStop().stop(state.supervisor(), progress);
        }
        if (!state.wireGuard().isEmpty()) {
            progress.accept("down: stopping " + state.wireGuard().size() + " wireguard-go daemon"
                    + (state.wireGuard().size() == 1 ? "" : "s") + " of the WireGuard cables (waiting up to "
                    + WIREGUARD_STOP_SECONDS + " s each for it to end, then killing it)");
        }
        state.wireGuard().forEach(this::stop);
        if (!state.ovnRunDirectories().isEmpty()) {
            progress.accept("down: stopping the OVN daemons of " + state.ovnRunDirectories().size() + " cluster"
                    + (state.ovnRunDirectories().size() == 1 ? "" : "s") + " (SIGTERM, then SIGKILL after "
                    + OvnDaemons.STOP_SECONDS + " s) and removing their run directories");
            state.ovnRunDirectories().forEach(directory -> OvnDaemons.stopAllUnder(Path.of(directory)));
        }
        List<String> present = state.namespaces().stream().filter(NetworkNamespaces::exists).toList();
        List<String> stillBusy = new ArrayList<>();
        NetworkNamespaces.processesIn(present).forEach((namespace, pids) -> stillBusy.add(namespace + " (processes "
                + pids.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(" ")) + ")"));
        if (present.size() > LARGE) {
            progress.accept("down: deleting " + present.size() + " namespaces...");
        }
        if (!present.isEmpty()) {
            runner.run(Command.of("ip", "-force", "-batch", "-").withStdin(LabBatches.deleteNamespaces(present)));
        }
        // The pods' resolver files ('cluster dns' of up), which ip netns exec would still bind-mount
        // for a namespace of the same name; only the lab's own files, in its own namespaces' directories.
        state.namespaces().forEach(resolverFiles::remove);
        List<String> left = state.namespaces().stream().filter(NetworkNamespaces::exists).toList();
        if (!left.isEmpty()) {
            throw new IllegalStateException("namespaces could not be removed: " + String.join(", ", left));
        }
        stateFile.delete(state.hash());
        if (!stillBusy.isEmpty()) {
            // Processes the lab did not start (a person's tcpdump, say) keep a removed namespace
            // alive until they end; they are theirs to stop, not the lab's.
            progress.accept("note: processes the lab did not start were still inside: " + String.join("; ", stillBusy)
                    + "; their namespaces disappear when they end");
        }
        return present;
    }

    /**
     * Stops one {@code wireguard-go} the lab started, if that pid is still a {@code wireguard-go} in
     * the recorded namespace: after a crash or a reboot the pid may belong to someone else's process.
     */
    private void stop(WireGuardProcess process) {
        Optional<ProcessHandle> handle = ProcessHandle.of(process.pid());
        if (handle.isEmpty() || !handle.get().info().command().map(c -> c.endsWith("/wireguard-go")).orElse(false)) {
            return;
        }
        String namespace = runner.execute(Command.of("ip", "netns", "identify", Long.toString(process.pid()))).stdout().strip();
        if (!namespace.equals(process.namespace())) {
            return;
        }
        handle.get().destroy();
        try {
            handle.get().onExit().get(WIREGUARD_STOP_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            handle.get().destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot wait for wireguard-go " + process.pid() + " to stop", e);
        }
    }
}
