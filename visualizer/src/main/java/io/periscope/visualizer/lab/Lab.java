package io.periscope.visualizer.lab;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.model.topology.ClusterSet;

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The namespace lab as the page sees it: whether the lab of the served file is up, and real packets
 * for its flows. The visualizer does not depend on the lab module (the lab depends on the simulator
 * and on the agents; the page only needs its answers), so the command line, which assembles
 * everything, hands {@code serve} the real one ({@code io.periscope.cli.NamespaceLab}); tests hand
 * it one of their own.
 */
public interface Lab {

    /** Where the lab is, for {@code file} as loaded into {@code set}. Never throws for a lab that is down. */
    LabStatus status(Path file, ClusterSet set);

    /**
     * Probes {@code flow} (every flow of the file when empty) with real packets.
     *
     * @return the findings in the shape of {@code lab probe --json} (docs/schemas/lab-probe.schema.json)
     * @throws Refused when the lab cannot be probed, with the status that says why
     */
    ObjectNode probe(Path file, ClusterSet set, Optional<String> flow, Consumer<String> progress);

    /** The lab will not be probed now; {@link #status()} says why and what brings it up. */
    final class Refused extends RuntimeException {

        private final LabStatus status;

        public Refused(LabStatus status) {
            super(status.message());
            this.status = status;
        }

        public LabStatus status() {
            return status;
        }
    }

    /** A server started without the lab (tests, embedding): the page says so instead of offering a probe. */
    Lab ABSENT = new Lab() {
        @Override
        public LabStatus status(Path file, ClusterSet set) {
            return new LabStatus(LabStatus.Condition.UNAVAILABLE, "this server was started without the namespace lab; "
                    + "'periscope serve' on the command line has it", Optional.of("./periscope serve " + file));
        }

        @Override
        public ObjectNode probe(Path file, ClusterSet set, Optional<String> flow, Consumer<String> progress) {
            throw new Refused(status(file, set));
        }
    };
}
