package io.periscope.features.steps;

import io.cucumber.java.Before;
import io.cucumber.java.Scenario;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.periscope.features.backend.RoundTrips;
import io.periscope.features.backend.Throughput;
import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.Protocol;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Links with a rate, a delay, jitter and loss (issue 19), and how connections spread over several
 * gateways. The figures a scenario states are checked against real packets in the lab, with the
 * tolerance a measurement needs (10% for a delay, the 99.9% binomial range for a loss), and against
 * the simulator's prediction exactly: the same sentence holds for what happens and for what
 * Periscope says will happen.
 */
public final class LinkSteps {

    /** 3.29 standard deviations: both tails of a normal distribution hold 0.1% together. */
    private static final double Z_999 = 3.29;

    private final ClusterSetUnderTest world;
    private RoundTrips pings;
    private Throughput connections;
    private int burstSent;
    private int burstAnswered = -1;
    private Scenario scenario;

    public LinkSteps(ClusterSetUnderTest world) {
        this.world = world;
    }

    @Before
    public void remember(Scenario scenario) {
        this.scenario = scenario;
    }

    @When("{word} pings {word} {int} times")
    public void pings(String from, String to, int count) {
        Flow flow = new Flow("pings", FlowEndpointSyntax.parseSource(from), FlowEndpointSyntax.parseTarget(to), Protocol.ICMP,
                Optional.of(Disposition.DELIVERED));
        pings = world.deployment().pings(flow, count);
    }

    @Then("the round trips take about {int} ms")
    public void roundTripsTake(int millis) {
        if (pings().measured()) {
            assertThat(pings().medianMs()).as("the median round trip, in ms").isCloseTo(millis, within(millis * 0.10));
        } else {
            assertThat(pings().medianMs()).as("the predicted round trip, in ms").isCloseTo(millis, within(0.5));
        }
    }

    /** Jitter: most round trips stay inside the band, and, measured, they do spread (a band of width zero is no jitter). */
    @Then("the round trips stay within ±{int} ms of it")
    public void roundTripsVary(int millis) {
        if (pings().measured()) {
            double slack = Math.max(1, pings().medianMs() * 0.05);
            assertThat(pings().lowMs()).as("the 5th percentile round trip").isGreaterThanOrEqualTo(pings().medianMs() - millis - slack);
            assertThat(pings().highMs()).as("the 95th percentile round trip").isLessThanOrEqualTo(pings().medianMs() + millis + slack);
            assertThat(pings().highMs() - pings().lowMs()).as("how far the middle 90% of round trips spread").isGreaterThan(millis / 2.0);
        } else {
            assertThat(pings().highMs() - pings().medianMs()).as("the predicted jitter of the round trip, in ms").isCloseTo(millis, within(0.5));
        }
    }

    @Then("about {int}% of the pings go unanswered")
    public void pingsLost(int percent) {
        double expected = percent / 100.0;
        if (pings().measured()) {
            int n = pings().sent();
            double bound = (Z_999 * Math.sqrt(n * expected * (1 - expected)) + 1) / n;
            assertThat(pings().lostShare()).as("the share of %d pings unanswered (expected %.3f, 99.9%% range ± %.3f)", n, expected, bound)
                    .isCloseTo(expected, within(bound));
        } else {
            assertThat(pings().lostShare()).as("the predicted chance that a ping goes unanswered").isCloseTo(expected, within(0.005));
        }
    }

    @When("{int} TCP connections run from {word} to {word} for {int} seconds")
    public void connectionsRun(int count, String from, String to, int seconds) {
        Flow flow = new Flow("connections", FlowEndpointSyntax.parseSource(from), FlowEndpointSyntax.parseTarget(to), Protocol.TCP,
                Optional.of(Disposition.DELIVERED));
        connections = world.deployment().connections(flow, count, seconds);
        // In the report whether the scenario passes or not: a rate is a figure worth keeping.
        scenario.log(String.format(java.util.Locale.ROOT, "%s %.1f Mbit/s, connections per gateway of the source's cluster %s",
                connections.measured() ? "measured" : "predicted", connections.megabitsPerSecond(), connections.connectionsByLocalGateway()));
    }

    /**
     * TCP's goodput through a shaped link is its rate less what the link counts besides the payload
     * (Ethernet, the VXLAN cable's 50 bytes, IP and TCP headers: 1,398 of 1,514 bytes, 0.92), and
     * several connections through several bottlenecks fill them less than evenly: 80% of the rate is
     * where a measurement still says the rate holds, 102% where it says it does not.
     */
    @Then("they carry about {int} Mbit\\/s together")
    public void connectionsCarry(int megabits) {
        if (connections().measured()) {
            assertThat(connections().megabitsPerSecond()).as("the connections' aggregate throughput, in Mbit/s")
                    .isBetween(megabits * 0.80, megabits * 1.02);
        } else {
            assertThat(connections().megabitsPerSecond()).as("the predicted aggregate, in Mbit/s").isCloseTo(megabits, within(0.5));
        }
    }

    @Then("they leave {word} by {int} of its gateways")
    public void connectionsLeaveBy(String cluster, int gateways) {
        assertThat(connections().connectionsByLocalGateway().keySet()).as("the gateways of %s", cluster)
                .allMatch(g -> g.startsWith(cluster + "/"));
        assertThat(connections().gatewaysUsed()).as("gateways of %s that carried a connection: %s", cluster,
                connections().connectionsByLocalGateway()).isEqualTo(gateways);
    }

    @When("{word} sends {int} pings of {int} bytes at once to {word}")
    public void burst(String from, int count, int size, String to) {
        Flow flow = new Flow("burst", FlowEndpointSyntax.parseSource(from), FlowEndpointSyntax.parseTarget(to), Protocol.ICMP,
                Optional.of(Disposition.DELIVERED));
        burstSent = count;
        burstAnswered = world.deployment().burst(flow, count, size);
        scenario.log(burstAnswered + " of " + count + " pings of the burst answered");
    }

    @Then("at most {int} of them are answered")
    public void atMostAnswered(int most) {
        assertThat(burstAnswered()).as("pings of the burst answered").isLessThanOrEqualTo(most);
    }

    @Then("all of them are answered")
    public void allAnswered() {
        assertThat(burstAnswered()).as("pings of the burst answered").isEqualTo(burstSent);
    }

    private int burstAnswered() {
        if (burstAnswered < 0) {
            throw new IllegalStateException("no burst was sent: a step like 'When cluster1/default/client sends 100 pings of 1400 bytes at once"
                    + " to cluster2/default/server' comes first");
        }
        return burstAnswered;
    }

    private RoundTrips pings() {
        if (pings == null) {
            throw new IllegalStateException("no pings ran: a step like 'When cluster1/default/client pings cluster2/default/server 200 times' comes first");
        }
        return pings;
    }

    private Throughput connections() {
        if (connections == null) {
            throw new IllegalStateException("no connections ran: a step like 'When 16 TCP connections run from ... to ... for 5 seconds' comes first");
        }
        return connections;
    }
}
