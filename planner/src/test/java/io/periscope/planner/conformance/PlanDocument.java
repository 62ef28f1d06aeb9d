package io.periscope.planner.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The two tables of docs/plan.md a conformance fixture refers to. */
final class PlanDocument {

    private static final Path DOC = Path.of("..", "docs", "plan.md");
    static final String UPSTREAM_TABLE = "## Upstream vs Periscope";
    static final String CONFORMANCE = "## Conformance with upstream";

    private PlanDocument() {
    }

    /** The row of "Upstream vs Periscope" whose first cell is {@code place}, split into cells; null without one. */
    static List<String> upstreamTableRow(String place) {
        return rows(UPSTREAM_TABLE, "| rule, chain").stream().filter(r -> r.getFirst().equals(place)).findFirst().orElse(null);
    }

    /** The first cells of the table of open differences in "Conformance with upstream". */
    static List<String> openDifferences() {
        return rows(CONFORMANCE, "| open difference").stream().map(List::getFirst).toList();
    }

    /** The rows of the tables in {@code section} whose header row starts with {@code header}. */
    private static List<List<String>> rows(String section, String header) {
        List<String> lines;
        try {
            lines = Files.readAllLines(DOC);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int start = lines.indexOf(section);
        if (start < 0) {
            throw new IllegalStateException("docs/plan.md has no section '" + section + "'");
        }
        List<List<String>> rows = new ArrayList<>();
        boolean atHeader = true;
        boolean wanted = false;
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            String line = lines.get(i).strip();
            if (!line.startsWith("|")) {
                atHeader = true;
                continue;
            }
            if (atHeader) {
                // The first row of each table names its columns, and says whether it is the table asked for.
                atHeader = false;
                wanted = line.startsWith(header);
                continue;
            }
            if (!wanted || line.startsWith("| ---")) {
                continue;
            }
            List<String> cells = new ArrayList<>();
            for (String cell : line.substring(1, line.length() - 1).split("(?<!\\\\)\\|", -1)) {
                cells.add(cell.strip());
            }
            rows.add(cells);
        }
        return rows;
    }
}
