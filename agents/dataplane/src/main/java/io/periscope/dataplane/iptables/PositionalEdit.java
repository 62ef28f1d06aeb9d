package io.periscope.dataplane.iptables;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rule-number edits that turn one list into another: delete the entries at {@code deletions}
 * (1-based positions in the current list, highest first, so each position is still valid when its
 * turn comes), then insert each of {@code insertions} at its 1-based position in the desired list
 * (lowest first, so everything above it is already in place). What is kept is a longest common
 * subsequence of the two lists, so the edit is as short as any.
 *
 * <p>This is what lets a long chain take one more rule as one {@code -I CHAIN n} line instead of a
 * flush and a refill of every rule.
 */
public record PositionalEdit<T>(List<Integer> deletions, List<Insertion<T>> insertions) {

    /**
     * Beyond this many cells the longest common subsequence of the differing middle would cost more
     * memory and time than rewriting the chain.
     */
    private static final long MAX_TABLE_CELLS = 1_000_000;

    public record Insertion<T>(int position, T entry) {
    }

    public PositionalEdit {
        deletions = List.copyOf(deletions);
        insertions = List.copyOf(insertions);
    }

    public int size() {
        return deletions.size() + insertions.size();
    }

    /**
     * The edit from {@code current} to {@code desired}, or empty when it would touch more than half
     * of the longer list (or its differing middle is too large to compare): rewriting the whole list
     * is then as cheap, and simpler to read in a transaction.
     */
    public static <T> Optional<PositionalEdit<T>> between(List<T> current, List<T> desired) {
        int n = current.size();
        int m = desired.size();
        int prefix = 0;
        while (prefix < n && prefix < m && current.get(prefix).equals(desired.get(prefix))) {
            prefix++;
        }
        int suffix = 0;
        while (suffix < n - prefix && suffix < m - prefix
                && current.get(n - 1 - suffix).equals(desired.get(m - 1 - suffix))) {
            suffix++;
        }
        List<T> from = current.subList(prefix, n - suffix);
        List<T> to = desired.subList(prefix, m - suffix);
        int limit = Math.max(n, m) / 2;
        if (Math.abs(from.size() - to.size()) > limit
                || (long) (from.size() + 1) * (to.size() + 1) > MAX_TABLE_CELLS) {
            return Optional.empty();
        }
        boolean[][] kept = commonSubsequence(from, to);
        List<Integer> deletions = new ArrayList<>();
        for (int i = from.size() - 1; i >= 0; i--) {
            if (!kept[0][i]) {
                deletions.add(prefix + i + 1);
            }
        }
        List<Insertion<T>> insertions = new ArrayList<>();
        for (int j = 0; j < to.size(); j++) {
            if (!kept[1][j]) {
                insertions.add(new Insertion<>(prefix + j + 1, to.get(j)));
            }
        }
        if (deletions.size() + insertions.size() > limit) {
            return Optional.empty();
        }
        return Optional.of(new PositionalEdit<>(deletions, insertions));
    }

    /** Which entries of {@code a} (row 0) and of {@code b} (row 1) a longest common subsequence keeps. */
    private static <T> boolean[][] commonSubsequence(List<T> a, List<T> b) {
        int n = a.size();
        int m = b.size();
        int[][] length = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                length[i][j] = a.get(i).equals(b.get(j)) ? length[i + 1][j + 1] + 1 : Math.max(length[i + 1][j], length[i][j + 1]);
            }
        }
        boolean[][] kept = {new boolean[n], new boolean[m]};
        int i = 0;
        int j = 0;
        while (i < n && j < m) {
            if (a.get(i).equals(b.get(j))) {
                kept[0][i++] = true;
                kept[1][j++] = true;
            } else if (length[i + 1][j] >= length[i][j + 1]) {
                i++;
            } else {
                j++;
            }
        }
        return kept;
    }
}
