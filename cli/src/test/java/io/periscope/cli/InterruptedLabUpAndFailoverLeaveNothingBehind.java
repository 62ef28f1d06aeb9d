package io.periscope.cli;

import io.periscope.lab.layout.LabNames;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.supervisor.SupervisorFiles;
import io.periscope.lab.supervisor.SupervisorStop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Ctrl-C (SIGINT to the command's whole process group, as a terminal sends it) or SIGTERM (to the JVM alone, as a
 * service manager or {@code timeout} sends it) during {@code lab up} and {@code lab failover}, at every phase
 * boundary and at seeded random moments ({@code -Dperiscope.interrupt.seed=N} replays another set): an interrupted
 * {@code up} leaves no namespace, process, state file or resolver file behind, unless it said {@code up:} first (then
 * the lab is whole, its supervisor running); an interrupted {@code failover} leaves the lab as it found it (no failed
 * node, no stopped agents, no counting or failing nftables table, no link down). After them the next {@code up} and
 * the next {@code failover} work.
 */
class InterruptedLabUpAndFailoverLeaveNothingBehind {

    private static final long SEED = Long.getLong("periscope.interrupt.seed", 27);
    /** Every line {@code lab up} prints after a phase, in order, for the small topology below. */
    private static final List<String> UP_PHASES = List.of("plan:", "namespaces:", "sysctls:", "veths:", "wires:", "addresses and routes:",
            "wireguard:", "node environment rules:", "kube-proxy:", "agents:", "converged:", "links:", "cluster dns:", "supervisor:");
    private static final List<String> FAILOVER_PHASES = List.of("failover:", "fail:");
    private static final Duration ENDS_WITHIN = Duration.ofSeconds(120);

    /**
     * Small on purpose (most cases build it again): two clusters of a gateway and a worker each, a WireGuard cable
     * (wireguard-go daemons) with a delay (the supervisor's delay lines), a UDP flow for the failover's streams.
     */
    private static final String TOPOLOGY = """
            name: %s
            defaults:
              cableDriver: wireguard
            clusters:
              - name: cluster1
                podCIDRs: [10.1.0.0/16]
                serviceCIDRs: [100.1.0.0/16]
                nodes:
                  - {name: gw-1, ip: 172.18.0.6, cniIP: 10.1.0.1, gateway: true}
                  - {name: worker-1, ip: 172.18.0.10, cniIP: 10.1.128.1}
                pods:
                  - {name: client, namespace: default, node: worker-1, ip: 10.1.128.4, labels: {app: client}}
              - name: cluster2
                podCIDRs: [10.2.0.0/16]
                serviceCIDRs: [100.2.0.0/16]
                nodes:
                  - {name: gw-2, ip: 172.18.0.9, cniIP: 10.2.0.1, gateway: true}
                  - {name: worker-2, ip: 172.18.0.12, cniIP: 10.2.128.1}
                pods:
                  - {name: server, namespace: default, node: worker-2, ip: 10.2.128.5, labels: {app: server}}
                services:
                  - name: server
                    namespace: default
                    clusterIP: 100.2.0.132
                    selector: {app: server}
                    ports: [{port: 5001, targetPort: 5001, protocol: UDP}]
                exports: [default/server]
            cables:
              - between: [cluster1, cluster2]
                delay: 1ms
            flows:
              - name: client-to-server-udp
                from: cluster1/default/client
                to: server.default.svc.clusterset.local:5001
                protocol: udp
                expect: delivered
            """;

    /** Where and how a command is interrupted: after the line starting {@code afterLine} (empty: none), then {@code afterMillis}. */
    record Interruption(String signal, String afterLine, long afterMillis) {

        @Override
        public String toString() {
            return "SIG" + signal + (afterLine.isEmpty() ? "" : " after '" + afterLine + "'") + (afterMillis == 0 ? "" : " +" + afterMillis + " ms");
        }
    }

    @TempDir
    Path directory;

    private Path file;
    private LabNames names;

    @AfterEach
    void removeTheLab() {
        if (file != null) {
            PeriscopeRun.of("lab", "down", file.toString());
        }
    }

