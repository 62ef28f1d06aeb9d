package io.periscope.plan.dns;

import io.periscope.model.net.Ipv4Address;

import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The zone as a master file (RFC 1035) for another DNS server to serve, with the answers one
 * cluster's clients get at the first turn of the rotation. It lets an established server (BIND,
 * Knot) serve exactly the records Periscope's server answers, to compare the two.
 */
public final class ZoneFile {

    private ZoneFile() {
    }

    /**
     * @param nameServer the address the zone's own NS name resolves to
     */
    public static String render(ServiceDiscovery discovery, Optional<String> askingCluster, Ipv4Address nameServer) {
        Set<String> lines = new LinkedHashSet<>();
        DnsRecord.Authority soa = discovery.soa();
        lines.add(soa.zoneLine());
        lines.add(ServiceDiscovery.ZONE + ". " + ServiceDiscovery.TTL + " IN NS " + soa.primary() + ".");
        lines.add(new DnsRecord.Address(soa.primary(), ServiceDiscovery.TTL, nameServer).zoneLine());
        for (String name : discovery.names()) {
            for (int type : new int[] {DnsRecord.A, DnsRecord.SRV}) {
                DnsAnswer answer = discovery.answer(name, type, askingCluster, Rotation.FIRST);
                answer.answers().forEach(r -> lines.add(r.zoneLine()));
                answer.additionals().forEach(r -> lines.add(r.zoneLine()));
            }
        }
        StringBuilder text = new StringBuilder("$ORIGIN " + ServiceDiscovery.ZONE + ".\n$TTL " + ServiceDiscovery.TTL + "\n");
        lines.forEach(l -> text.append(l).append('\n'));
        return text.toString();
    }
}
