package io.periscope.lab.failover;

import io.periscope.lab.supervisor.SupervisorStop;
import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.labsimulator.SimulatorFailover;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 004's promise with real packets: with a gateway of the client's cluster blackholed, the
 * streams through the other gateway lose nothing and keep their gateway, the blackholed gateway's
 * streams move to the other one, exactly the streams the simulator predicts from their own 5-tuples;
 * once healed and past the hold-down, streams use the returned gateway again; TCP connections
 * through the other gateway survive. Outcomes only, no timings.
 *
 * <p>A TCP socket's packets carry the socket's random flow hash, which the worker's multipath route
 * uses, so which gateway a connection takes cannot be chosen: 12 connections leave none on the
 * surviving gateway once in 4,096 runs, and that run fails on the guard rather than passing without
 * checking a surviving connection.
 */
class BlackholedGatewaysFlowsMoveAndSurvivorsLoseNothing {

    static final String FAILED = "cluster1/gw-1";
    static final String SURVIVOR = "cluster1/gw-2";
    static final int TCP_CONNECTIONS = 12;
    /** Long enough for busy agents: on 2 cores with two other busy processes they took over 2 s to reroute. */
    static final Duration FAILED_FOR = Duration.ofSeconds(6);

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @BeforeEach
    void needsRoot() {
        SupervisedLab.assumeRootAndNft();
    }

    @Test
    void survivingStreamsLoseNothingAndTheFailedGatewaysStreamsMove() {
        RunningLab lab = labs.up(SupervisedLab.magGlobalnetWithUdp("blackhole"));
        assertThat(SupervisorStop.running(SupervisedLab.supervisor(lab))).as("lab up leaves its supervisor running").isTrue();

        FailoverReport report = new LabFailover(ProcessCommandRunner.here(), new SimulatorFailover()).run(SupervisedLab.upLab(lab),
                new LabFailover.Options(FAILED, FailureMode.BLACKHOLE, 16, 200, TCP_CONNECTIONS, Optional.of(FAILED_FOR)), line -> { });

        List<FailoverReport.StreamResult> surviving = report.streams().stream().filter(s -> s.before().equals(Set.of(SURVIVOR))).toList();
        List<FailoverReport.StreamResult> failed = report.streams().stream().filter(s -> s.before().equals(Set.of(FAILED))).toList();
        assertThat(surviving).as("16 streams over two gateways").isNotEmpty();
        assertThat(failed).as("16 streams over two gateways").isNotEmpty();
        assertThat(surviving.size() + failed.size()).isEqualTo(16);
        assertThat(surviving).allSatisfy(s -> {
            assertThat(s.lostOnFailure()).isZero();
            assertThat(s.during()).containsExactly(SURVIVOR);
        });
        assertThat(failed).allSatisfy(s -> {
            assertThat(s.lostOnFailure()).isPositive();
            assertThat(s.during()).containsExactly(SURVIVOR);
            assertThat(s.received()).isGreaterThan(s.sent() / 2);
        });
        assertThat(report.streams()).anySatisfy(s -> assertThat(s.after()).contains(FAILED));
        assertThat(report.tcp()).hasSize(TCP_CONNECTIONS);
        List<FailoverReport.TcpResult> survivingTcp = report.tcp().stream().filter(t -> t.before().equals(Set.of(SURVIVOR))).toList();
        assertThat(survivingTcp).as("TCP connections through the surviving gateway, whose survival is checked").isNotEmpty();
        assertThat(survivingTcp).allSatisfy(t -> assertThat(t.outcome().fate()).isEqualTo("survived"));
        assertThat(report.prediction().differences()).isEmpty();
        assertThat(report.prediction().predictedToMove())
                .isEqualTo(new java.util.TreeSet<>(failed.stream().map(FailoverReport.StreamResult::id).toList()));
        assertThat(report.prediction().gatewaysAfter()).doesNotContain(FAILED).contains(SURVIVOR);
        assertThat(lab.stateFile().read(lab.layout().names().hash()).orElseThrow().failures()).isEmpty();
    }
}