    @Test
    void labUpInterruptedAtEveryPhaseAndAtRandomLeavesNothingOrAWholeLab() throws Exception {
        assumeTrue(NetworkNamespaces.runningAsRoot(), "needs root to create network namespaces");
        writeTopology("intup");
        Random random = new Random(SEED);
        List<Interruption> cases = new ArrayList<>();
        for (int i = 0; i < UP_PHASES.size(); i++) {
            cases.add(new Interruption(i % 2 == 0 ? "INT" : "TERM", UP_PHASES.get(i), 0));
        }
        for (int i = 0; i < 4; i++) {
            // from the JVM's start to a little past a small lab's usual end
            cases.add(new Interruption(random.nextBoolean() ? "INT" : "TERM", "", random.nextLong(8000)));
        }
        List<String> problems = new ArrayList<>();
        for (Interruption interruption : cases) {
            Set<Long> wireGuardBefore = LabOnTheMachine.wireGuardDaemons();
            CommandInAProcess up = interrupt(interruption, "lab", "up", file.toString());
            List<String> output = up.output();
            problems.addAll(saidOnlyWhatHappened(interruption, up, output));
            if (output.stream().anyMatch(l -> l.startsWith("up: "))) {
                // It finished before the signal: what it said is up must be up, supervisor and all.
                Optional<String> notWhole = notWhole(new LabStateFile().read(names.hash()));
                notWhole.ifPresent(why -> problems.add(interruption + ": said 'up:' but the lab is not whole: " + why + "\n"
                        + String.join("\n", output)));
                PeriscopeRun down = PeriscopeRun.of("lab", "down", file.toString());
                assertThat(down.status()).as(down.err()).isZero();
            }
            List<String> left = LabOnTheMachine.leftBehind(names, wireGuardBefore);
            if (!left.isEmpty()) {
                problems.add(interruption + ": left " + left + "\n" + String.join("\n", output));
                PeriscopeRun.of("lab", "down", file.toString());
            }
        }
        assertThat(problems).as("seed %d", SEED).isEmpty();

        PeriscopeRun up = PeriscopeRun.of("lab", "up", file.toString());
        assertThat(up.status()).as("the next lab up works: %s", up.err()).isZero();
        PeriscopeRun down = PeriscopeRun.of("lab", "down", file.toString());
        assertThat(down.status()).as(down.err()).isZero();
        assertThat(LabOnTheMachine.leftBehind(names, Set.of())).isEmpty();
    }

    @Test
    void labFailoverInterruptedBeforeAndAfterTheFailureLeavesTheLabAsItWas() throws Exception {
        assumeTrue(NetworkNamespaces.runningAsRoot(), "needs root to create network namespaces");
        writeTopology("intfo");
        PeriscopeRun up = PeriscopeRun.of("lab", "up", file.toString());
        assertThat(up.status()).as(up.err()).isZero();
        List<String> namespaces = LabOnTheMachine.namespaces(names);
        Set<String> linksDownBefore = linksDown(namespaces);
        Random random = new Random(SEED);
        List<Interruption> cases = new ArrayList<>();
        for (String phase : FAILOVER_PHASES) {
            cases.add(new Interruption("INT", phase, 0));
            cases.add(new Interruption("TERM", phase, 0));
        }
        for (int i = 0; i < 3; i++) {
            // the streams start about two seconds in and the node fails two seconds later
            cases.add(new Interruption(random.nextBoolean() ? "INT" : "TERM", "failover:", random.nextLong(6000)));
        }
        List<String> problems = new ArrayList<>();
        for (Interruption interruption : cases) {
            CommandInAProcess failover = interrupt(interruption, "lab", "failover", file.toString(), "--fail", "cluster1/gw-1",
                    "--flows", "4", "--rate", "200", "--tcp", "0");
            List<String> output = failover.output();
            problems.addAll(saidOnlyWhatHappened(interruption, failover, output));
            LabState state = new LabStateFile().read(names.hash()).orElseThrow();
            List<String> wrong = new ArrayList<>();
            if (!state.failures().isEmpty()) {
                wrong.add("failed nodes " + state.failures());
            }
            Set<String> stopped = new SupervisorFiles(new LabStateFile().directoryFor(names.hash())).stoppedNodes();
            if (!stopped.isEmpty()) {
                wrong.add("agents stopped on " + stopped);
            }
            wrong.addAll(tables(namespaces));
            Set<String> down = linksDown(namespaces);
            down.removeAll(linksDownBefore);
            if (!down.isEmpty()) {
                wrong.add("links down " + down);
            }
            if (!wrong.isEmpty()) {
                problems.add(interruption + ": left " + wrong + "\n" + String.join("\n", output));
            }
        }
        assertThat(problems).as("seed %d", SEED).isEmpty();

        PeriscopeRun failover = PeriscopeRun.of("lab", "failover", file.toString(), "--fail", "cluster1/gw-1", "--flows", "4", "--rate", "200",
                "--tcp", "0");
        assertThat(failover.status()).as("the next failover works: %s", failover.err()).isZero();
    }

