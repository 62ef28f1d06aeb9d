package io.periscope.lab.down;

import io.periscope.lab.layout.LabBatches;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.shell.Invocation;
import io.periscope.lab.shell.Shell;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;

import java.util.ArrayList;
import java.util.List;

/**
 * Removes the namespaces a {@link LabState} lists, and nothing else, then the state itself. Deleting
 * a namespace deletes every interface in it (and so the other end of each veth), its routes and
 * its iptables rules. Namespaces already gone are skipped, so removal can be repeated.
 */
public final class LabTeardown {

    private final Shell shell;
    private final LabStateFile stateFile;

    public LabTeardown(Shell shell, LabStateFile stateFile) {
        this.shell = shell;
        this.stateFile = stateFile;
    }

    /** @return the namespaces that were there and are now removed */
    public List<String> remove(LabState state) {
        List<String> present = state.namespaces().stream().filter(NetworkNamespaces::exists).toList();
        List<String> stillBusy = new ArrayList<>();
        for (String namespace : present) {
            String pids = shell.execute(Invocation.of("ip", "netns", "pids", namespace)).stdout().strip();
            if (!pids.isEmpty()) {
                stillBusy.add(namespace + " (processes " + pids.replace('\n', ' ') + ")");
            }
        }
        if (!present.isEmpty()) {
            shell.run(Invocation.of("ip", "-force", "-batch", "-").withStdin(LabBatches.deleteNamespaces(present)));
        }
        List<String> left = state.namespaces().stream().filter(NetworkNamespaces::exists).toList();
        if (!left.isEmpty()) {
            throw new IllegalStateException("namespaces could not be removed: " + String.join(", ", left));
        }
        stateFile.delete(state.hash());
        if (!stillBusy.isEmpty()) {
            // Processes the lab did not start (a person's tcpdump, say) keep a removed namespace
            // alive until they end; they are theirs to stop, not the lab's.
            System.err.println("note: processes the lab did not start were still inside: " + String.join("; ", stillBusy)
                    + "; their namespaces disappear when they end");
        }
        return present;
    }
}
