package io.periscope.lab.link;

/**
 * One message the kernel sends a queue's netlink socket, as {@link NfqueueCodec#parse} reads it:
 * a packet waiting for its verdict, or the answer to a request (an acknowledgement, or an error
 * the kernel reports for a request that failed, a verdict for a packet it no longer holds among them).
 */
public sealed interface QueueEvent {

    /**
     * {@code NFQNL_MSG_PACKET}: the kernel holds a packet of queue {@code queueNumber} until it gets a verdict for {@code packetId}.
     *
     * @param packetId   the queue's packet id (an unsigned 32-bit sequence the kernel counts up per queue)
     * @param hwProtocol the packet's link-layer protocol (0x0800 for IPv4)
     * @param hook       the netfilter hook that queued it (4 for POSTROUTING)
     */
    record PacketQueued(int queueNumber, long packetId, int hwProtocol, int hook) implements QueueEvent {
    }

    /**
     * {@code NLMSG_ERROR}: the kernel's answer to request {@code sequence}; {@code error} is 0 for an
     * acknowledgement, otherwise the (positive) errno it failed with.
     */
    record Answer(int sequence, int error) implements QueueEvent {

        public boolean failed() {
            return error != 0;
        }
    }

    /** Any other message (a netlink {@code NLMSG_DONE}, a message of another subsystem): nothing to act on. */
    record Other(int type) implements QueueEvent {
    }
}
