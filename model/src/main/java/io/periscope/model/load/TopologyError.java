package io.periscope.model.load;

/**
 * One mistake in a topology file, with everything a user needs to fix it without reading code.
 *
 * @param file    the file as the user named it
 * @param line    1-based line, 0 when unknown
 * @param column  1-based column, 0 when unknown
 * @param path    the field's path in the document, e.g. {@code clusters[1].pods[0].ip}
 * @param problem what is wrong, naming the offending value
 * @param fix     what to do about it
 */
public record TopologyError(String file, int line, int column, String path, String problem, String fix) {

    /** {@code file:line:column: path: problem (fix)}, the shape compilers use so editors can jump to it. */
    public String format() {
        StringBuilder text = new StringBuilder(file);
        if (line > 0) {
            text.append(':').append(line);
            if (column > 0) {
                text.append(':').append(column);
            }
        }
        text.append(": ");
        if (!path.isEmpty()) {
            text.append(path).append(": ");
        }
        text.append(problem);
        if (!fix.isEmpty()) {
            text.append("\n    fix: ").append(fix);
        }
        return text.toString();
    }
}
