package io.periscope.model.load;

/**
 * Where something sits in a topology file.
 *
 * @param line   1-based line, 0 when unknown
 * @param column 1-based column, 0 when unknown
 */
public record SourcePosition(int line, int column) {

    public static final SourcePosition UNKNOWN = new SourcePosition(0, 0);

    public boolean known() {
        return line > 0;
    }

    @Override
    public String toString() {
        return known() ? "line " + line : "unknown line";
    }
}
