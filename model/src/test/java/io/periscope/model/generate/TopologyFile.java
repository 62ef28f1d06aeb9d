package io.periscope.model.generate;

import io.periscope.model.load.TopologyWriter;
import io.periscope.model.topology.GlobalnetMode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a generated cluster set as a topology file (with {@link TopologyWriter}), so that it can go
 * through {@code periscope check} like any file: {@code main} writes the 10-cluster set of the
 * simulator's benchmarks, or one of the given size:
 * {@code FILE [clusters nodes gateways pods services globalEgressIPs v2|legacy appsPerCluster]}.
 */
public final class TopologyFile {

    private TopologyFile() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1 && args.length != 9) {
            System.err.println("usage: TopologyFile FILE [clusters nodes gateways pods services globalEgressIPs v2|legacy appsPerCluster]");
            System.exit(2);
        }
        SyntheticClusterSet generator = args.length == 1
                ? new SyntheticClusterSet(10, 10, 2, 1000, 10, 2, GlobalnetMode.V2, 250)
                : new SyntheticClusterSet(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                Integer.parseInt(args[4]), Integer.parseInt(args[5]), Integer.parseInt(args[6]),
                args[7].equals("legacy") ? GlobalnetMode.LEGACY : GlobalnetMode.V2, Integer.parseInt(args[8]));
        Path file = Path.of(args[0]);
        Files.writeString(file, TopologyWriter.write(generator.build()));
        System.out.println("wrote " + file + ": " + generator);
    }
}
