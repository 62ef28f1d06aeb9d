package io.periscope.model.load;

import java.util.List;

/** A topology file that cannot be used, with every error found in it (not just the first). */
public final class TopologyException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient List<TopologyError> errors;

    public TopologyException(List<TopologyError> errors) {
        super(errors.size() + (errors.size() == 1 ? " error" : " errors") + " in " + (errors.isEmpty() ? "topology" : errors.getFirst().file()));
        this.errors = List.copyOf(errors);
    }

    public List<TopologyError> errors() {
        return errors;
    }

    /** All errors, one block each, for a terminal. */
    public String report() {
        StringBuilder text = new StringBuilder();
        for (TopologyError error : errors) {
            text.append(error.format()).append('\n');
        }
        text.append(getMessage()).append('\n');
        return text.toString();
    }
}
