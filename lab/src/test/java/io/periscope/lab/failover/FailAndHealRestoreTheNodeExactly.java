package io.periscope.lab.failover;

import io.periscope.lab.supervisor.SupervisorStop;
import io.periscope.lab.RunningLab;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.state.NodeFailure;
import io.periscope.lab.supervisor.SupervisorFiles;
import io.periscope.lab.supervisor.SupervisorStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every failure mode changes what it says and {@code heal} puts back exactly what was there: the
 * links, addresses, routes, nexthops, iptables and nftables rules of the failed node and of every
 * namespace its links lead to, compared before the failure and after the heal (once the node's
 * agent had its pass). Bad requests change nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FailAndHealRestoreTheNodeExactly {

    static final String GATEWAY = "cluster1/gw-1";
    /** Far above what a pass and a health hold-down take, so that only a node that never settles fails. */
    static final Duration SETTLES_WITHIN = Duration.ofSeconds(60);

    @TempDir
    static Path state;

    private RunningLab lab;
    private UpLab up;

    @BeforeAll
    void up() {
        SupervisedLab.assumeRootAndNft();
        lab = RunningLab.up(SupervisedLab.magGlobalnetWithUdp("failheal"), state);
        assertThat(SupervisorStop.running(SupervisedLab.supervisor(lab))).as("lab up leaves its supervisor running").isTrue();
        up = SupervisedLab.upLab(lab);
    }

    @AfterAll
    void down() {
        if (lab != null) {
            lab.close();
        }
    }

    @ParameterizedTest
    @EnumSource(FailureMode.class)
    void healPutsBackWhatFailChanged(FailureMode mode) throws InterruptedException {
        HostNamespace node = up.node(GATEWAY);
        List<String> namespaces = new ArrayList<>(List.of(node.namespace()));
        LabFailure.farEnds(up, node).forEach(end -> namespaces.add(end.namespace()));
        Map<String, String> before = settled(namespaces);
        LabFailure failure = new LabFailure(ProcessCommandRunner.here());

        NodeFailure failed = failure.fail(up, GATEWAY, mode, line -> { });

        assertThat(up.current().failure(GATEWAY)).contains(failed);
        SupervisorFiles files = up.supervisorFiles();
        assertThat(files.stoppedNodes().contains(GATEWAY)).isEqualTo(mode != FailureMode.BLACKHOLE);
        assertThat(files.readStatus().orElseThrow().nodes().get(GATEWAY).running()).isEqualTo(mode == FailureMode.BLACKHOLE);
        switch (mode) {
            case BLACKHOLE -> assertThat(lab.inNamespace(node.namespace(), "nft", "list", "tables")).contains(LabFailure.NFT_TABLE);
            case CRASH -> {
                assertThat(failed.links()).isNotEmpty();
                for (NodeFailure.DownedLink link : failed.links()) {
                    assertThat(lab.inNamespace(link.namespace(), "ip", "-br", "link", "show", "dev", link.device())).contains("DOWN");
                }
            }
            case AGENT_STOP -> assertThat(differences(before, snapshot(namespaces))).as("an agent stop changes no line").isEmpty();
        }
        assertThatThrownBy(() -> failure.fail(up, GATEWAY, FailureMode.BLACKHOLE, line -> { }))
                .hasMessageContaining("already failed");

        failure.heal(up, GATEWAY, line -> { });

        assertThat(up.current().failures()).isEmpty();
        Map<String, String> after = snapshot(namespaces);
        long deadline = System.nanoTime() + SETTLES_WITHIN.toNanos();
        while (!after.equals(before) && System.nanoTime() < deadline) {
            // The resumed agent's first passes put back what the failure took: a crashed node's carrier loss
            // flushed its nexthop objects, and its health checker starts again from its first probes.
            Thread.sleep(100);
            after = snapshot(namespaces);
        }
        assertThat(differences(before, after)).as("lines the heal did not put back (-) or left behind (+); %s", agentOf(GATEWAY))
                .isEmpty();
        assertThat(after).as("the same lines in the same order").isEqualTo(before);
        assertThatThrownBy(() -> failure.heal(up, GATEWAY, line -> { })).hasMessageContaining("is not failed");
        assertThatThrownBy(() -> failure.fail(up, "cluster1/nope", mode, line -> { })).hasMessageContaining("no node 'cluster1/nope'");
    }

    /**
     * The snapshot once the node's agent has converged with no gateway down and two snapshots in a row
     * agree: a probe lost on a loaded machine takes a remote gateway's routes away for a hold-down, and a
     * snapshot taken then would be a state the heal has no reason to restore.
     */
    private Map<String, String> settled(List<String> namespaces) throws InterruptedException {
        long deadline = System.nanoTime() + SETTLES_WITHIN.toNanos();
        Map<String, String> last = Map.of();
        while (System.nanoTime() < deadline) {
            Optional<SupervisorStatus.NodeAgentStatus> agent = up.supervisorFiles().readStatus().map(s -> s.nodes().get(GATEWAY));
            if (agent.isPresent() && agent.get().running() && agent.get().down().isEmpty() && !agent.get().converged().isEmpty()) {
                Map<String, String> now = snapshot(namespaces);
                if (now.equals(last)) {
                    return now;
                }
                last = now;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the node did not settle within " + SETTLES_WITHIN.toSeconds() + " s; " + agentOf(GATEWAY));
    }

    /** What the supervisor says of the node's agent, and the end of its log, for a failure's message. */
    private String agentOf(String node) {
        String status = up.supervisorFiles().readStatus().map(s -> String.valueOf(s.nodes().get(node))).orElse("no status");
        List<String> log;
        try {
            List<String> lines = Files.readAllLines(up.supervisorFiles().log());
            log = lines.subList(Math.max(0, lines.size() - 15), lines.size());
        } catch (IOException e) {
            log = List.of("(no log: " + e.getMessage() + ")");
        }
        return "the supervisor's status of " + node + ": " + status + "; the end of its log:\n  " + String.join("\n  ", log);
    }

    /** What a failure could change, per namespace, without counters, statistics and timers. */
    private Map<String, String> snapshot(List<String> namespaces) {
        Map<String, String> all = new LinkedHashMap<>();
        for (String namespace : namespaces) {
            StringBuilder text = new StringBuilder();
            text.append(lab.inNamespace(namespace, "ip", "-br", "link")).append(lab.inNamespace(namespace, "ip", "-br", "address"));
            text.append(sorted(lab.inNamespace(namespace, "ip", "route", "show", "table", "all")));
            text.append(sorted(lab.inNamespace(namespace, "ip", "nexthop", "show")));
            text.append(lab.inNamespace(namespace, "iptables-save").replaceAll("(?m)^#.*$", "").replaceAll("\\[\\d+:\\d+\\]", ""));
            text.append(lab.inNamespace(namespace, "nft", "list", "tables"));
            all.put(namespace, text.toString());
        }
        return all;
    }

    /** Per namespace, the lines only {@code before} has ("-") and only {@code after} has ("+"), so a failure shows what moved. */
    static List<String> differences(Map<String, String> before, Map<String, String> after) {
        List<String> differences = new ArrayList<>();
        for (String namespace : before.keySet()) {
            List<String> was = before.get(namespace).lines().toList();
            List<String> is = after.getOrDefault(namespace, "").lines().toList();
            was.stream().filter(line -> !is.contains(line)).forEach(line -> differences.add(namespace + ": - " + line));
            is.stream().filter(line -> !was.contains(line)).forEach(line -> differences.add(namespace + ": + " + line));
        }
        return differences;
    }

    private static String sorted(String lines) {
        Set<String> sorted = new TreeSet<>(lines.lines().toList());
        return String.join("\n", sorted) + "\n";
    }
}
