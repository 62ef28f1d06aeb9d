package io.periscope.lab.failover;

import io.periscope.lab.supervisor.SupervisorStop;
import io.periscope.lab.RunningLab;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.state.NodeFailure;
import io.periscope.lab.supervisor.SupervisorFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
        Map<String, String> before = snapshot(namespaces);
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
            case AGENT_STOP -> assertThat(snapshot(namespaces)).isEqualTo(before);
        }
        assertThatThrownBy(() -> failure.fail(up, GATEWAY, FailureMode.BLACKHOLE, line -> { }))
                .hasMessageContaining("already failed");

        failure.heal(up, GATEWAY, line -> { });

        assertThat(up.current().failures()).isEmpty();
        Map<String, String> after = snapshot(namespaces);
        for (int wait = 0; wait < 100 && !after.equals(before); wait++) {
            // A crashed node's carrier loss flushed its nexthop objects; its agent's next pass puts them back.
            Thread.sleep(100);
            after = snapshot(namespaces);
        }
        assertThat(after).isEqualTo(before);
        assertThatThrownBy(() -> failure.heal(up, GATEWAY, line -> { })).hasMessageContaining("is not failed");
        assertThatThrownBy(() -> failure.fail(up, "cluster1/nope", mode, line -> { })).hasMessageContaining("no node 'cluster1/nope'");
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

    private static String sorted(String lines) {
        Set<String> sorted = new TreeSet<>(lines.lines().toList());
        return String.join("\n", sorted) + "\n";
    }
}
