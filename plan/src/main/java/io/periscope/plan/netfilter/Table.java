package io.periscope.plan.netfilter;

import java.util.List;
import java.util.Locale;

/** The iptables tables Periscope programs, with the built-in chains each one has. */
public enum Table {
    RAW(List.of("PREROUTING", "OUTPUT")),
    MANGLE(List.of("PREROUTING", "INPUT", "FORWARD", "OUTPUT", "POSTROUTING")),
    NAT(List.of("PREROUTING", "INPUT", "OUTPUT", "POSTROUTING")),
    FILTER(List.of("INPUT", "FORWARD", "OUTPUT"));

    private final List<String> builtinChains;

    Table(List<String> builtinChains) {
        this.builtinChains = builtinChains;
    }

    public List<String> builtinChains() {
        return builtinChains;
    }

    public boolean isBuiltin(String chain) {
        return builtinChains.contains(chain);
    }

    /** The name iptables uses: {@code nat}, {@code filter}, ... */
    public String iptablesName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Table fromIptablesName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
