package io.periscope.features.steps;

import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.periscope.features.backend.GatewayFailover;
import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.Protocol;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway failing while traffic runs, and what becomes of the traffic (seed 004's promises). In
 * the lab the gateway is blackholed for real and the agents' health checks withdraw it; on the
 * simulator every stream's fate is predicted from its own 5-tuple. Each check says which streams it
 * looked at and refuses to pass on none.
 */
public final class FailoverSteps {

    private final ClusterSetUnderTest world;
    private GatewayFailover failover;

    public FailoverSteps(ClusterSetUnderTest world) {
        this.world = world;
    }

    @When("{int} UDP streams to {word} and {int} TCP connections to {word} run from {word} while the gateway {word} fails and comes back")
    public void streamsRunWhileAGatewayFails(int streams, String udpTarget, int tcp, String tcpTarget, String from, String gateway) {
        Flow udp = new Flow("streams", FlowEndpointSyntax.parseSource(from), FlowEndpointSyntax.parseTarget(udpTarget), Protocol.UDP,
                Optional.of(Disposition.DELIVERED));
        Flow connections = new Flow("connections", FlowEndpointSyntax.parseSource(from), FlowEndpointSyntax.parseTarget(tcpTarget),
                Protocol.TCP, Optional.of(Disposition.DELIVERED));
        failover = world.deployment().failover(udp, streams, connections, tcp, gateway);
    }

    private GatewayFailover failover() {
        if (failover == null) {
            throw new IllegalStateException("no failover ran: a step like 'When 48 UDP streams to ... run from ... while the gateway ... "
                    + "fails and comes back' comes first");
        }
        return failover;
    }

    private List<GatewayFailover.Stream> through(boolean failedGateway) {
        String failed = failover().failed();
        return failover().streams().stream().filter(s -> s.before().contains(failed) == failedGateway).toList();
    }

    @Then("the streams through the other gateways lose no packet")
    public void survivorsLoseNothing() {
        List<GatewayFailover.Stream> surviving = through(false);
        assertThat(surviving).as("streams that crossed a gateway other than %s", failover().failed()).isNotEmpty();
        assertThat(surviving).allSatisfy(s -> {
            assertThat(s.lostOnFailure()).as("stream %d (%s) lost on the failure", s.id(), s.before()).isZero();
            assertThat(s.lostOnHeal()).as("stream %d (%s) lost when %s came back", s.id(), s.before(), failover().failed()).isZero();
        });
    }

    @Then("every stream through the failed gateway moves to the other gateways and loses packets only then")
    public void failedGatewaysStreamsMove() {
        List<GatewayFailover.Stream> moved = through(true);
        assertThat(moved).as("streams that crossed %s", failover().failed()).isNotEmpty();
        assertThat(moved).allSatisfy(s -> {
            assertThat(s.during()).as("stream %d's gateways while %s was failed", s.id(), failover().failed())
                    .isNotEmpty().doesNotContain(failover().failed());
            assertThat(s.lostOnFailure()).as("stream %d lost on the failure", s.id()).isPositive();
            assertThat(s.lostOnHeal()).as("stream %d lost when %s came back", s.id(), failover().failed()).isZero();
        });
    }

    @Then("{word} of the streams through the other gateways change(s) gateway")
    public void survivorsChangeGateway(String howMany) {
        List<GatewayFailover.Stream> surviving = through(false);
        assertThat(surviving).as("streams that crossed a gateway other than %s", failover().failed()).isNotEmpty();
        long changed = surviving.stream().filter(GatewayFailover.Stream::changedGateway).count();
        switch (howMany) {
            case "none" -> assertThat(changed).as("surviving streams that changed gateway (of %d)", surviving.size()).isZero();
            case "some" -> assertThat(changed).as("surviving streams that changed gateway (of %d)", surviving.size())
                    .isPositive().isLessThan(surviving.size());
            default -> throw new IllegalArgumentException("'" + howMany + "': write none or some");
        }
    }

    @Then("{word} of the streams that left the failed gateway return to it")
    public void streamsReturn(String howMany) {
        List<GatewayFailover.Stream> moved = through(true);
        assertThat(moved).as("streams that crossed %s", failover().failed()).isNotEmpty();
        long back = moved.stream().filter(s -> s.after().contains(failover().failed())).count();
        switch (howMany) {
            case "every" -> assertThat(back).as("streams back on %s (of %d)", failover().failed(), moved.size()).isEqualTo(moved.size());
            case "none" -> assertThat(back).as("streams back on %s (of %d)", failover().failed(), moved.size()).isZero();
            default -> throw new IllegalArgumentException("'" + howMany + "': write every or none");
        }
    }

    @Then("the TCP connections that changed gateway are reset and the others survive")
    public void movedConnectionsAreReset() {
        List<GatewayFailover.Connection> moved = failover().connections().stream().filter(GatewayFailover.Connection::changedGateway).toList();
        List<GatewayFailover.Connection> kept = failover().connections().stream().filter(c -> !c.changedGateway()).toList();
        String all = failover().connections().stream().map(c -> c.id() + " " + c.before() + " -> " + c.during() + ": " + c.fate())
                .collect(Collectors.joining("; "));
        assertThat(moved).as("TCP connections that changed gateway, of: %s", all).isNotEmpty();
        assertThat(kept).as("TCP connections that kept their gateway, of: %s", all).isNotEmpty();
        assertThat(moved).allSatisfy(c -> assertThat(c.survived()).as("connection %d %s -> %s: %s", c.id(), c.before(), c.during(), c.fate())
                .isFalse());
        assertThat(kept).allSatisfy(c -> assertThat(c.fate()).as("connection %d through %s", c.id(), c.before()).isEqualTo("survived"));
    }
}
