package io.periscope.agent.reconcile;

import io.periscope.agent.command.Command;
import io.periscope.agent.command.CommandRunner;
import io.periscope.agent.iproute.IprouteJsonParser;
import io.periscope.agent.ipset.IpsetSaveParser;
import io.periscope.agent.iptables.IptablesSaveParser;
import io.periscope.agent.iptables.SavedTable;
import io.periscope.agent.sysctl.SysctlCommands;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Table;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Reads a node's dataplane through {@link CommandRunner}: {@code iptables-save}, {@code ipset save},
 * {@code ip -j} (rules, routes of all tables, nexthops, VXLAN devices with their addresses,
 * permanent neighbours), {@code bridge -j fdb show} and {@code sysctl}. Read-only: it never changes
 * anything.
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

    private final CommandRunner runner;

    public DataplaneReader(CommandRunner runner) {
        this.runner = runner;
    }

    /** The part of the node's state that {@code scope} says is Periscope's. */
    public KernelState read(Scope scope) {
        KernelState all = readAll(scope.sysctlKeys());
        return new KernelState(scope.restrict(all.plan(), all.netfilter()), all.netfilter());
    }

    /**
     * Everything the model can express of the node's state, Periscope's or not (to trace what is
     * really programmed); every chain with its parsed rules, no sysctls.
     */
    public KernelState readAll() {
        return readAll(List.of());
    }

    private KernelState readAll(Collection<String> sysctlKeys) {
        Map<Table, SavedTable> saved = IptablesSaveParser.parse(run(IPTABLES_SAVE));
        IprouteJsonParser.Nexthops nexthops = IprouteJsonParser.nexthops(run(IP_NEXTHOPS));
        Map<String, String> sysctls = sysctlKeys.isEmpty() ? Map.of() : SysctlCommands.parse(run(SysctlCommands.read(sysctlKeys)));
        DataplanePlan plan = new DataplanePlan(
                netfilter(saved),
                IpsetSaveParser.parse(run(IPSET_SAVE)),
                IprouteJsonParser.vxlanDevices(run(IP_VXLAN_LINKS)),
                IprouteJsonParser.fdb(run(BRIDGE_FDB)),
                IprouteJsonParser.neighbours(run(IP_NEIGHBOURS)),
                nexthops.objects(),
                nexthops.groups(),
                IprouteJsonParser.routes(run(IP_ROUTES)),
                IprouteJsonParser.rules(run(IP_RULES)),
                sysctls);
        return new KernelState(plan, saved);
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
}
