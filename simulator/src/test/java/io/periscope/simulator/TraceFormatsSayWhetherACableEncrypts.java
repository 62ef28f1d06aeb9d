package io.periscope.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.cable.WireGuardPeer;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import io.periscope.simulator.trace.TraceJson;
import io.periscope.simulator.trace.TraceText;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.periscope.simulator.PlanFixture.ip;
import static io.periscope.simulator.TraceQueries.steps;
import static io.periscope.simulator.TraceQueries.tcp;
import static io.periscope.simulator.TwoGatewaysOverTheWan.CLIENT;
import static org.assertj.core.api.Assertions.assertThat;

class TraceFormatsSayWhetherACableEncrypts {

    private final PathTrace path;

    TraceFormatsSayWhetherACableEncrypts() {
        TwoGatewaysOverTheWan wan = new TwoGatewaysOverTheWan();
        wan.g1.route("table 100 10.2.0.0/16 dev wg0 src 10.1.0.1").wireGuard(new WireGuardDevice("wg0", 4500, "k1", 1420, List.of(
                new WireGuardPeer("c2/g2", "k2", "psk", ip("198.51.100.2"), 4500, List.of(Ipv4Prefix.parse("10.2.0.0/16")), 10))));
        wan.g2.route("table 100 10.1.0.0/16 dev wg0 src 10.2.0.1").wireGuard(new WireGuardDevice("wg0", 4500, "k2", 1420, List.of(
                new WireGuardPeer("c1/g1", "k1", "psk", ip("198.51.100.1"), 4500, List.of(Ipv4Prefix.parse("10.1.0.0/16")), 10))));
        path = wan.simulator().trace(tcp(CLIENT, "10.1.0.5", "10.2.0.5", 80)).getFirst();
    }

    @Test
    void jsonEncapAndDecapStepsNameTheEncapsulationAndWhetherItIsEncrypted() {
        JsonNode encap = TraceJson.step(steps(path.forward(), Step.Encap.class).getFirst());
        assertThat(encap.get("kind").asText()).isEqualTo("encap");
        assertThat(encap.get("encapsulation").asText()).isEqualTo("wireguard");
        assertThat(encap.get("encrypted").asBoolean()).isTrue();
        assertThat(encap.get("port").asInt()).isEqualTo(4500);
        assertThat(encap.has("vni")).isFalse();
        JsonNode decap = TraceJson.step(steps(path.forward(), Step.Decap.class).getFirst());
        assertThat(decap.get("encrypted").asBoolean()).isTrue();
        assertThat(decap.get("check").asText()).contains("peer c1/g1");
    }

    @Test
    void textEncapAndDecapLinesSayEncryptedTrue() {
        assertThat(TraceText.step(steps(path.forward(), Step.Encap.class).getFirst()))
                .startsWith("encap wireguard wg0 udp/4500 198.51.100.1 -> 198.51.100.2 via wan0, encrypted: true (peer c2/g2");
        assertThat(TraceText.step(steps(path.forward(), Step.Decap.class).getFirst()))
                .startsWith("decap wireguard wg0 udp/4500 198.51.100.1 -> 198.51.100.2 from wan0, encrypted: true (peer c1/g1");
    }
}
