package io.periscope.features.report;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.periscope.features.backend.Evidence;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What one backend's suite run gave, scenario by scenario, as Cucumber reported it: the
 * machine-readable report ({@code features/target/acceptance/<backend>.json}) that
 * docs/acceptance.md's table is generated from. Scenarios tagged {@code @pending} are not run; they
 * are listed from the feature files with their reason, so the report covers every scenario.
 *
 * @param backend     {@code simulator}, {@code lab} or {@code kubernetes-on-lab}
 * @param description what the backend is, for people reading the report: what runs the agents, and where
 * @param finished    when the run ended (ISO-8601), for people; the table does not show it
 * @param scenarios   every scenario run (an outline once per example row) and every pending one
 */
public record RunReport(String backend, String description, String finished, List<ScenarioRun> scenarios) {

    public RunReport {
        description = description == null ? "" : description;
        scenarios = List.copyOf(scenarios);
    }

    /** A report without a description (the tests' and older runs'). */
    public RunReport(String backend, String finished, List<ScenarioRun> scenarios) {
        this(backend, "", finished, scenarios);
    }

    /** How a scenario ended. {@code pending}: tagged so and not run. */
    public enum Status {
        passed, failed, skipped, pending
    }

    /**
     * One scenario's run.
     *
     * @param file     the feature file's name, e.g. {@code globalnet.feature}
     * @param scenario the scenario's name as written (an outline's with its {@code <placeholders>})
     * @param name     the run's name (an outline's with the example row's values)
     * @param line     the line of the scenario, or of an outline's example row
     * @param reason   why it was skipped, pending or failed; empty when it passed
     * @param evidence where the backend's answers to its steps came from, over all its steps
     */
    public record ScenarioRun(String file, String feature, String scenario, String name, int line, List<String> tags, Status status,
                              String reason, Set<Evidence> evidence, List<StepRun> steps) {

        public ScenarioRun {
            tags = List.copyOf(tags);
            evidence = evidence.isEmpty() ? EnumSet.noneOf(Evidence.class) : EnumSet.copyOf(evidence);
            steps = List.copyOf(steps);
        }

        /**
         * It passed, but nothing the backend answered came from outside the model: no packet, no
         * kernel state, no API object. On a backend that observes (the lab) that proves the model,
         * not the backend.
         */
        public boolean modelOnly() {
            return status == Status.passed && evidence.stream().allMatch(e -> e == Evidence.MODEL_ONLY);
        }
    }

    /** One step: where the backend's answer to it came from (nothing, for a step the backend did not answer). */
    public record StepRun(int line, String text, String status, Set<Evidence> evidence) {

        public StepRun {
            evidence = evidence.isEmpty() ? EnumSet.noneOf(Evidence.class) : EnumSet.copyOf(evidence);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    public void write(Path file) {
        try {
            if (file.toAbsolutePath().getParent() != null) {
                Files.createDirectories(file.toAbsolutePath().getParent());
            }
            JSON.writeValue(file.toFile(), this);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the acceptance report " + file, e);
        }
    }

    /** The report at {@code file}, or empty when there is none (that backend's suite has not run in this build directory). */
    public static Optional<RunReport> read(Path file) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(file.toFile(), RunReport.class));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the acceptance report " + file, e);
        }
    }
}
