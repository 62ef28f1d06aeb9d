package io.periscope.dns;

import io.netty.handler.codec.dns.DnsOpCode;
import io.netty.handler.codec.dns.DnsQuery;
import io.netty.handler.codec.dns.DnsQuestion;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponse;
import io.netty.handler.codec.dns.DnsResponseCode;
import io.netty.handler.codec.dns.DnsSection;
import io.periscope.plan.dns.DnsAnswer;
import io.periscope.plan.dns.DnsNameSyntax;
import io.periscope.plan.dns.DnsRecord;
import io.periscope.plan.dns.Rcode;

/**
 * Turns one decoded query into its response, the same for UDP and TCP: the header (id, opcode, RD
 * echoed; AA for names of the zone), the question, the resolver's three sections, and an OPT record
 * when the query had one.
 */
final class QueryResponder {

    private static final int CLASS_IN = 1;
    private static final int CLASS_ANY = 255;
    private static final int BADVERS = 16;

    private final ClustersetZone zone;

    QueryResponder(ClustersetZone zone) {
        this.zone = zone;
    }

    /**
     * Fills {@code response} (empty, of the transport's type) for {@code query}.
     *
     * @return the largest response the client accepts over UDP
     */
    int respond(DnsQuery query, DnsResponse response) {
        response.setId(query.id());
        response.setOpCode(query.opCode());
        response.setRecursionDesired(query.isRecursionDesired());
        response.setRecursionAvailable(false);
        int optCount = 0;
        int payload = ExtendedDns.CLASSIC_PAYLOAD_SIZE;
        int version = 0;
        for (int i = 0; i < query.count(DnsSection.ADDITIONAL); i++) {
            io.netty.handler.codec.dns.DnsRecord r = query.recordAt(DnsSection.ADDITIONAL, i);
            if (r.type() == DnsRecordType.OPT) {
                optCount++;
                payload = Math.max(ExtendedDns.CLASSIC_PAYLOAD_SIZE, Math.min(r.dnsClass(), ExtendedDns.PAYLOAD_SIZE));
                version = (int) (r.timeToLive() >>> 16) & 0xff;
            }
        }
        boolean edns = optCount > 0;
        if (optCount > 1 || query.count(DnsSection.QUESTION) != 1 || query.count(DnsSection.ANSWER) != 0) {
            // RFC 6891: more than one OPT is a format error; a query asks exactly one question and answers nothing.
            response.setCode(DnsResponseCode.FORMERR);
            return payload;
        }
        DnsQuestion question = query.recordAt(DnsSection.QUESTION);
        if (!DnsNameSyntax.fitsTheWireFormat(question.name())) {
            // netty reads a label of 64 to 191 octets (reserved label types) and names beyond 255 octets without complaint.
            response.setCode(DnsResponseCode.FORMERR);
            return payload;
        }
        response.addRecord(DnsSection.QUESTION, question);
        if (edns && version != 0) {
            response.addRecord(DnsSection.ADDITIONAL, new ExtendedDns(BADVERS >> 4));
            return payload;
        }
        if (edns) {
            response.addRecord(DnsSection.ADDITIONAL, new ExtendedDns(0));
        }
        if (!query.opCode().equals(DnsOpCode.QUERY)) {
            response.setCode(DnsResponseCode.NOTIMP);
            return payload;
        }
        if (question.dnsClass() != CLASS_IN && question.dnsClass() != CLASS_ANY) {
            response.setCode(DnsResponseCode.REFUSED);
            return payload;
        }
        DnsAnswer answer = zone.answer(question.name(), question.type().intValue());
        response.setCode(DnsResponseCode.valueOf(answer.rcode().code()));
        if (answer.rcode() == Rcode.REFUSED) {
            return payload;
        }
        response.setAuthoritativeAnswer(true);
        for (DnsRecord r : answer.answers()) {
            response.addRecord(DnsSection.ANSWER, WireRecords.of(r));
        }
        for (DnsRecord r : answer.authority()) {
            response.addRecord(DnsSection.AUTHORITY, WireRecords.of(r));
        }
        for (DnsRecord r : answer.additionals()) {
            // The OPT record, when there is one, stays last, where resolvers expect it.
            response.addRecord(DnsSection.ADDITIONAL, edns ? response.count(DnsSection.ADDITIONAL) - 1 : response.count(DnsSection.ADDITIONAL),
                    WireRecords.of(r));
        }
        return payload;
    }
}
