package io.periscope.visualizer.session;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.model.load.TopologyError;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.simulator.reachability.MatrixProgress;
import io.periscope.simulator.reachability.ReachabilityMatrix;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One topology file as the page sees it: loaded (or its errors), numbered by revision, with the JSON
 * answers the page asks for. Reloading the same bytes keeps the revision, so a save that changed
 * nothing redraws nothing. Thread-safe: the watch reloads while requests read.
 */
public final class Workspace {

    /** What the file gave at one revision. */
    public sealed interface State {
        long revision();
    }

    public record Ready(long revision, ClusterSet set, Scenario healthy, String document) implements State {
    }

    public record Invalid(long revision, List<TopologyError> errors, String document) implements State {
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int CACHED_ANSWERS = 32;

    private final Path file;
    private volatile State state;
    private byte[] lastBytes;
    private final Map<String, String> answers = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > CACHED_ANSWERS;
        }
    };

    public Workspace(Path file) {
        this.file = file;
        reload();
    }

    public Path file() {
        return file;
    }

    public State state() {
        return state;
    }

    /** Reads the file again; returns true when it changed (a new revision). */
    public synchronized boolean reload() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            // Missing or unreadable: an error to show, which the next good save replaces.
            bytes = new byte[0];
            if (state instanceof Invalid && lastBytes != null && lastBytes.length == 0) {
                return false;
            }
            lastBytes = bytes;
            List<TopologyError> errors = List.of(new TopologyError(file.toString(), 0, 0, "",
                    Files.exists(file) ? "cannot be read: " + e.getMessage() : "no such file",
                    "save the topology file again"));
            state = new Invalid(nextRevision(), errors, json(TraceDocument.errors(errors)));
            forgetAnswers();
            return true;
        }
        if (lastBytes != null && Arrays.equals(bytes, lastBytes)) {
            return false;
        }
        lastBytes = bytes;
        long revision = nextRevision();
        forgetAnswers();
        try {
            ClusterSet set = TopologyLoader.parse(new String(bytes, java.nio.charset.StandardCharsets.UTF_8), file.toString());
            Scenario healthy = Scenario.of(set, List.of());
            String document = json(withRevision(TraceDocument.of(healthy, healthy.trace(set.flows())), revision));
            state = new Ready(revision, set, healthy, document);
        } catch (TopologyException e) {
            state = new Invalid(revision, e.errors(), json(withRevision(TraceDocument.errors(e.errors()), revision)));
        }
        return true;
    }

    private void forgetAnswers() {
        synchronized (answers) {
            answers.clear();
        }
    }

    private long nextRevision() {
        return state == null ? 1 : state.revision() + 1;
    }

    /** The document for the page: the healthy one, or with {@code failed} nodes down. */
    public String document(Collection<String> failed) {
        State current = state;
        return switch (current) {
            case Invalid invalid -> invalid.document();
            case Ready ready when failed.isEmpty() -> ready.document();
            case Ready ready -> answer(ready, "document " + failed, () -> {
                Scenario scenario = Scenario.of(ready.set(), failed);
                return withRevision(TraceDocument.of(scenario, scenario.trace(ready.set().flows())), ready.revision());
            });
        };
    }

    /** One flow, typed by the user, traced with {@code failed} nodes down. */
    public String trace(String from, String to, io.periscope.model.topology.Protocol protocol, Collection<String> failed) {
        Ready ready = requireReady();
        Flow flow = AdHocFlow.parse(ready.set(), from, to, protocol);
        Scenario scenario = failed.isEmpty() ? ready.healthy() : Scenario.of(ready.set(), failed);
        Scenario.Outcome outcome = scenario.trace(flow);
        if (outcome instanceof Scenario.Untraceable untraceable) {
            // A typed flow that names nothing real is the typist's mistake, as on the command line.
            throw new IllegalArgumentException("--from " + from + " --to " + to + ": " + untraceable.reason());
        }
        ObjectNode root = TraceDocument.of(scenario, List.of(outcome));
        root.remove("topology");
        return json(withRevision(root, ready.revision()));
    }

    public String whatIf(Collection<String> failed) {
        Ready ready = requireReady();
        return answer(ready, "whatif " + failed, () -> withRevision(TraceDocument.whatIf(ready.healthy(), Scenario.of(ready.set(), failed)),
                ready.revision()));
    }

    public String reachability(Collection<String> failed) {
        Ready ready = requireReady();
        return answer(ready, "reachability " + failed, () -> {
            Scenario scenario = failed.isEmpty() ? ready.healthy() : Scenario.of(ready.set(), failed);
            return withRevision(TraceDocument.reachability(ReachabilityMatrix.of(scenario.simulator(), MatrixProgress.NONE)),
                    ready.revision());
        });
    }

    private Ready requireReady() {
        if (state instanceof Ready ready) {
            return ready;
        }
        throw new IllegalStateException("the topology file has errors; fix them and save it");
    }

    private String answer(Ready ready, String question, java.util.function.Supplier<ObjectNode> compute) {
        String key = ready.revision() + " " + question;
        synchronized (answers) {
            String cached = answers.get(key);
            if (cached != null) {
                return cached;
            }
        }
        String computed = json(compute.get());
        synchronized (answers) {
            answers.put(key, computed);
        }
        return computed;
    }

    private static ObjectNode withRevision(ObjectNode node, long revision) {
        node.put("revision", revision);
        return node;
    }

    static String json(ObjectNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }
}
