package io.periscope.plan;

import java.util.List;

/**
 * A layer-2 segment: a veth pair (two attachments, point to point) or a bridge (the underlay of a
 * cluster's nodes, or the WAN between gateways). A frame sent on an attachment reaches the other
 * attachment whose host owns the next-hop address (ARP), or the peer of a veth pair.
 */
public record Segment(String name, SegmentKind kind, List<Attachment> attachments) {

    public Segment {
        attachments = List.copyOf(attachments);
    }

    public enum SegmentKind { VETH, BRIDGE }

    public record Attachment(HostId host, String interfaceName) {
    }
}
