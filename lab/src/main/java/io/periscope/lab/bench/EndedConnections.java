package io.periscope.lab.bench;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandFailedException;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.command.RunningProgram;
import io.periscope.lab.layout.HostNamespace;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The TCP connection entries each gateway's kernel deletes while the bench runs, heard as they go:
 * {@code conntrack -E -e DESTROY -p tcp} in every gateway's namespace. A deletion event carries the
 * entry's final counters (with accounting on), so a connection that lived and ended between two
 * readings of the tables, or whose entry the closing reset killed at once, is still known.
 *
 * <p>The kernel may drop events when a listener's socket buffer is full (conntrack then says
 * ENOBUFS on standard error); the readings of the tables still stand, and the bench says so. The
 * listeners are stopped, not asked to end: conntrack writes each event as it comes, so what was
 * written before the stop is all there.
 */
final class EndedConnections implements AutoCloseable {

    private final Map<String, RunningProgram> listeners = new LinkedHashMap<>();

    private EndedConnections() {
    }

    /** Starts one listener per gateway; a gateway whose listener cannot start is left to the table readings. */
    static EndedConnections listen(CommandRunner runner, Map<String, HostNamespace> gateways, Consumer<String> progress) {
        EndedConnections ended = new EndedConnections();
        gateways.forEach((name, gateway) -> {
            try {
                ended.listeners.put(name, runner.start(Command.of("conntrack", "-E", "-e", "DESTROY", "-p", "tcp").inNamespace(gateway.namespace())));
            } catch (CommandFailedException e) {
                progress.accept("bench: cannot listen to " + name + "'s connection events (" + e.getMessage() + "); its table readings stand alone");
            }
        });
        return ended;
    }

    /** Stops the listeners; per gateway, the entries deleted since they started, in the order deleted. */
    Map<String, List<ConntrackEntry>> stop(Consumer<String> progress) {
        Map<String, List<ConntrackEntry>> deleted = new LinkedHashMap<>();
        List<String> lossy = new ArrayList<>();
        listeners.forEach((name, listener) -> {
            boolean endedByItself = !listener.running();
            CommandResult result = listener.await(Duration.ZERO);
            deleted.put(name, ConntrackEntry.parse(result.stdout()));
            if (result.stderr().contains("ENOBUFS")) {
                lossy.add(name);
            } else if (endedByItself && !result.stderr().isBlank()) {
                progress.accept("bench: " + name + "'s connection event listener ended early (" + result.stderr().strip()
                        + "); its table readings stand alone");
            }
        });
        listeners.clear();
        if (!lossy.isEmpty()) {
            progress.accept("bench: the kernel dropped connection events on " + String.join(", ", lossy)
                    + " (ENOBUFS); the table readings fill in what they held");
        }
        return deleted;
    }

    /** Stops whatever still listens, for a bench that ended early. */
    @Override
    public void close() {
        listeners.values().forEach(RunningProgram::stop);
        listeners.clear();
    }
}
