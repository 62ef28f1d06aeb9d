package io.periscope.model.load;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The known name a user most likely meant when they typed an unknown one ("did you mean"). */
final class NameSuggestion {

    private NameSuggestion() {
    }

    /**
     * The candidate closest to {@code typed}: one that differs only in case, the only one that begins with
     * it, or else the nearest by edit
     * distance when that distance is small for the word's length (a third of it, at most 3 edits), so
     * that unrelated words are never offered.
     */
    static Optional<String> closest(String typed, Collection<String> candidates) {
        String lowerTyped = typed.toLowerCase(Locale.ROOT);
        for (String candidate : candidates) {
            if (candidate.toLowerCase(Locale.ROOT).equals(lowerTyped)) {
                return Optional.of(candidate);
            }
        }
        // "ovn" for "ovn-kubernetes": a unique candidate that starts with what was typed.
        if (typed.length() >= 2) {
            List<String> extended = candidates.stream()
                    .filter(c -> c.toLowerCase(Locale.ROOT).startsWith(lowerTyped)).toList();
            if (extended.size() == 1) {
                return Optional.of(extended.getFirst());
            }
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            int distance = editDistance(lowerTyped, candidate.toLowerCase(Locale.ROOT));
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        int allowed = Math.min(3, Math.max(1, typed.length() / 3));
        return best != null && bestDistance <= allowed ? Optional.of(best) : Optional.empty();
    }

    /** Levenshtein distance, with a swap of two neighbouring letters counted as one edit. */
    static int editDistance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
