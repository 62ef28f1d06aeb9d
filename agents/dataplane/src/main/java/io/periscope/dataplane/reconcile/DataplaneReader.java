package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.iproute.IprouteJsonParser;
import io.periscope.dataplane.ipset.IpsetSaveParser;
import io.periscope.dataplane.iptables.IptablesSaveParser;
import io.periscope.dataplane.iptables.SavedTable;
import io.periscope.dataplane.sysctl.SysctlCommands;
import io.periscope.dataplane.watch.KernelWatch;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.Neighbour;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Reads a node's dataplane through {@link CommandRunner}: {@code iptables-save}, {@code ipset save},
 * {@code ip -j} (rules, routes of all tables, nexthops, VXLAN devices with their addresses,
 * permanent neighbours), {@code bridge -j fdb show} and {@code sysctl}. Read-only: it never changes
 * anything.
 *
 * <p>With a {@link KernelWatch} it reads again only what may have changed since its last read:
 * the iptables tables when the nf_tables generation moved (a full {@code iptables-save} of a
 * 10,000-rule table costs some 50 ms, most of an incremental reconcile), the routing parts when the
 * kernel announced a change of them. What the reconciler itself committed since is folded in by
 * {@link #committed}, which is trusted only if the generation moved by exactly the reconciler's own
 * transactions. ipsets and sysctls have no change notification and are read every time.
 */
public final class DataplaneReader {

    public static final Command IPTABLES_SAVE = Command.of("iptables-save");
    public static final Command IPSET_SAVE = Command.of("ipset", "save");
    public static final Command IP_RULES = Command.of("ip", "-j", "-4", "rule", "show");
    public static final Command IP_ROUTES = Command.of("ip", "-j", "-4", "route", "show", "table", "all");
    public static final Command IP_NEXTHOPS = Command.of("ip", "-j", "nexthop", "show");
    public static final Command IP_VXLAN_LINKS = Command.of("ip", "-j", "-d", "addr", "show", "type", "vxlan");
    public static final Command IP_NEIGHBOURS = Command.of("ip", "-j", "-4", "neigh", "show", "nud", "permanent");
    public static final Command BRIDGE_FDB = Command.of("bridge", "-j", "fdb", "show");

    /** Every command the reader runs, except the sysctl read whose keys depend on the plan. */
    public static final List<Command> READS = List.of(IPTABLES_SAVE, IPSET_SAVE, IP_RULES, IP_ROUTES, IP_NEXTHOPS,
            IP_VXLAN_LINKS, IP_NEIGHBOURS, BRIDGE_FDB);

    /** {@code iptables-save} of the nf_tables backend says so in its header; the legacy one does not bump the generation. */
    private static final String NF_TABLES_BACKEND = "(nf_tables)";

    private final CommandRunner runner;
    private final KernelWatch watch;

    /** {@code iptables -V} of the nf_tables backend ends so; asked only when {@code iptables-save} printed nothing. */
    public static final Command IPTABLES_VERSION = Command.of("iptables", "-V");

    private final NetfilterPicture picture;
    /** The generation at which the tables of the last {@link #read} were current, when proven. */
    private OptionalLong generation = OptionalLong.empty();
    private Routing knownRouting;
    private Boolean nfTablesBackend;

    public DataplaneReader(CommandRunner runner) {
        this(runner, KernelWatch.NONE);
    }

    public DataplaneReader(CommandRunner runner, KernelWatch watch) {
        this(runner, watch, new NetfilterPicture());
    }

    /** A reader that shares {@code picture} with the other readers of the same namespace in this process. */
    public DataplaneReader(CommandRunner runner, KernelWatch watch, NetfilterPicture picture) {
        this.runner = runner;
        this.watch = watch;
        this.picture = picture;
    }

    /** The part of the node's state that {@code scope} says is Periscope's. */
    public KernelState read(Scope scope) {
        return read(scope, false);
    }

    /**
     * The same, with the tables as {@code iptables-save} printed them at the current generation when
     * {@code kernelTables}: a picture only rendered from committed transactions does not do (a
     * convergence check that must see the kernel); one read by another reader sharing the picture does.
     */
    public KernelState read(Scope scope, boolean kernelTables) {
        KernelState all = readKnowing(scope.sysctlKeys(), kernelTables);
        return new KernelState(scope.restrict(all.plan(), all.netfilter()), all.netfilter());
    }

    /**
     * Everything the model can express of the node's state, Periscope's or not (to trace what is
     * really programmed); every chain with its parsed rules, no sysctls. Always read in full.
     */
    public KernelState readAll() {
        Map<Table, SavedTable> saved = IptablesSaveParser.parse(run(IPTABLES_SAVE));
        return state(saved, readRouting(), Map.of());
    }

    /**
     * Folds in what the caller committed since the last {@link #read}: {@code netfilter} is the
     * tables its {@code transactions} iptables-restore transactions left (as they rendered them).
     * Believed only when the generation moved by exactly that many, so nobody else committed in between.
     */
    public void committed(Map<Table, SavedTable> netfilter, int transactions) {
        if (transactions == 0 || generation.isEmpty()) {
            return;
        }
        if (!picture.committed(netfilter, generation.getAsLong(), transactions, watch.netfilterGeneration())) {
            forget();
        }
    }

    /**
     * The nf_tables generation at which the tables of the last read were current, when the watch
     * proved it (nf_tables backend, generation readable); empty otherwise.
     */
    public OptionalLong provenGeneration() {
        return generation;
    }

    /** Reads everything again next time (after a failure, when the picture may be wrong). */
    public void forget() {
        picture.forget();
        generation = OptionalLong.empty();
        knownRouting = null;
    }

    private KernelState readKnowing(Collection<String> sysctlKeys, boolean kernelTables) {
        boolean routingChanged = watch.routingChanged();    // asked every time, so a period starts with every read
        if (knownRouting == null || routingChanged) {
            knownRouting = readRouting();
        }
        OptionalLong now = watch.netfilterGeneration();
        Map<Table, SavedTable> tables = picture.at(now, kernelTables).orElse(null);
        if (tables == null) {
            String text = run(IPTABLES_SAVE);
            tables = IptablesSaveParser.parse(text);
            // The generation read before the save: if someone commits during it, the next read sees a
            // newer generation and reads again, which is the safe side.
            if (now.isPresent() && nfTables(text)) {
                picture.read(tables, now.getAsLong());
                generation = now;
            } else {
                picture.forget();
                generation = OptionalLong.empty();
            }
        } else {
            generation = now;
        }
        Map<String, String> sysctls = sysctlKeys.isEmpty() ? Map.of() : SysctlCommands.parse(run(SysctlCommands.read(sysctlKeys)));
        return state(tables, knownRouting, sysctls);
    }

    /**
     * Whether the tables just saved are nf_tables ones, whose commits the generation counts. The save
     * says so in its header; a namespace without any table (a node just made) prints nothing at all,
     * and then the backend's version line tells, asked once.
     */
    private boolean nfTables(String saved) {
        if (!saved.isBlank()) {
            return saved.contains(NF_TABLES_BACKEND);
        }
        if (nfTablesBackend == null) {
            nfTablesBackend = run(IPTABLES_VERSION).contains(NF_TABLES_BACKEND);
        }
        return nfTablesBackend;
    }

    private KernelState state(Map<Table, SavedTable> saved, Routing routing, Map<String, String> sysctls) {
        DataplanePlan plan = new DataplanePlan(
                netfilter(saved),
                IpsetSaveParser.parse(run(IPSET_SAVE)),
                routing.vxlanDevices(),
                routing.fdb(),
                routing.neighbours(),
                routing.nexthops(),
                routing.nexthopGroups(),
                routing.routes(),
                routing.rules(),
                sysctls);
        return new KernelState(plan, saved);
    }

    private Routing readRouting() {
        IprouteJsonParser.Nexthops nexthops = IprouteJsonParser.nexthops(run(IP_NEXTHOPS));
        return new Routing(
                IprouteJsonParser.vxlanDevices(run(IP_VXLAN_LINKS)),
                IprouteJsonParser.fdb(run(BRIDGE_FDB)),
                IprouteJsonParser.neighbours(run(IP_NEIGHBOURS)),
                nexthops.objects(),
                nexthops.groups(),
                IprouteJsonParser.routes(run(IP_ROUTES)),
                IprouteJsonParser.rules(run(IP_RULES)));
    }

    private static List<NetfilterTable> netfilter(Map<Table, SavedTable> saved) {
        List<NetfilterTable> tables = new ArrayList<>();
        saved.forEach((table, savedTable) -> tables.add(new NetfilterTable(table,
                savedTable.chains().stream().map(c -> new Chain(c.name(), c.parsedRules())).toList())));
        return tables;
    }

    private String run(Command command) {
        return runner.run(command).stdout();
    }

    /** What {@code ip} and {@code bridge} read, kept together because one watch covers them all. */
    private record Routing(List<VxlanDevice> vxlanDevices, List<FdbEntry> fdb, List<Neighbour> neighbours,
                           List<NexthopObject> nexthops, List<NexthopGroup> nexthopGroups, List<Route> routes,
                           List<PolicyRule> rules) {
    }
}
