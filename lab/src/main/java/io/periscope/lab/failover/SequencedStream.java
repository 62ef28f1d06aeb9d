package io.periscope.lab.failover;

import java.util.Arrays;
import java.util.BitSet;

/**
 * One UDP stream's record: when each numbered datagram was sent, and which arrived. A run of
 * missing numbers is a window of sending time whose datagrams were lost; its length in time comes
 * from the send times, so a sender that fell behind its schedule still measures true windows.
 */
final class SequencedStream {

    private final BitSet received = new BitSet();
    private long[] sentAt = new long[4096];
    private volatile int sent;

    synchronized void arrived(int sequence) {
        received.set(sequence);
    }

    /** Called by the sending thread only, in order. */
    void sending(int sequence, long nanoTime) {
        if (sequence >= sentAt.length) {
            synchronized (this) {
                sentAt = Arrays.copyOf(sentAt, sentAt.length * 2);
            }
        }
        sentAt[sequence] = nanoTime;
        sent = sequence + 1;
    }

    int sent() {
        return sent;
    }

    synchronized int receivedCount(int from, int to) {
        int end = Math.min(to, sent);
        return from >= end ? 0 : received.get(from, end).cardinality();
    }

    synchronized int lost(int from, int to) {
        int end = Math.min(to, sent);
        return from >= end ? 0 : (end - from) - received.get(from, end).cardinality();
    }

    /**
     * The longest loss in {@code [from, to)}, in milliseconds: from the sending of the first datagram
     * that never arrived to the sending of the next one that did (or of the last one sent).
     */
    synchronized double longestWindowMillis(int from, int to) {
        int end = Math.min(to, sent);
        long longest = 0;
        int missing = received.nextClearBit(from);
        while (missing < end) {
            int next = received.nextSetBit(missing);
            int runEnd = next < 0 || next >= sent ? sent - 1 : next;
            longest = Math.max(longest, sentAt[runEnd] - sentAt[missing] + (runEnd == missing ? 0 : 0));
            if (runEnd == missing) {
                longest = Math.max(longest, 1);
            }
            missing = received.nextClearBit(Math.max(runEnd, missing + 1));
        }
        return longest / 1_000_000.0;
    }
}
