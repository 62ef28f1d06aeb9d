package io.periscope.lab.failover;

import java.util.BitSet;

/**
 * What the receiving end of one UDP stream saw: which sequence numbers arrived. The sender numbers
 * its datagrams 0, 1, 2, ... and sends number {@code k} at {@code start + k / rate}, so a run of
 * missing numbers is a window of time in which the stream's packets were lost.
 */
final class SequencedStream {

    private final BitSet received = new BitSet();
    private volatile int sent;

    synchronized void arrived(int sequence) {
        received.set(sequence);
    }

    void sentUpTo(int count) {
        sent = count;
    }

    int sent() {
        return sent;
    }

    synchronized int receivedCount(int from, int to) {
        return received.get(from, Math.min(to, sent)).cardinality();
    }

    /** The longest run of numbers in {@code [from, to)} that never arrived. */
    synchronized int longestGap(int from, int to) {
        int end = Math.min(to, sent);
        int longest = 0;
        int missing = received.nextClearBit(from);
        while (missing < end) {
            int next = received.nextSetBit(missing);
            int runEnd = next < 0 || next > end ? end : next;
            longest = Math.max(longest, runEnd - missing);
            missing = received.nextClearBit(runEnd);
        }
        return longest;
    }
}
