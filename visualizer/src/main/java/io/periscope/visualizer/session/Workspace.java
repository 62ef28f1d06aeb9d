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
import io.periscope.visualizer.scene.SceneLayout;
import io.periscope.visualizer.scene.TopologyScene;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

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

    /** @param placement where the boxes go in this revision, for every document of it (failing a node moves nothing) */
    public record Ready(long revision, ClusterSet set, Scenario healthy, String document, SceneLayout.Placement placement) implements State {
    }

    public record Invalid(long revision, List<TopologyError> errors, String document) implements State {
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int CACHED_ANSWERS = 32;

    private final Path file;
    private final Function<ClusterSet, Scenario> scenarios;
    private volatile State state;
    /** The SHA-256 of the text last drawn (or refused by the validator); null after a refusal to read. */
    private byte[] lastDigest;
    /** Drawing that text failed unexpectedly: the same text is tried again. */
    private boolean lastFailed;
    /** Where the last drawn revision put its boxes; the next one keeps them there. */
    private SceneLayout.Placement lastPlacement;
    private final Map<String, String> answers = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > CACHED_ANSWERS;
        }
    };

    /** Counted down once the first load is done; whatever reads the state waits for it. */
    private final CountDownLatch firstLoad = new CountDownLatch(1);

    public Workspace(Path file) {
        this(file, new UnchangedPlans());
    }

    /** @param scenarios plans a loaded cluster set, healthy (a test makes it fail as a bug would) */
    Workspace(Path file, Function<ClusterSet, Scenario> scenarios) {
        this(file, scenarios, true);
    }

    private Workspace(Path file, Function<ClusterSet, Scenario> scenarios, boolean loadNow) {
        this.file = file;
        this.scenarios = scenarios;
        if (loadNow) {
            reload();
            firstLoad.countDown();
        }
    }

    /**
     * A workspace whose first load (plan, layout, traces: seconds for a large set) runs on a thread of
     * its own, so that {@code serve} listens and sends its page meanwhile; whatever asks for the
     * state or a document waits for that load.
     */
    public static Workspace loadingInBackground(Path file) {
        return loadingInBackground(file, new UnchangedPlans());
    }

    static Workspace loadingInBackground(Path file, Function<ClusterSet, Scenario> scenarios) {
        Workspace workspace = new Workspace(file, scenarios, false);
        Thread.ofPlatform().name("periscope-first-load").daemon().start(() -> {
            try {
                workspace.reload();
            } finally {
                workspace.firstLoad.countDown();
            }
        });
        return workspace;
    }

    public Path file() {
        return file;
    }

    public State state() {
        awaitFirstLoad();
        return state;
    }

    private void awaitFirstLoad() {
        boolean interrupted = false;
        while (true) {
            try {
                firstLoad.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;   // a request thread stopped by shutdown: answer from the state, then stop
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Reads the file again; returns true when it changed (a new revision). The file is read as every
     * command reads it ({@link TopologyLoader#read}: a regular file within the size limit), so a file of
     * gigabytes or a device is refused on the page like any mistake instead of exhausting memory. When
     * drawing a loaded file fails in a way the loader did not foresee (a bug), the page shows that
     * failure rather than the previous picture, and the next reload tries the same text again.
     */
    public synchronized boolean reload() {
        String text;
        try {
            text = TopologyLoader.read(file);
        } catch (TopologyException e) {
            // Missing, unreadable, too large or not a file: an error to show, which the next good save replaces.
            if (state instanceof Invalid invalid && lastDigest == null && invalid.errors().equals(e.errorsWithOmittedCount())) {
                return false;
            }
            lastDigest = null;
            return invalid(e.errorsWithOmittedCount());
        }
        byte[] digest = digest(text);
        if (!lastFailed && Arrays.equals(digest, lastDigest)) {
            return false;
        }
        long revision = nextRevision();
        try {
            ClusterSet set = TopologyLoader.parse(text, file.toString());
            Scenario healthy = scenarios.apply(set);
            // Each cluster stays where the last revision drew it: the edit a user just saved moves only what it changed.
            SceneLayout.Placement placement = TopologyScene.layout(set, healthy.plan(), lastPlacement);
            String document = json(withRevision(TraceDocument.of(healthy, healthy.trace(set.flows()), placement), revision));
            forgetAnswers();
            state = new Ready(revision, set, healthy, document, placement);
            lastPlacement = placement;
            lastFailed = false;
        } catch (TopologyException e) {
            lastDigest = digest;
            lastFailed = false;
            return invalid(e.errorsWithOmittedCount());
        } catch (RuntimeException | Error e) {
            // Not the file's mistake but Periscope's, in reading, planning or drawing: said on the page,
            // and retried on the next save even when its text is the same. Any Error too (a stack overflow,
            // an assertion): one escaping here would end the watch, and no later save would be drawn.
            if (lastFailed && Arrays.equals(digest, lastDigest)) {
                return false;
            }
            lastFailed = true;
            lastDigest = digest;
            return invalid(List.of(new TopologyError(file.toString(), 0, 0, "",
                    "Periscope failed while reading, planning and tracing this file: " + e,
                    "this is a bug in Periscope; please report it with the file. Saving the file again retries")));
        }
        lastDigest = digest;
        return true;
    }

    private boolean invalid(List<TopologyError> errors) {
        long revision = nextRevision();
        forgetAnswers();
        state = new Invalid(revision, errors, json(withRevision(TraceDocument.errors(errors), revision)));
        return true;
    }

    private static byte[] digest(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
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
        State current = state();
        return switch (current) {
            case Invalid invalid -> invalid.document();
            case Ready ready when failed.isEmpty() -> ready.document();
            case Ready ready -> answer(ready, "document " + failed, () -> {
                Scenario scenario = Scenario.of(ready.set(), failed);
                return withRevision(TraceDocument.of(scenario, scenario.trace(ready.set().flows()), ready.placement()), ready.revision());
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
        ObjectNode root = TraceDocument.of(scenario, List.of(outcome), ready.placement());
        root.remove("topology");
        return json(withRevision(root, ready.revision()));
    }

    public String whatIf(Collection<String> failed) {
        Ready ready = requireReady();
        return answer(ready, "whatif " + failed, () -> withRevision(TraceDocument.whatIf(ready.healthy(), Scenario.of(ready.set(), failed), ready.placement()),
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
        if (state() instanceof Ready ready) {
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
