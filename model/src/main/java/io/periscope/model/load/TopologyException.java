package io.periscope.model.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A topology file that cannot be used, with every error found in it (not just the first), up to
 * {@link #MAX_LISTED} of them: a generated file with one mistake repeated in each of 100,000 clusters
 * would otherwise print hundreds of thousands of errors, all alike. The rest are counted.
 */
public final class TopologyException extends Exception {

    private static final long serialVersionUID = 1L;

    /** How many errors are listed; documented in docs/topology.md ("Limits"). */
    public static final int MAX_LISTED = 50;

    private final transient List<TopologyError> errors;
    private final int omitted;

    /** Lists the first {@link #MAX_LISTED} of {@code errors} and counts the others. */
    public TopologyException(List<TopologyError> errors) {
        super(count(errors.size()) + " in " + (errors.isEmpty() ? "topology" : errors.getFirst().file()));
        this.errors = List.copyOf(errors.subList(0, Math.min(errors.size(), MAX_LISTED)));
        this.omitted = errors.size() - this.errors.size();
    }

    /** The listed errors, at most {@link #MAX_LISTED}. */
    public List<TopologyError> errors() {
        return errors;
    }

    /** How many errors were found beyond those listed. */
    public int omitted() {
        return omitted;
    }

    /**
     * The listed errors followed, when some were left out, by one that says how many: for a reader that
     * shows a list of errors (the page) and has no place for a count.
     */
    public List<TopologyError> errorsWithOmittedCount() {
        if (omitted == 0) {
            return errors;
        }
        List<TopologyError> all = new ArrayList<>(errors);
        all.add(new TopologyError(errors.getFirst().file(), 0, 0, "", "... and " + more(omitted),
                "fix the errors above (the rest are often the same mistake repeated) and load the file again"));
        return List.copyOf(all);
    }

    /** All listed errors, one block each, and how many more there were, for a terminal. */
    public String report() {
        StringBuilder text = new StringBuilder();
        for (TopologyError error : errors) {
            text.append(error.format()).append('\n');
        }
        if (omitted > 0) {
            text.append("... and ").append(more(omitted)).append('\n');
        }
        text.append(getMessage()).append('\n');
        return text.toString();
    }

    /** "3,958 more errors, not listed" */
    private static String more(int omitted) {
        return String.format(Locale.ROOT, "%,d more %s, not listed", omitted, omitted == 1 ? "error" : "errors");
    }

    private static String count(int errors) {
        return String.format(Locale.ROOT, "%,d", errors) + (errors == 1 ? " error" : " errors");
    }
}
