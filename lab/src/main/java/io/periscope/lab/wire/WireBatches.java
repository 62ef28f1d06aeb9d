package io.periscope.lab.wire;

import io.periscope.lab.layout.SwitchNamespace;
import io.periscope.lab.layout.SwitchPort;

import java.nio.file.Path;

/**
 * The {@code tc -batch} input that attaches {@link HashResetProgram} to the ingress of every port
 * of a switch: each frame entering a lab switch from a host forgets its flow hash, as a frame does
 * on a real wire.
 */
public final class WireBatches {

    private WireBatches() {
    }

    public static String hashReset(SwitchNamespace sw, Path program) {
        StringBuilder text = new StringBuilder();
        for (SwitchPort port : sw.ports()) {
            text.append("qdisc add dev ").append(port.name()).append(" clsact\n");
            text.append("filter add dev ").append(port.name()).append(" ingress bpf direct-action obj ").append(program)
                    .append(" sec ").append(HashResetProgram.SECTION).append('\n');
        }
        return text.toString();
    }
}
