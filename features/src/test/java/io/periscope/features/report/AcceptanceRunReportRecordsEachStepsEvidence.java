package io.periscope.features.report;

import io.cucumber.plugin.event.EventHandler;
import io.cucumber.plugin.event.EventPublisher;
import io.cucumber.plugin.event.PickleStepTestStep;
import io.cucumber.plugin.event.Result;
import io.cucumber.plugin.event.Status;
import io.cucumber.plugin.event.Step;
import io.cucumber.plugin.event.TestCase;
import io.cucumber.plugin.event.TestCaseFinished;
import io.cucumber.plugin.event.TestCaseStarted;
import io.cucumber.plugin.event.TestStepFinished;
import io.periscope.features.backend.Evidence;
import io.periscope.features.backend.EvidenceLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

class AcceptanceRunReportRecordsEachStepsEvidence {

    @TempDir
    Path directory;

    /** Hands each event to the handlers registered for its class, on this thread, as Cucumber's event bus does. */
    private static final class Events implements EventPublisher {
        private final Map<Class<?>, List<EventHandler<?>>> handlers = new HashMap<>();

        @Override
        public <T> void registerHandlerFor(Class<T> type, EventHandler<T> handler) {
            handlers.computeIfAbsent(type, t -> new ArrayList<>()).add(handler);
        }

        @Override
        public <T> void removeHandlerFor(Class<T> type, EventHandler<T> handler) {
            handlers.getOrDefault(type, new ArrayList<>()).remove(handler);
        }

        @SuppressWarnings("unchecked")
        <T> void send(T event) {
            handlers.getOrDefault(event.getClass(), List.of()).forEach(h -> ((EventHandler<T>) h).receive(event));
        }
    }

    /** The few answers the report asks of Cucumber's interfaces, by method name. */
    private static <T> T fake(Class<T> type, Map<String, Object> answers) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            if (!answers.containsKey(method.getName())) {
                throw new UnsupportedOperationException(method.getName());
            }
            return answers.get(method.getName());
        }));
    }

    private static TestCase testCase(String name, int line) {
        return fake(TestCase.class, Map.of("getId", UUID.randomUUID(), "getName", name, "getLine", line,
                "getUri", URI.create("classpath:features/a.feature"), "getTags", List.of("@x")));
    }

    private static PickleStepTestStep step(String keyword, String text, int line) {
        Step step = fake(Step.class, Map.of("getKeyword", keyword, "getText", text, "getLine", line));
        return fake(PickleStepTestStep.class, Map.of("getStep", step, "getStepLine", line));
    }

    private static Result result(Status status, Throwable error) {
        return new Result(status, Duration.ZERO, error);
    }

    @Test
    void eachStepKeepsWhatTheBackendRecordedWhileItRanAndTheScenarioAllOfIt() throws IOException {
        Files.writeString(directory.resolve("a.feature"), """
                Feature: Seed A
                  Scenario: probed
                    Given something

                  @simulator-only
                  Scenario: not in the lab
                    Simulator only: the lab has no such thing.
                    Given something

                  @pending
                  Scenario: waits
                    Pending: not built yet.
                    Given something
                """);
        Path output = directory.resolve("acceptance/lab.json");
        AcceptanceRunReport plugin = new AcceptanceRunReport(output.toFile());
        Events events = new Events();
        plugin.setEventPublisher(events);
        Instant now = Instant.now();

        EvidenceLog.record(Evidence.API_OBJECTS); // left over from before the scenario: not its evidence
        TestCase probed = testCase("probed", 2);
        events.send(new TestCaseStarted(now, probed));
        EvidenceLog.record(Evidence.REAL_PACKETS);
        events.send(new TestStepFinished(now, probed, step("When ", "a pings b", 3), result(Status.PASSED, null)));
        EvidenceLog.record(Evidence.MODEL_ONLY);
        events.send(new TestStepFinished(now, probed, step("Then ", "the Endpoints are:", 4), result(Status.PASSED, null)));
        events.send(new TestCaseFinished(now, probed, result(Status.PASSED, null)));

        TestCase skipped = testCase("not in the lab", 6);
        events.send(new TestCaseStarted(now, skipped));
        events.send(new TestCaseFinished(now, skipped, result(Status.SKIPPED,
                new TestAbortedException("Simulator only: the lab has no such thing."))));
        plugin.write(FeatureCatalog.read(directory), now);

        RunReport report = RunReport.read(output).orElseThrow();
        assertThat(report.backend()).isEqualTo("lab");
        assertThat(report.scenarios()).extracting(RunReport.ScenarioRun::name, RunReport.ScenarioRun::status)
                .containsExactly(tuple("probed", RunReport.Status.passed),
                        tuple("not in the lab", RunReport.Status.skipped),
                        tuple("waits", RunReport.Status.pending));
        RunReport.ScenarioRun run = report.scenarios().getFirst();
        assertThat(run.feature()).isEqualTo("Seed A");
        assertThat(run.evidence()).containsExactlyInAnyOrder(Evidence.REAL_PACKETS, Evidence.MODEL_ONLY);
        assertThat(run.steps()).extracting(RunReport.StepRun::text, RunReport.StepRun::evidence).containsExactly(
                tuple("When a pings b", Set.of(Evidence.REAL_PACKETS)),
                tuple("Then the Endpoints are:", Set.of(Evidence.MODEL_ONLY)));
        assertThat(report.scenarios().get(1).reason()).isEqualTo("Simulator only: the lab has no such thing.");
        assertThat(report.scenarios().get(2).reason()).isEqualTo("Pending: not built yet.");
    }
}
