package io.periscope.simulator.reachability;

/** Told how far a reachability matrix has got, in cells (source pods times services). */
public interface MatrixProgress {

    MatrixProgress NONE = new MatrixProgress() {
        @Override
        public void start(long cells) {
        }

        @Override
        public void advance(long cellsDone) {
        }
    };

    /** Before the first cell: how many there are. */
    void start(long cells);

    /** How many cells are decided so far (a total, not an increment). */
    void advance(long cellsDone);
}
