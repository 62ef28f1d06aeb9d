package io.periscope.lab.wireguard;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.lab.state.WireGuardProcess;

import java.util.Optional;

/**
 * Reads a WireGuard device's counters ({@link WireGuardCounters}) in the lab. {@code wg} talks to
 * wireguard-go over the control socket in the private tmpfs of the daemon's own mount namespace
 * (see {@link WireGuardGateways}), so it runs there, entered by the daemon's pid. Only the public
 * listings are asked for: {@code wg show DEVICE dump} would print the private and preshared keys.
 */
public final class WireGuardCounterReader {

    private final CommandRunner runner;

    public WireGuardCounterReader(CommandRunner runner) {
        this.runner = runner;
    }

    /** The device's counters now; empty when they cannot be read (the daemon gone, its node failed). */
    public Optional<WireGuardCounters> read(WireGuardProcess daemon, String device) {
        String pid = String.valueOf(daemon.pid());
        CommandResult endpoints = runner.execute(Command.of("nsenter", "-t", pid, "-m", "-n", "wg", "show", device, "endpoints"));
        CommandResult allowedIps = runner.execute(Command.of("nsenter", "-t", pid, "-m", "-n", "wg", "show", device, "allowed-ips"));
        CommandResult transfer = runner.execute(Command.of("nsenter", "-t", pid, "-m", "-n", "wg", "show", device, "transfer"));
        CommandResult link = runner.execute(Command.of("ip", "-n", daemon.namespace(), "-s", "-j", "link", "show", "dev", device));
        if (!endpoints.succeeded() || !allowedIps.succeeded() || !transfer.succeeded() || !link.succeeded()) {
            return Optional.empty();
        }
        try {
            return Optional.of(WireGuardCounters.parse(endpoints.stdout(), allowedIps.stdout(), transfer.stdout(), link.stdout()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
