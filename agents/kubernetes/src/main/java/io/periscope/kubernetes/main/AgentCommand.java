package io.periscope.kubernetes.main;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.dataplane.health.HealthSettings;
import io.periscope.dataplane.health.IcmpEchoProber;
import io.periscope.dataplane.ovn.NbctlNorthbound;
import io.periscope.dataplane.watch.KernelWatch;
import io.periscope.dataplane.watch.NetlinkKernelWatch;
import io.periscope.kubernetes.broker.BrokerSync;
import io.periscope.kubernetes.broker.BrokerSyncSettings;
import io.periscope.kubernetes.dns.DnsAgent;
import io.periscope.kubernetes.dns.DnsAgentSettings;
import io.periscope.kubernetes.gateway.GatewayAgent;
import io.periscope.kubernetes.globalnet.GlobalnetController;
import io.periscope.kubernetes.globalnet.GlobalnetSettings;
import io.periscope.dataplane.election.LeaseTimings;
import io.periscope.kubernetes.networkpluginsyncer.NetworkPluginSyncer;
import io.periscope.kubernetes.networkpluginsyncer.NetworkPluginSyncerSettings;
import io.periscope.kubernetes.nodeplan.NodeAgentSettings;
import io.periscope.kubernetes.routeagent.RouteAgent;
import io.periscope.kubernetes.serviceexport.ServiceExportSync;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * The container's entry point: one subcommand per component of {@code deploy/}. Each reads what
 * the manifests give it (flags, and the downward API through environment variables), runs until the
 * pod is stopped, and on SIGTERM stops cleanly (a leader releases its lease, so a standby takes over
 * at once).
 */
@Command(name = "periscope-agent", mixinStandardHelpOptions = true,
        description = "Periscope's Kubernetes components: the Globalnet controller, the gateway and route agents, the broker sync, "
                + "the network plugin syncer (OVN-Kubernetes), the DNS server for clusterset.local.",
        subcommands = {AgentCommand.Globalnet.class, AgentCommand.Gateway.class, AgentCommand.RouteAgentCommand.class, AgentCommand.Broker.class,
                AgentCommand.NetworkPluginSyncerCommand.class, AgentCommand.Dns.class})
public final class AgentCommand {

    public static void main(String[] args) {
        System.exit(new CommandLine(new AgentCommand()).execute(args));
    }

    /** Options every component shares. */
    static class Common {
        @Option(names = "--cluster-id", defaultValue = "${env:CLUSTER_ID}", description = "this cluster's id (env CLUSTER_ID)")
        String clusterId;

        @Option(names = "--namespace", defaultValue = "${env:POD_NAMESPACE:-submariner-operator}",
                description = "where the Cluster, Endpoint and Gateway objects and the leases live (env POD_NAMESPACE)")
        String namespace;

        @Option(names = "--resync", defaultValue = "PT30S", description = "how often a pass runs when nothing changed (ISO-8601 duration)")
        Duration resync;

        @Option(names = "--health-interval", defaultValue = "PT0.04S",
                description = "how often a node probes each gateway it load-balances to (ISO-8601 duration; default 40 ms)")
        Duration healthInterval;

        @Option(names = "--health-loss-threshold", defaultValue = "3",
                description = "probes in a row left unanswered before a gateway is declared down (default 3)")
        int healthLossThreshold;

        @Option(names = "--health-hold-down", defaultValue = "PT2S",
                description = "how long a gateway declared down must answer every probe before it is used again (default 2 s)")
        Duration healthHoldDown;

        @Option(names = "--lease-duration", defaultValue = "PT15S",
                description = "how long a Lease lasts without renewal (ISO-8601 duration; default upstream's 15 s)")
        Duration leaseDuration;

        @Option(names = "--renew-deadline", defaultValue = "PT10S",
                description = "how long a leader keeps trying to renew before it steps down (ISO-8601 duration; default upstream's 10 s)")
        Duration renewDeadline;

