package io.periscope.features.report;

import io.cucumber.plugin.ConcurrentEventListener;
import io.cucumber.plugin.event.EventPublisher;
import io.cucumber.plugin.event.PickleStepTestStep;
import io.cucumber.plugin.event.Result;
import io.cucumber.plugin.event.Status;
import io.cucumber.plugin.event.TestCase;
import io.cucumber.plugin.event.TestCaseFinished;
import io.cucumber.plugin.event.TestCaseStarted;
import io.cucumber.plugin.event.TestRunFinished;
import io.cucumber.plugin.event.TestStepFinished;
import io.periscope.features.backend.Evidence;
import io.periscope.features.backend.EvidenceLog;
import io.periscope.features.backend.LabBackend;

import java.io.File;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Cucumber plugin writing the run's machine-readable report ({@link RunReport}) from Cucumber's
 * own results: every scenario with its status, the reason of a skip or failure, and the evidence
 * the backend gave for each step ({@link EvidenceLog}), plus the {@code @pending} scenarios the
 * suite does not run. The backend is the report's file name: {@code target/acceptance/lab.json}.
 */
public final class AcceptanceRunReport implements ConcurrentEventListener {

    private final File output;
    private final Map<UUID, List<RunReport.StepRun>> steps = new ConcurrentHashMap<>();
    private final List<RunReport.ScenarioRun> scenarios = new ArrayList<>();

    /** @param output where the report goes; its name without {@code .json} names the backend */
    public AcceptanceRunReport(File output) {
        this.output = output;
    }

    @Override
    public void setEventPublisher(EventPublisher publisher) {
        publisher.registerHandlerFor(TestCaseStarted.class, started -> {
            EvidenceLog.take();
            steps.put(started.getTestCase().getId(), new ArrayList<>());
        });
        publisher.registerHandlerFor(TestStepFinished.class, finished -> {
            // Hooks answer nothing, but what they record must not leak into the next step.
            Set<Evidence> evidence = EvidenceLog.take();
            if (finished.getTestStep() instanceof PickleStepTestStep step) {
                steps.computeIfAbsent(finished.getTestCase().getId(), id -> new ArrayList<>()).add(new RunReport.StepRun(step.getStepLine(),
                        step.getStep().getKeyword() + step.getStep().getText(), status(finished.getResult().getStatus()).name(), evidence));
            }
        });
        publisher.registerHandlerFor(TestCaseFinished.class, this::finished);
        publisher.registerHandlerFor(TestRunFinished.class, finished -> write(FeatureCatalog.fromClasspath("features"), finished.getInstant()));
    }

    /** What each backend is, as the report says it. */
    static String description(String backend) {
        return switch (backend) {
            case "simulator" -> "the simulator: the planner's plan for every host, packets traced through it";
            case "lab" -> "the lab: network namespaces on this machine programmed by Periscope's lab agents (its supervisor), real packets";
            case LabBackend.KUBERNETES_ON_LAB -> "the lab's network namespaces programmed by the production Kubernetes agents (gateway agent, "
                    + "route agent, Globalnet replicas, broker sync, DNS agent; health checks on), each a process of its own "
                    + "(periscope-agent through ip netns exec) in the namespace of the node it runs on, reaching its API server through a "
                    + "relay on that namespace's loopback; against fabric8's mock API server in CRUD mode, one per "
                    + "cluster and one for the broker, standing in for kube-apiserver, which cannot be had on this machine "
                    + "(the kind-e2e module runs the agents on kind where Docker exists)";
            default -> "";
        };
    }

    private void finished(TestCaseFinished finished) {
        TestCase testCase = finished.getTestCase();
        List<RunReport.StepRun> taken = steps.remove(testCase.getId());
        taken = taken == null ? List.of() : taken;
        Set<Evidence> evidence = EnumSet.noneOf(Evidence.class);
        taken.forEach(step -> evidence.addAll(step.evidence()));
        String uri = testCase.getUri().toString();
        String file = uri.substring(uri.lastIndexOf('/') + 1);
        Result result = finished.getResult();
        RunReport.Status status = status(result.getStatus());
        String reason = status == RunReport.Status.passed ? "" : reason(result);
        synchronized (scenarios) {
            scenarios.add(new RunReport.ScenarioRun(file, "", testCase.getName(), testCase.getName(), testCase.getLine(),
                    testCase.getTags(), status, reason, evidence, taken));
        }
    }

    /** Completes each run from the feature files (feature name, the scenario as written) and adds the pending scenarios. */
    void write(FeatureCatalog catalog, Instant finished) {
        List<RunReport.ScenarioRun> all = new ArrayList<>();
        synchronized (scenarios) {
            for (RunReport.ScenarioRun run : scenarios) {
                FeatureCatalog.Entry entry = catalog.scenario(run.file(), run.name()).orElse(null);
                all.add(new RunReport.ScenarioRun(run.file(), entry == null ? "" : entry.feature(), entry == null ? run.name() : entry.name(),
                        run.name(), run.line(), run.tags(), run.status(), run.reason(), run.evidence(), run.steps()));
            }
        }
        String backend = output.getName().replaceFirst("\\.json$", "");
        boolean kubernetes = backend.equals(LabBackend.KUBERNETES_ON_LAB);
        // The kubernetes-on-lab suite selects the @kubernetes scenarios: the pending ones it would run are its to list.
        for (FeatureCatalog.Entry pending : catalog.pending().stream().filter(e -> !kubernetes || e.kubernetesRuns() > 0).toList()) {
            all.add(new RunReport.ScenarioRun(pending.file(), pending.feature(), pending.name(), pending.name(), 0, List.copyOf(pending.tags()),
                    RunReport.Status.pending, pending.description().replaceAll("\\s+", " ").strip(), Set.of(), List.of()));
        }
        new RunReport(backend, description(backend), finished.toString(), all).write(output.toPath());
        System.out.println("acceptance report of the " + backend + " run: " + output);
    }

    private static RunReport.Status status(Status status) {
        return switch (status) {
            case PASSED -> RunReport.Status.passed;
            case SKIPPED -> RunReport.Status.skipped;
            case PENDING -> RunReport.Status.pending;
            // Undefined or ambiguous steps, and steps not reached after a failure, fail the scenario as far as the table goes.
            case FAILED, UNDEFINED, AMBIGUOUS, UNUSED -> RunReport.Status.failed;
        };
    }

    private static String reason(Result result) {
        Throwable error = result.getError();
        if (error == null) {
            return result.getStatus().name().toLowerCase();
        }
        String message = error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage();
        return message.replaceAll("\\s+", " ").strip();
    }
}
