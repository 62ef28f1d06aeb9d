package io.periscope.features.report;

import io.cucumber.plugin.ConcurrentEventListener;
import io.cucumber.plugin.event.EventPublisher;
import io.cucumber.plugin.event.TestRunFinished;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

/**
 * Counts and lists the {@code @pending} scenarios, which the suites do not run: a Markdown report
 * next to the HTML and JSON ones (one row per scenario with its reason), and a line on standard
 * output. Pending behaviour stays visible instead of silently missing from the run.
 */
public final class PendingScenarioReport implements ConcurrentEventListener {

    private final File output;

    /** @param output where the report goes, e.g. {@code target/cucumber/simulator-pending.md} */
    public PendingScenarioReport(File output) {
        this.output = output;
    }

    @Override
    public void setEventPublisher(EventPublisher publisher) {
        publisher.registerHandlerFor(TestRunFinished.class, finished -> write(FeatureCatalog.fromClasspath("features")));
    }

    void write(FeatureCatalog catalog) {
        List<FeatureCatalog.Entry> pending = catalog.pending();
        int pendingRuns = pending.stream().mapToInt(FeatureCatalog.Entry::runs).sum();
        StringBuilder text = new StringBuilder();
        text.append("# Pending scenarios\n\n");
        text.append(pendingRuns).append(" of ").append(catalog.runs())
                .append(" scenarios are tagged @pending and were not run: Periscope does not implement their behaviour yet.\n\n");
        text.append("| feature file | scenario | why it is pending |\n| --- | --- | --- |\n");
        for (FeatureCatalog.Entry entry : pending) {
            text.append("| ").append(entry.file()).append(" | ").append(cell(entry.name())).append(" | ")
                    .append(cell(entry.description())).append(" |\n");
        }
        List<FeatureCatalog.Entry> simulatorOnly = catalog.simulatorOnly();
        if (output.getName().startsWith("lab") && !simulatorOnly.isEmpty()) {
            int simulatorOnlyRuns = simulatorOnly.stream().mapToInt(FeatureCatalog.Entry::runs).sum();
            text.append("\n# Scenarios the lab cannot run\n\n");
            text.append(simulatorOnlyRuns).append(" of ").append(catalog.runs())
                    .append(" scenarios are tagged @simulator-only: the lab backend skips them, for the reason given.\n\n");
            text.append("| feature file | scenario | why the lab cannot run it |\n| --- | --- | --- |\n");
            for (FeatureCatalog.Entry entry : simulatorOnly) {
                text.append("| ").append(entry.file()).append(" | ").append(cell(entry.name())).append(" | ")
                        .append(cell(entry.simulatorOnlyReason().orElse(entry.description()))).append(" |\n");
            }
            System.out.println(simulatorOnlyRuns + " of " + catalog.runs() + " scenarios simulator only (tagged @simulator-only, skipped in the lab); reasons in " + output);
        }
        try {
            File directory = output.getAbsoluteFile().getParentFile();
            if (directory != null) {
                Files.createDirectories(directory.toPath());
            }
            Files.writeString(output.toPath(), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the pending report " + output, e);
        }
        System.out.println(pendingRuns + " of " + catalog.runs() + " scenarios pending (tagged @pending, not run); reasons in " + output);
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replaceAll("\\s*\\n\\s*", " ");
    }
}
