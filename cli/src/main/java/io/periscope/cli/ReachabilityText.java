package io.periscope.cli;

import io.periscope.simulator.reachability.ReachabilityMatrix;

import java.util.ArrayList;
import java.util.List;

/** The reachability matrix as {@code check} prints it. */
final class ReachabilityText {

    private ReachabilityText() {
    }

    static String render(ReachabilityMatrix matrix) {
        List<String> sources = matrix.sources();
        List<ReachabilityMatrix.Column> columns = matrix.columns();
        List<List<ReachabilityMatrix.Cell>> cells = matrix.cells();
        if (columns.isEmpty() || sources.isEmpty()) {
            return "reachability: no exported services or no pods to check\n";
        }
        StringBuilder text = new StringBuilder("reachability (rows: source pods; columns: exported services;\n"
                + "  yes = every path delivered, part = some, no = none, err = not resolvable):\n");
        List<String> labels = new ArrayList<>();
        List<List<ReachabilityMatrix.Cell>> rows = new ArrayList<>();
        // Consecutive pods of one namespace with the same answers share a row, so the matrix of a
        // large cluster fits a terminal.
        for (int i = 0; i < sources.size(); ) {
            int j = i + 1;
            String namespace = namespaceOf(sources.get(i));
            while (j < sources.size() && namespaceOf(sources.get(j)).equals(namespace) && cells.get(j).equals(cells.get(i))) {
                j++;
            }
            labels.add(j - i == 1 ? sources.get(i) : namespace + "/* (" + (j - i) + " pods)");
            rows.add(cells.get(i));
            i = j;
        }
        int width = Math.min(48, labels.stream().mapToInt(String::length).max().orElse(10) + 1);
        text.append(" ".repeat(width + 2));
        for (int c = 0; c < columns.size(); c++) {
            padded(text, "[" + (c + 1) + "]", 6);
        }
        text.append('\n');
        for (int r = 0; r < rows.size(); r++) {
            String label = labels.get(r);
            text.append("  ");
            padded(text, label.length() > width ? label.substring(0, width - 1) + "…" : label, width);
            for (ReachabilityMatrix.Cell cell : rows.get(r)) {
                padded(text, cell.symbol(), 6);
            }
            text.append('\n');
        }
        for (int c = 0; c < columns.size(); c++) {
            text.append("  [").append(c + 1).append("] ").append(columns.get(c).service()).append("  ")
                    .append(columns.get(c).dnsName()).append(' ').append(columns.get(c).protocolAndPort()).append('\n');
        }
        return text.toString();
    }

    /**
     * {@code value} left-justified in {@code width} characters, as {@code %-Ns} formats it: the matrix
     * of a large set has a million cells, and {@code String.format} parses its pattern and makes a
     * formatter and a string for each.
     */
    private static void padded(StringBuilder text, String value, int width) {
        text.append(value);
        for (int i = value.length(); i < width; i++) {
            text.append(' ');
        }
    }

    private static String namespaceOf(String source) {
        return source.substring(0, source.lastIndexOf('/'));
    }
}