    /** Why a lab that said {@code up:} is not whole; empty when it is (converged, its supervisor running). */
    private static Optional<String> notWhole(Optional<LabState> state) {
        if (state.isEmpty()) {
            return Optional.of("no state file");
        }
        if (!state.get().state().equals(LabState.CONVERGED)) {
            return Optional.of("its state is " + state.get().state() + ": " + state.get());
        }
        if (state.get().supervisor() == null) {
            return Optional.of("no supervisor recorded: " + state.get());
        }
        if (!SupervisorStop.running(state.get().supervisor())) {
            boolean pidAlive = ProcessHandle.of(state.get().supervisor().pid()).map(ProcessHandle::isAlive).orElse(false);
            return Optional.of(pidAlive ? "pid " + state.get().supervisor().pid() + " runs, but not as the recorded supervisor (its start differs): "
                    + state.get().supervisor() : "the supervisor is not running: " + state.get().supervisor());
        }
        return Optional.empty();
    }

    private void writeTopology(String prefix) throws IOException {
        String topology = prefix + "-" + ProcessHandle.current().pid();
        names = LabNames.of(topology);
        file = Files.writeString(directory.resolve(prefix + ".yaml"), TOPOLOGY.formatted(topology));
    }

    /** Runs the command and signals it as {@code interruption} says; returns once it ended. */
    private static CommandInAProcess interrupt(Interruption interruption, String... args) throws Exception {
        CommandInAProcess command = CommandInAProcess.startInItsOwnGroup((running, line) -> {
            if (!interruption.afterLine().isEmpty() && line.startsWith(interruption.afterLine())) {
                Thread.ofPlatform().daemon().start(() -> send(running, interruption));
            }
        }, args);
        if (interruption.afterLine().isEmpty()) {
            send(command, interruption);
        }
        assertThat(command.ends(ENDS_WITHIN)).as("%s: the interrupted command ends; it said %s", interruption, command.output()).isTrue();
        return command;
    }

    private static void send(CommandInAProcess command, Interruption interruption) {
        try {
            Thread.sleep(interruption.afterMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (interruption.signal().equals("INT")) {
            command.signalGroup("INT");
        } else {
            command.signal("TERM");
        }
    }

    /** Exit 130 or 143 (0 when it finished first), and no internal error: the signal is not a bug. */
    private static List<String> saidOnlyWhatHappened(Interruption interruption, CommandInAProcess command, List<String> output) {
        List<String> problems = new ArrayList<>();
        int expected = interruption.signal().equals("INT") ? 130 : 143;
        if (command.exitValue() != expected && command.exitValue() != 0
                || output.stream().anyMatch(l -> l.contains("internal error") || l.contains("could not undo"))) {
            problems.add(interruption + ": exit " + command.exitValue() + " (" + expected + " expected), said\n" + String.join("\n", output));
        }
        return problems;
    }

    /** The failover's and the fail's own nftables tables, wherever they are. */
    private static List<String> tables(List<String> namespaces) throws IOException, InterruptedException {
        List<String> found = new ArrayList<>();
        for (String namespace : namespaces) {
            String tables = LabOnTheMachine.output("ip", "netns", "exec", namespace, "nft", "list", "tables");
            for (String table : List.of("periscope_lab_count", "periscope_lab_fail")) {
                if (tables.contains(table)) {
                    found.add(namespace + ": table " + table);
                }
            }
        }
        return found;
    }

    /** Every device set down, as {@code namespace/device}. */
    private static Set<String> linksDown(List<String> namespaces) throws IOException, InterruptedException {
        Set<String> down = new TreeSet<>();
        for (String namespace : namespaces) {
            for (String line : LabOnTheMachine.output("ip", "-n", namespace, "-o", "link", "show").split("\n")) {
                // "7: eth0@if8: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 ..."
                String[] fields = line.split(": ", 3);
                if (fields.length == 3 && fields[2].startsWith("<")
                        && !List.of(fields[2].substring(1, fields[2].indexOf('>')).split(",")).contains("UP")) {
                    down.add(namespace + "/" + fields[1].split("@")[0]);
                }
            }
        }
        return down;
    }
}
