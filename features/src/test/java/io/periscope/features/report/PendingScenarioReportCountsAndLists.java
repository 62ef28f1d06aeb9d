package io.periscope.features.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class PendingScenarioReportCountsAndLists {

    @TempDir
    Path directory;

    @Test
    void pendingScenariosAreCountedWithTheirReasonIncludingInheritedTagsAndOutlineRows() throws IOException {
        Files.writeString(directory.resolve("a.feature"), """
                Feature: a
                  Scenario: runs
                    Given something

                  @pending
                  Scenario: waits
                    Not built yet: the reason.
                    Given something

                  @pending
                  Rule: all of it waits
                    Scenario Outline: waits too <n>
                      Also not built.
                      Given <n>

                      Examples:
                        | n |
                        | 1 |
                        | 2 |
                """);
        FeatureCatalog catalog = FeatureCatalog.read(directory);
        Path output = directory.resolve("out/pending.md");

        new PendingScenarioReport(output.toFile()).write(catalog);

        String report = Files.readString(output);
        assertThat(report).contains("3 of 4 scenarios are tagged @pending")
                .contains("| a.feature | waits | Not built yet: the reason. |")
                .contains("| a.feature | waits too <n> | Also not built. |")
                .doesNotContain("| runs |");
    }
}