        @Option(names = "--retry-period", defaultValue = "PT2S",
                description = "how often candidates try for the Lease (ISO-8601 duration; default upstream's 2 s)")
        Duration retryPeriod;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        /** Upstream's timings unless the flags say otherwise (a lab on one machine elects faster). */
        LeaseTimings timings() {
            try {
                return new LeaseTimings(leaseDuration, renewDeadline, retryPeriod);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }

        /** The settings both node agents share: this cluster, this namespace, this node. */
        NodeAgentSettings nodeAgent(String node, boolean multiActive) {
            return new NodeAgentSettings(require(clusterId, "--cluster-id", "CLUSTER_ID"), namespace,
                    require(node, "--node-name", "NODE_NAME"), multiActive, timings(), resync, health());
        }

        HealthSettings health() {
            try {
                return new HealthSettings(healthInterval, healthLossThreshold, healthHoldDown);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }

        /** Environment defaults cannot be "required" in picocli, so absence is checked here, with the fix in the message. */
        String require(String value, String option, String env) {
            if (value == null || value.isBlank()) {
                throw new CommandLine.ParameterException(spec.commandLine(), "missing " + option + " (or environment variable " + env + ")");
            }
            return value;
        }
    }

    /** Blocks until the JVM is asked to stop, then closes the component. */
    static int runUntilStopped(AutoCloseable component) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
            try {
                component.close();
            } catch (Exception e) {
                System.err.println("periscope-agent: error while stopping: " + e);
            }
            stopped.countDown();
        }));
        stopped.await();
        return 0;
    }

    @Command(name = "globalnet", description = "The Globalnet controller (a Deployment of one replica, leader-elected).")
    static final class Globalnet implements java.util.concurrent.Callable<Integer> {
        @CommandLine.Mixin
        Common common = new Common();

        @Option(names = "--identity", defaultValue = "${env:POD_NAME}", description = "this replica's name in the lease (env POD_NAME)")
        String identity;

        @Override
        public Integer call() throws InterruptedException {
            KubernetesClient client = new KubernetesClientBuilder().build();
            return runUntilStopped(new GlobalnetController(client, new GlobalnetSettings(common.require(common.clusterId, "--cluster-id", "CLUSTER_ID"), common.namespace,
                    common.require(identity, "--identity", "POD_NAME"),
                    common.timings(), common.resync), Clock.systemUTC()).start());
        }
    }

    @Command(name = "gateway", description = "The gateway agent (a DaemonSet on nodes labelled submariner.io/gateway=true).")
    static final class Gateway implements java.util.concurrent.Callable<Integer> {
        @CommandLine.Mixin
        Common common = new Common();

        @Option(names = "--node-name", defaultValue = "${env:NODE_NAME}", description = "the node this pod runs on (env NODE_NAME)")
        String node;

        @Option(names = "--multi-active-gateway", description = "every gateway node is active: one lease per node instead of one per cluster")
        boolean multiActive;

        @Override
        public Integer call() throws InterruptedException {
            NodeAgentSettings settings = common.nodeAgent(node, multiActive);
            KubernetesClient client = new KubernetesClientBuilder().build();
            return runUntilStopped(new GatewayAgent(client, settings, ProcessCommandRunner.here(), hostWatch(),
                    IcmpEchoProber::open).start());
        }
    }

    @Command(name = "route-agent", description = "The route agent (a DaemonSet on every node).")
    static final class RouteAgentCommand implements java.util.concurrent.Callable<Integer> {
        @CommandLine.Mixin
        Common common = new Common();

        @Option(names = "--node-name", defaultValue = "${env:NODE_NAME}", description = "the node this pod runs on (env NODE_NAME)")
        String node;

        @Override
        public Integer call() throws InterruptedException {
            NodeAgentSettings settings = common.nodeAgent(node, false);
            KubernetesClient client = new KubernetesClientBuilder().build();
            return runUntilStopped(new RouteAgent(client, settings, ProcessCommandRunner.here(), hostWatch(),
                    IcmpEchoProber::open).start());
        }
    }

    @Command(name = "broker-sync", description = "Carries Clusters, Endpoints and policies between the broker and this cluster, "
            + "and exported services (ServiceImports and EndpointSlices in Lighthouse's format).")
    static final class Broker implements java.util.concurrent.Callable<Integer> {
        @CommandLine.Mixin
        Common common = new Common();

        @Option(names = "--broker-kubeconfig", required = true, description = "a kubeconfig for the broker's API (mounted from a Secret)")
        Path brokerKubeconfig;

        @Option(names = "--broker-namespace", defaultValue = "submariner-k8s-broker", description = "the broker's namespace")
        String brokerNamespace;

        @Option(names = "--service-exports", negatable = true, defaultValue = "true", fallbackValue = "true",
                description = "also carry exported services, as Lighthouse's agent does; --no-service-exports where Lighthouse's agent runs (default true)")
        boolean serviceExports;

        @Override
        public Integer call() throws Exception {
            KubernetesClient local = new KubernetesClientBuilder().build();
            KubernetesClient broker = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(brokerKubeconfig))).build();
            BrokerSyncSettings settings = new BrokerSyncSettings(common.require(common.clusterId, "--cluster-id", "CLUSTER_ID"), common.namespace,
                    brokerNamespace, common.resync);
            BrokerSync sync = new BrokerSync(local, broker, settings).start();
            if (!serviceExports) {
                return runUntilStopped(sync);
            }
            ServiceExportSync exports = new ServiceExportSync(local, broker, settings).start();
            return runUntilStopped(() -> {
                exports.close();
                sync.close();
            });
        }
    }

    @Command(name = "network-plugin-syncer",
            description = "Programs Submariner's part of an OVN-Kubernetes cluster's OVN northbound database (a Deployment of one replica, leader-elected).")
    static final class NetworkPluginSyncerCommand implements java.util.concurrent.Callable<Integer> {
        /** Where OVN-Kubernetes' ovnkube-db serves the northbound database in its own pods. */
        static final String DEFAULT_NB_DB = "unix:/var/run/ovn/ovnnb_db.sock";

        @CommandLine.Mixin
        Common common = new Common();

        @Option(names = "--identity", defaultValue = "${env:POD_NAME}", description = "this replica's name in the lease (env POD_NAME)")
        String identity;

        @Option(names = "--ovn-nb-db", defaultValue = DEFAULT_NB_DB,
                description = "the OVN northbound database, as ovn-nbctl --db takes it: unix:PATH, tcp:IP:6641 or ssl:IP:6641 (default ${DEFAULT-VALUE})")
        String northboundDatabase;

        @Option(names = "--retry", defaultValue = "PT5S",
                description = "how soon to try again when OVN-Kubernetes has not built its rows yet or the database cannot be reached (ISO-8601 duration)")
        Duration retry;

        @Override
        public Integer call() throws InterruptedException {
            KubernetesClient client = new KubernetesClientBuilder().build();
            NetworkPluginSyncerSettings settings = new NetworkPluginSyncerSettings(common.require(common.clusterId, "--cluster-id", "CLUSTER_ID"),
                    common.namespace, common.require(identity, "--identity", "POD_NAME"), common.timings(), common.resync, retry);
            return runUntilStopped(new NetworkPluginSyncer(client, settings, new NbctlNorthbound(ProcessCommandRunner.here(), northboundDatabase)).start());
        }
    }

    @Command(name = "dns", description = "The DNS server for clusterset.local that CoreDNS forwards the zone to (a Deployment; replicas serve alike).")
    static final class Dns implements java.util.concurrent.Callable<Integer> {
        @CommandLine.Mixin
        Common common = new Common();

        @Option(names = "--address", defaultValue = "0.0.0.0", description = "the address to serve on, UDP and TCP (default ${DEFAULT-VALUE})")
        String address;

        @Option(names = "--port", defaultValue = "53", description = "the port to serve on, UDP and TCP (default ${DEFAULT-VALUE})")
        int port;

        @Option(names = "--threads", defaultValue = "2", description = "the server's event loop threads (default ${DEFAULT-VALUE})")
        int threads;

        @Override
        public Integer call() throws InterruptedException {
            if (port < 0 || port > 65535) {
                throw new CommandLine.ParameterException(common.spec.commandLine(), "--port " + port + " is not a port (0 to 65535)");
            }
            if (threads < 1) {
                throw new CommandLine.ParameterException(common.spec.commandLine(), "--threads " + threads + " must be at least 1");
            }
            KubernetesClient client = new KubernetesClientBuilder().build();
            DnsAgentSettings settings = new DnsAgentSettings(common.require(common.clusterId, "--cluster-id", "CLUSTER_ID"), common.namespace,
                    new InetSocketAddress(address, port), threads, common.resync);
            return runUntilStopped(new DnsAgent(client, settings).start());
        }
    }

    /**
     * The node agents run in the node's network namespace (hostNetwork), so the watch is opened
     * here; without one (no netlink permission) they read the whole node on every pass.
     */
    static KernelWatch hostWatch() {
        try {
            return NetlinkKernelWatch.open();
        } catch (IllegalStateException e) {
            System.err.println("periscope agent: " + e.getMessage() + "; every reconcile will read the whole node");
            return KernelWatch.NONE;
        }
    }
}
