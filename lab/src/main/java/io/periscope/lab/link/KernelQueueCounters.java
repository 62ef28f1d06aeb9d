package io.periscope.lab.link;

import java.util.Optional;

/**
 * One queue's line of {@code /proc/net/netfilter/nfnetlink_queue} (per network namespace): what the
 * kernel itself counts, which is the only place a drop the socket never hears of shows.
 *
 * @param queueNumber        the queue
 * @param portId             the netlink port id of the socket serving it
 * @param waiting            packets the kernel holds for it now (sent to the socket, no verdict yet)
 * @param droppedFull        packets dropped because the queue held its maximum length ({@code queue_dropped})
 * @param droppedUndelivered packets dropped because the socket's receive buffer was full ({@code queue_user_dropped}: ENOBUFS)
 * @param lastPacketId       the last packet id it gave out
 */
public record KernelQueueCounters(int queueNumber, long portId, long waiting, long droppedFull, long droppedUndelivered, long lastPacketId) {

    public static final KernelQueueCounters NONE = new KernelQueueCounters(-1, 0, 0, 0, 0, 0);

    /**
     * The line of {@code queue} in the file's text. Each line is {@code queue_number peer_portid
     * queue_total copy_mode copy_range queue_dropped queue_user_dropped id_sequence 1}.
     */
    public static Optional<KernelQueueCounters> of(String procText, int queue) {
        for (String line : procText.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 8 && f[0].equals(Integer.toString(queue))) {
                try {
                    return Optional.of(new KernelQueueCounters(queue, Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[5]),
                            Long.parseLong(f[6]), Long.parseLong(f[7])));
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }
}
