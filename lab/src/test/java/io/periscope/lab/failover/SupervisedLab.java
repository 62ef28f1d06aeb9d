package io.periscope.lab.failover;

import io.periscope.lab.Examples;
import io.periscope.lab.RunningLab;
import io.periscope.lab.state.SupervisorProcess;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The shipped mag-globalnet example with a UDP port on its exported service and a UDP flow to it
 * (what {@code scripts/benchmark-failover} measures), brought up under a test's own name with its
 * supervisor running.
 */
final class SupervisedLab {

    private SupervisedLab() {
    }

    static final String NEEDS_NFT = "needs nft (nftables): lab fail --mode blackhole and lab failover's counters use it;"
            + " apt-get install nftables (./run-tests installs it as root)";

    /** Root, and {@code nft} on the path. */
    static void assumeRootAndNft() {
        RunningLab.assumeRoot();
        boolean nft = java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin").split(":"))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, "nft")))
                || Files.isExecutable(Path.of("/usr/sbin/nft"));
        org.junit.jupiter.api.Assumptions.assumeTrue(nft, NEEDS_NFT);
    }

    static ClusterSet magGlobalnetWithUdp(String test) {
        try {
            String text = Files.readString(Examples.file(Examples.MAG_GLOBALNET))
                    .replace("ports: [{port: 80, targetPort: 80, protocol: TCP}]",
                            "ports: [{port: 80, targetPort: 80, protocol: TCP}, {port: 5001, targetPort: 5001, protocol: UDP}]")
                    + "  - name: client-to-nginx-udp\n    from: cluster1/default/client\n"
                    + "    to: nginx.default.svc.clusterset.local:5001\n    protocol: udp\n    expect: delivered\n";
            return RunningLab.forTest(TopologyLoader.parse(text, "mag-globalnet-udp.yaml"), test);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (TopologyException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** The supervisor {@link RunningLab#up} started, as {@code lab up} does. */
    static SupervisorProcess supervisor(RunningLab lab) {
        return lab.supervisor();
    }

    static UpLab upLab(RunningLab lab) {
        return UpLab.of(Path.of(lab.set().name() + ".yaml"), lab.set(), lab.stateFile(), "test");
    }
}
