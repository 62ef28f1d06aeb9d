package io.periscope.dns;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Optional;

import static io.periscope.dns.WireClient.query;
import static org.assertj.core.api.Assertions.assertThat;

/** kv has 60 ready pods (about 3 KB of A records), cache 15 (about 800 bytes). */
class LargeAnswersTruncateOverUdpAndCompleteOverTcp {

    @RegisterExtension
    static final ServedTopology served = new ServedTopology();

    @Test
    void anAnswerBeyond512BytesIsTruncatedWithoutEdnsAndFitsWithIt() throws Exception {
        WireClient.Response classic = served.client.udp(query(1, "cache.store.svc.clusterset.local", WireClient.A, Optional.empty()));
        assertThat(classic.truncated()).isTrue();
        assertThat(classic.answers()).isEmpty();
        assertThat(classic.size()).isLessThanOrEqualTo(512);
        WireClient.Response edns = served.client.udp(query(2, "cache.store.svc.clusterset.local", WireClient.A, Optional.of(4096)));
        assertThat(edns.truncated()).isFalse();
        assertThat(edns.answers()).hasSize(15);
        assertThat(edns.additionals()).extracting(WireClient.Rr::type).containsExactly(WireClient.OPT);
        assertThat(edns.additionals().getFirst().dnsClass()).as("the server's own payload size").isEqualTo(1232);
    }

    @Test
    void anAnswerBeyondTheEdnsPayloadIsTruncatedOverUdpAndWholeOverTcp() throws Exception {
        WireClient.Response udp = served.client.udp(query(3, "kv.store.svc.clusterset.local", WireClient.A, Optional.of(4096)));
        assertThat(udp.truncated()).isTrue();
        assertThat(udp.answers()).isEmpty();
        assertThat(udp.size()).isLessThanOrEqualTo(1232);
        WireClient.Response tcp = served.client.tcp(query(3, "kv.store.svc.clusterset.local", WireClient.A, Optional.empty()));
        assertThat(tcp.truncated()).isFalse();
        assertThat(tcp.answers()).hasSize(60);
        assertThat(tcp.data(WireClient.A)).contains("10.2.2.10", "10.2.2.69");
    }
}
