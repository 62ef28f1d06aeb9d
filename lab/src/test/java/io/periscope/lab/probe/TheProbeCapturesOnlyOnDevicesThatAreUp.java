package io.periscope.lab.probe;

import io.periscope.dataplane.command.RecordingCommandRunner;
import io.periscope.lab.Examples;
import io.periscope.lab.capture.CaptureTarget;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabLayout;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On an OVN node ovs-vswitchd's userspace datapath makes devices that stay down ({@code ovs-netdev},
 * {@code br-int}): nothing crosses them in the kernel and a capture on them fails ("That device is
 * not up"), so the probe leaves them out and captures on the rest.
 */
class TheProbeCapturesOnlyOnDevicesThatAreUp {

    @Test
    void ovsDatapathDevicesThatAreDownAreNoCaptureTargets() {
        HostNamespace gateway = LabLayout.of(Examples.plan(Examples.GLOBALNET_OVN)).requireHost(HostId.node("east", "east-gw"));
        RecordingCommandRunner runner = new RecordingCommandRunner().answer(List.of("ip", "-n", gateway.namespace(), "-j", "link", "show"), """
                [{"ifname":"lo","flags":["LOOPBACK","UP","LOWER_UP"],"address":"00:00:00:00:00:00"},
                 {"ifname":"eth0","flags":["BROADCAST","MULTICAST","PROMISC","UP","LOWER_UP"],"address":"02:01:c0:a8:0a:02"},
                 {"ifname":"ovs-netdev","flags":["BROADCAST","MULTICAST","PROMISC"],"address":"de:55:e9:d0:a1:3d"},
                 {"ifname":"breth0","flags":["BROADCAST","MULTICAST","PROMISC","UP","LOWER_UP"],"address":"02:01:c0:a8:0a:02"},
                 {"ifname":"br-int","flags":["BROADCAST","MULTICAST","PROMISC"],"address":"36:05:3f:61:14:44"},
                 {"ifname":"ovn-k8s-mp0","flags":["BROADCAST","MULTICAST","PROMISC","UP","LOWER_UP"],"address":"02:04:0a:f4:00:01"}]
                """);

        List<CaptureTarget> targets = new LabInterfaces(runner).of(gateway);

        assertThat(targets).extracting(CaptureTarget::iface).containsExactly("eth0", "breth0", "ovn-k8s-mp0");
    }
}
