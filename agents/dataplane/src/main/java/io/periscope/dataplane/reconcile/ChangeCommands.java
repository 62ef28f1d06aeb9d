package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.change.DataplaneChange;
import io.periscope.dataplane.change.DataplaneChange.Tool;
import io.periscope.dataplane.change.BuiltinChainChange;
import io.periscope.dataplane.change.ChainChange;
import io.periscope.dataplane.change.VxlanDeviceChange;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.diff.DataplaneDiff;
import io.periscope.dataplane.iproute.BridgeBatchRenderer;
import io.periscope.dataplane.iproute.IpBatchRenderer;
import io.periscope.dataplane.ipset.IpsetRestoreRenderer;
import io.periscope.dataplane.iptables.IptablesRestoreRenderer;
import io.periscope.dataplane.iptables.SavedTable;
import io.periscope.dataplane.sysctl.SysctlCommands;
import io.periscope.plan.netfilter.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The programs that carry out a diff, in the diff's order: each run of consecutive changes for the
 * same tool becomes one batch ({@code ipset restore}, one {@code iptables-restore --noflush}
 * transaction per table, {@code ip -batch -}, {@code bridge -batch -}, {@code sysctl -w}); a run
 * that renders to nothing (a released sysctl, FDB entries of a device being deleted) runs nothing.
 */
public final class ChangeCommands {

    private ChangeCommands() {
    }

    /**
     * @param netfilter the iptables tables the diff was computed from (where rules sit now)
     */
    public static List<Command> of(DataplaneDiff diff, Map<Table, SavedTable> netfilter) {
        Set<String> deletedDevices = diff.changes(VxlanDeviceChange.class).stream()
                .filter(VxlanDeviceChange::isRemoval).map(VxlanDeviceChange::name).collect(Collectors.toSet());
        List<Command> commands = new ArrayList<>();
        List<DataplaneChange> run = new ArrayList<>();
        Object runKey = null;
        for (DataplaneChange change : diff.changes()) {
            Object key = key(change);
            if (!run.isEmpty() && !Objects.equals(key, runKey)) {
                command(run, netfilter, deletedDevices).ifPresent(commands::add);
                run.clear();
            }
            runKey = key;
            run.add(change);
        }
        if (!run.isEmpty()) {
            command(run, netfilter, deletedDevices).ifPresent(commands::add);
        }
        return commands;
    }

    /** Changes with the same key share a batch: the tool, and for iptables the table. */
    private static Object key(DataplaneChange change) {
        return switch (change) {
            case ChainChange c -> List.of(Tool.IPTABLES, c.table());
            case BuiltinChainChange c -> List.of(Tool.IPTABLES, c.table());
            default -> change.tool();
        };
    }

    private static Optional<Command> command(List<DataplaneChange> run, Map<Table, SavedTable> netfilter, Set<String> deletedDevices) {
        DataplaneChange first = run.getFirst();
        return switch (first.tool()) {
            case IPSET -> {
                String text = IpsetRestoreRenderer.renderUpdates(run).orElse("") + IpsetRestoreRenderer.renderDestructions(run).orElse("");
                yield text.isEmpty() ? Optional.empty() : Optional.of(Command.of("ipset", "restore").withStdin(text));
            }
            case IPTABLES -> {
                Table table = first instanceof ChainChange c ? c.table() : ((BuiltinChainChange) first).table();
                yield IptablesRestoreRenderer.render(table, run, netfilter.getOrDefault(table, SavedTable.empty(table)))
                        .map(text -> Command.of("iptables-restore", "--noflush").withStdin(text));
            }
            case IP -> batch("ip", IpBatchRenderer.render(run));
            case BRIDGE -> batch("bridge", BridgeBatchRenderer.render(run, deletedDevices));
            case SYSCTL -> SysctlCommands.write(run);
        };
    }

    private static Optional<Command> batch(String program, String text) {
        return text.isEmpty() ? Optional.empty() : Optional.of(Command.of(program, "-batch", "-").withStdin(text));
    }
}
