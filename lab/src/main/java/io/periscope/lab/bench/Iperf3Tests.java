package io.periscope.lab.bench;

import io.periscope.lab.LabRefusal;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.RunningProgram;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.command.CommandResult;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The iperf3 programs of one bench: a server per pair in the namespace where the pair's flow ends,
 * listening on the port its packets arrive on, for one test ({@code -s -1}); and a client per pair in
 * the namespace where the flow starts, running all the pair's streams at once ({@code -P}) from
 * consecutive source ports ({@code --cport}), printing JSON. Every program is started from the
 * calling thread through the lab's command runner, so an interrupted command stops them all (the runner kills
 * every program still running); closing stops whatever still runs. A server also ends by itself when
 * no client came for a while ({@code --idle-timeout}), should the JVM end without stopping it.
 */
final class Iperf3Tests implements AutoCloseable {

    /** How long iperf3's client waits for its control connection. */
    static final int CONNECT_TIMEOUT_MILLIS = 3000;
    static final Duration LISTEN_WAIT = Duration.ofSeconds(5);
    /** How long after its test a client may take to connect and report before it is stopped. */
    static final Duration CLIENT_MARGIN = Duration.ofSeconds(30);

    private final CommandRunner runner;
    private final Map<Integer, RunningProgram> servers = new LinkedHashMap<>();
    private final Map<Integer, RunningProgram> clients = new LinkedHashMap<>();

    Iperf3Tests(CommandRunner runner) {
        this.runner = runner;
    }

    /** Starts every pair's server and returns once each listens. @throws LabRefusal naming a server that does not */
    void startServers(List<BenchPlan.Pair> pairs, int seconds) {
        for (BenchPlan.Pair pair : pairs) {
            List<String> argv = new ArrayList<>(List.of("iperf3", "-4", "-s", "-1", "-p", Integer.toString(pair.serverPort())));
            argv.addAll(List.of("--idle-timeout", Long.toString(seconds + CLIENT_MARGIN.toSeconds())));
            servers.put(pair.index(), runner.start(new Command(argv, "").inNamespace(pair.serverNamespace())));
        }
        for (BenchPlan.Pair pair : pairs) {
            awaitListening(pair);
        }
    }

    private void awaitListening(BenchPlan.Pair pair) {
        long deadline = System.nanoTime() + LISTEN_WAIT.toNanos();
        RunningProgram server = servers.get(pair.index());
        while (true) {
            String listening = runner.execute(Command.of("ss", "-H", "-t", "-l", "-n", "sport", "=", ":" + pair.serverPort())
                    .inNamespace(pair.serverNamespace())).stdout();
            if (!listening.isBlank()) {
                return;
            }
            if (!server.running() || System.nanoTime() > deadline) {
                boolean ended = !server.running();
                CommandResult result = server.await(Duration.ofMillis(100));
                String printed = (result.stderr() + result.stdout()).strip();
                throw new LabRefusal("the iperf3 server of flow " + pair.flow() + " on port " + pair.serverPort() + " of " + pair.server()
                        + " (namespace " + pair.serverNamespace() + ") " + (ended ? "ended without listening" : "did not listen within "
                        + LISTEN_WAIT.toSeconds() + " s") + (printed.isEmpty() ? "" : ": " + printed)
                        + "; is another program using the port (a lab probe's echo server)?");
            }
            pause(Duration.ofMillis(20));
        }
    }

    /** Starts every pair's client: its streams at once, from their source ports, for {@code seconds}. */
    void startClients(List<BenchPlan.Pair> pairs, List<BenchPlan.Stream> streams, int seconds) {
        for (BenchPlan.Pair pair : pairs) {
            List<BenchPlan.Stream> own = BenchPlan.of(streams, pair.index());
            if (own.isEmpty()) {
                continue;
            }
            clients.put(pair.index(), runner.start(new Command(clientArgv(pair, own, seconds), "").inNamespace(pair.sourceNamespace())));
        }
    }

    static List<String> clientArgv(BenchPlan.Pair pair, List<BenchPlan.Stream> own, int seconds) {
        List<String> argv = new ArrayList<>(List.of("iperf3", "-4", "-c", pair.destination().toString(), "-p", Integer.toString(pair.port())));
        argv.addAll(List.of("-P", Integer.toString(own.size()), "--cport", Integer.toString(own.getFirst().sourcePort())));
        argv.addAll(List.of("-t", Integer.toString(seconds), "-J", "--connect-timeout", Integer.toString(CONNECT_TIMEOUT_MILLIS)));
        pair.bind().ifPresent(address -> argv.addAll(List.of("-B", address.toString())));
        return argv;
    }

    /** Each client's result by pair, once every client ended (a client still running after {@code timeout} is stopped). */
    Map<Integer, Iperf3Result> awaitClients(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<Integer, Iperf3Result> results = new LinkedHashMap<>();
        clients.forEach((pair, client) -> {
            Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
            CommandResult ended = client.await(left);
            Iperf3Result result = Iperf3Result.parse(ended.stdout(), ended.stderr());
            if (result.error().isEmpty() && ended.exitCode() != 0 && result.streams().isEmpty()) {
                result = Iperf3Result.failed("iperf3 exited with status " + ended.exitCode() + ": " + ended.stderr().strip());
            }
            results.put(pair, result);
        });
        return results;
    }

    @Override
    public void close() {
        clients.values().forEach(RunningProgram::stop);
        servers.values().forEach(RunningProgram::stop);
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
