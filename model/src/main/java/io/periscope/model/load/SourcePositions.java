package io.periscope.model.load;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each field of a topology file was written, by field path ({@code clusters[1].pods[0].ip}), so
 * that checks made after the records were built can still point the user at a line.
 *
 * <p>The records only hold the list entries that could be built. When an entry was left out because of
 * an error, the records' indices no longer match the file's; {@code fileIndices} maps a list's path to
 * the file index of each entry that was kept, so that {@link #element} still names the right entry.
 *
 * @param byPath      the position of every value the reader visited
 * @param fileIndices for lists that lost entries, the file index of each kept entry, in record order
 */
public record SourcePositions(Map<String, SourcePosition> byPath, Map<String, List<Integer>> fileIndices) {

    /** For cluster sets that come from somewhere other than a file. */
    public static final SourcePositions NONE = new SourcePositions(Map.of(), Map.of());

    /** The class of an unmodifiable view: {@link #handedOver} passes one, which is kept rather than copied. */
    private static final Class<?> VIEW = Collections.unmodifiableMap(new HashMap<>()).getClass();

    public SourcePositions {
        byPath = byPath.getClass() == VIEW ? byPath : Map.copyOf(byPath);
        fileIndices = Map.copyOf(fileIndices);
    }

    /**
     * Positions from a reader that is done with its maps: kept behind an unmodifiable view instead of
     * copied, since copying the hundred thousand positions of a large file cost as much as recording them.
     */
    static SourcePositions handedOver(Map<String, SourcePosition> byPath, Map<String, List<Integer>> fileIndices) {
        return new SourcePositions(Collections.unmodifiableMap(byPath), fileIndices);
    }

    /** The position of the field at {@code path}, or of its nearest enclosing field that has one. */
    public SourcePosition position(String path) {
        String current = path;
        while (true) {
            SourcePosition found = byPath.get(current);
            if (found != null) {
                return found;
            }
            if (current.isEmpty()) {
                return SourcePosition.UNKNOWN;
            }
            current = parent(current);
        }
    }

    /** Whether the file wrote this exact field (as opposed to it taking its default). */
    public boolean contains(String path) {
        return byPath.containsKey(path);
    }

    /** The path of the record at {@code recordIndex} of the list at {@code listPath}, as the file numbers it. */
    public String element(String listPath, int recordIndex) {
        List<Integer> kept = fileIndices.get(listPath);
        int fileIndex = kept != null && recordIndex < kept.size() ? kept.get(recordIndex) : recordIndex;
        return listPath + "[" + fileIndex + "]";
    }

    /** {@code a.b[2].c} → {@code a.b[2]} → {@code a.b} → {@code a} → the empty root path. */
    static String parent(String path) {
        if (path.endsWith("]")) {
            int open = path.lastIndexOf('[');
            if (open >= 0) {
                return path.substring(0, open);
            }
        }
        int dot = path.lastIndexOf('.');
        return dot < 0 ? "" : path.substring(0, dot);
    }
}
