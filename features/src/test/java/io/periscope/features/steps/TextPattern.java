package io.periscope.features.steps;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A rule, route or step as the scenarios quote it: literal text in which {@code ...} stands for any
 * text. Scenarios leave out what is not the point (kube-proxy's chain hashes, nexthop lists) and keep
 * what the document says. Spaces around {@code ...} are part of it, so "a ... b" also matches "a b".
 */
record TextPattern(String written, List<String> fragments) {

    private static final Pattern ELLIPSIS = Pattern.compile("\\s*\\.\\.\\.\\s*");

    static TextPattern parse(String cell) {
        String text = cell == null ? "" : cell.trim();
        return new TextPattern(text, List.of(ELLIPSIS.split(text, -1)));
    }

    boolean isEmpty() {
        return written.isEmpty();
    }

    /** Every fragment, in order; without {@code ...} the text must contain the whole pattern. */
    boolean foundIn(String text) {
        int at = 0;
        for (String fragment : fragments) {
            int found = text.indexOf(fragment, at);
            if (found < 0) {
                return false;
            }
            at = found + fragment.length();
        }
        return true;
    }

    /** The whole text matches: the first fragment starts it and the last one ends it. */
    boolean matchesWhole(String text) {
        return foundIn(text) && text.startsWith(fragments.getFirst()) && text.endsWith(fragments.getLast());
    }

    @Override
    public String toString() {
        return written;
    }
}
