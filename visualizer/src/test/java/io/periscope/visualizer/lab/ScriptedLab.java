package io.periscope.visualizer.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.simulator.trace.TraceJson;
import io.periscope.visualizer.session.Scenario;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * A lab for the server's contract, without namespaces: its status is what the test sets, and a probe
 * "captures" what the simulator says each path does, in the shape of {@code lab probe --json} (one
 * probe per simulated path, each compared with its own path, each hop with only what a capture
 * shows), so the answer is as real as the simulation. {@link #tamper} makes one captured field differ, as a kernel that disagreed would,
 * and {@link #holdProbes} keeps a probe running until released.
 */
public final class ScriptedLab implements Lab {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** The fields of an encap step lab probe writes (ProbeReportJson). */
    private static final List<String> ENCAP_FIELDS = List.of("kind", "encapsulation", "device", "vni", "port", "outerSrc", "outerDst",
            "underlay", "encrypted");

    private volatile LabStatus status;
    private volatile Tamper tamper;
    private volatile CountDownLatch hold;
    public final CountDownLatch probing = new CountDownLatch(1);
    public final List<Optional<String>> probed = Collections.synchronizedList(new ArrayList<>());

    /** One field of one captured hop that the lab reports other than the simulation: path and hop 0-based. */
    public record Tamper(int path, String direction, int hop, String field, String observed) {
    }

    public ScriptedLab(LabStatus status) {
        this.status = status;
    }

    public static LabStatus up() {
        return new LabStatus(LabStatus.Condition.UP, "the lab of topology 'test' is up (scripted)", Optional.empty());
    }

    public static LabStatus down(Path file) {
        return new LabStatus(LabStatus.Condition.DOWN, "no lab of topology 'test' is up", Optional.of("./periscope lab up " + file));
    }

    public ScriptedLab status(LabStatus now) {
        this.status = now;
        return this;
    }

    public ScriptedLab tamper(Tamper what) {
        this.tamper = what;
        return this;
    }

    public ScriptedLab holdProbes(CountDownLatch until) {
        this.hold = until;
        return this;
    }

    @Override
    public LabStatus status(Path file, ClusterSet set) {
        return status;
    }

    @Override
    public ObjectNode probe(Path file, ClusterSet set, Optional<String> flowName, Consumer<String> progress) {
        probed.add(flowName);
        probing.countDown();
        if (hold != null) {
            try {
                hold.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (!status.up()) {
            throw new Refused(status);
        }
        Scenario scenario = Scenario.of(set, List.of());
        ObjectNode report = MAPPER.createObjectNode();
        report.put("topology", set.name());
        ArrayNode flows = report.putArray("flows");
        boolean all = true;
        for (Flow flow : flowName.map(name -> List.of(set.flow(name).orElseThrow())).orElse(set.flows())) {
            if (!(scenario.trace(flow) instanceof Scenario.Traced traced)) {
                continue;
            }
            progress.accept("flow " + flow.name() + ": captured (scripted)");
            ObjectNode simulated = TraceJson.flow(traced.trace());
            ObjectNode observed = flows.addObject();
            observed.put("name", flow.name());
            observed.put("from", simulated.path("from").asText());
            observed.put("to", simulated.path("to").asText());
            observed.put("resolved", simulated.path("resolved").asText());
            ArrayNode paths = observed.putArray("paths");
            ArrayNode taken = MAPPER.createArrayNode();
            boolean matches = true;
            int index = 0;
            for (JsonNode path : simulated.path("paths")) {
                ObjectNode captured = captured(path, index);
                paths.add(captured);
                if (captured.path("matchesSimulation").asBoolean()) {
                    taken.add(index + 1);
                } else {
                    matches = false;
                    observed.set("firstDifference", captured.path("firstDifference"));
                }
                index++;
            }
            observed.put("simulatedPaths", index);
            observed.set("simulatedPathsTaken", taken);
            observed.put("matchesSimulation", matches);
            all &= matches;
        }
        report.put("matchesSimulation", all);
        return report;
    }

    /** A simulated path as the captures show it: hops without their steps but the encapsulation. */
    private ObjectNode captured(JsonNode path, int index) {
        ObjectNode captured = MAPPER.createObjectNode();
        captured.put("disposition", path.path("disposition").asText());
        for (String direction : List.of("forward", "reply")) {
            if (!path.has(direction)) {
                continue;
            }
            ArrayNode hops = captured.putObject(direction).putArray("hops");
            for (JsonNode hop : path.path(direction).path("hops")) {
                // What a capture shows of a hop, as lab probe writes it: where the packet came in
                // and went out and how it looked, and of its steps only the encapsulation, without
                // what nothing on the wire says (the simulator's resolution, the inner packet).
                ObjectNode copy = MAPPER.createObjectNode();
                for (String field : List.of("node", "in", "out", "arrive")) {
                    if (hop.has(field)) {
                        copy.set(field, hop.get(field).deepCopy());
                    }
                }
                ArrayNode steps = copy.putArray("steps");
                hop.path("steps").forEach(step -> {
                    if (step.path("kind").asText().equals("encap")) {
                        ObjectNode seen = steps.addObject();
                        for (String field : ENCAP_FIELDS) {
                            if (step.has(field)) {
                                seen.set(field, step.get(field).deepCopy());
                            }
                        }
                    }
                });
                if (hop.has("depart")) {
                    copy.set("depart", hop.get("depart").deepCopy());
                }
                hops.add(copy);
            }
        }
        captured.put("sourcePort", 40000 + index);
        captured.put("simulatedPath", index + 1);
        Tamper change = tamper;
        if (change != null && change.path() == index) {
            ObjectNode hop = (ObjectNode) captured.path(change.direction()).path("hops").path(change.hop());
            String[] field = change.field().split("\\.");
            ObjectNode packet = (ObjectNode) hop.path(field[0]);
            String simulated = packet.path(field[1]).asText();
            packet.put(field[1], change.observed());
            captured.put("matchesSimulation", false);
            ObjectNode difference = captured.putObject("firstDifference");
            difference.put("direction", change.direction());
            difference.put("hop", change.hop() + 1);
            difference.put("node", hop.path("node").asText());
            difference.put("field", change.field());
            difference.put("simulated", simulated);
            difference.put("observed", change.observed());
        } else {
            captured.put("matchesSimulation", true);
        }
        return captured;
    }
}
