package io.periscope.planner.conformance;

import java.util.ArrayList;
import java.util.List;

/** The lines two texts do not share, in order, by their longest common subsequence: enough of a unified diff to read a failure. */
final class LineDiff {

    private LineDiff() {
    }

    /** {@code -} for a line only {@code expected} has, {@code +} for one only {@code actual} has, two spaces for a shared one. */
    static String unified(List<String> expected, List<String> actual) {
        int[][] common = new int[expected.size() + 1][actual.size() + 1];
        for (int i = expected.size() - 1; i >= 0; i--) {
            for (int j = actual.size() - 1; j >= 0; j--) {
                common[i][j] = expected.get(i).equals(actual.get(j)) ? common[i + 1][j + 1] + 1
                        : Math.max(common[i + 1][j], common[i][j + 1]);
            }
        }
        List<String> out = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < expected.size() || j < actual.size()) {
            if (i < expected.size() && j < actual.size() && expected.get(i).equals(actual.get(j))) {
                out.add("  " + expected.get(i++));
                j++;
            } else if (j < actual.size() && (i == expected.size() || common[i][j + 1] >= common[i + 1][j])) {
                out.add("+ " + actual.get(j++));
            } else {
                out.add("- " + expected.get(i++));
            }
        }
        return String.join("\n", out);
    }
}
