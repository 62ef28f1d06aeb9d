package io.periscope.lab.trace;

/**
 * Where an observed path first departs from the simulated one.
 *
 * @param direction {@code forward}, {@code reply} or {@code path} (for the disposition)
 * @param hop       1-based hop number within the direction, 0 for the path as a whole
 * @param field     e.g. {@code out}, {@code depart.src}, {@code encap.outerDst}, {@code hops}
 */
public record HopDifference(String direction, int hop, String node, String field, String simulated, String observed) {

    public String describe() {
        String where = hop == 0 ? direction : direction + " hop " + hop + (node.isEmpty() ? "" : " (" + node + ")");
        return where + ": " + field + " simulated " + simulated + ", observed " + observed;
    }
}
