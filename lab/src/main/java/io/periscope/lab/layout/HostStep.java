package io.periscope.lab.layout;

import io.periscope.dataplane.iproute.IpBatchRenderer;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.Interface;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;

/**
 * One thing the lab does inside a fresh host namespace to give it the plan's interfaces and routing
 * ({@link LabBatches#hostSteps}), as data: the same steps become {@code ip -batch} input for a node,
 * or netlink requests from a thread inside the namespace for a pod, whose few steps would otherwise
 * cost a program's start each ({@code io.periscope.lab.rtnetlink.HostSetupOverNetlink}).
 */
public sealed interface HostStep {

    /** The step as one line of {@code ip -batch} input, in the words the lab has always used. */
    String ipBatchLine();

    /** A port-less Linux bridge standing in for an interface the plan plugs into nothing ({@code cni0}). */
    record BridgeAdd(String name, MacAddress mac) implements HostStep {
        @Override
        public String ipBatchLine() {
            return "link add " + name + " address " + mac + " type bridge";
        }
    }

    /** An address as a /32: the lab's routes, not a prefix length, say what is on link. */
    record AddressAdd(Ipv4Address address, String device) implements HostStep {
        @Override
        public String ipBatchLine() {
            return "addr add " + address + "/32 dev " + device;
        }
    }

    /** An interface brought up, with its MTU where the plan gives one other than the default. */
    record LinkUp(String device, int mtu) implements HostStep {

        public static LinkUp loopback() {
            return new LinkUp("lo", Interface.DEFAULT_MTU);
        }

        public boolean setsMtu() {
            return mtu != Interface.DEFAULT_MTU;
        }

        @Override
        public String ipBatchLine() {
            return "link set " + device + (setsMtu() ? " mtu " + mtu : "") + " up";
        }
    }

    /** A route appended, so that where the plan lists two routes to one destination the kernel, like the plan, uses the first. */
    record RouteAppend(Route route) implements HostStep {
        @Override
        public String ipBatchLine() {
            return "route append " + IpBatchRenderer.route(route);
        }
    }

    record NexthopAdd(NexthopObject nexthop) implements HostStep {
        @Override
        public String ipBatchLine() {
            return "nexthop add " + IpBatchRenderer.nexthop(nexthop);
        }
    }

    record GroupAdd(NexthopGroup group) implements HostStep {
        @Override
        public String ipBatchLine() {
            return "nexthop add " + IpBatchRenderer.group(group);
        }
    }

    record RuleAdd(PolicyRule rule) implements HostStep {
        @Override
        public String ipBatchLine() {
            return "rule add " + IpBatchRenderer.policyRule(rule);
        }
    }
}
