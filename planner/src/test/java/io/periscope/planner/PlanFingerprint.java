package io.periscope.planner;

import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;

import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A plan written out completely as text and hashed, for the check that a change to the planner
 * leaves its output as it was: every component of every record, lists in their order, sets and
 * unsorted maps in a sorted order (an immutable set of enums iterates in an order drawn anew by
 * each JVM, which is no difference in the plan). One SHA-256 per host, and one for each of the
 * other parts of the cluster-set plan.
 */
final class PlanFingerprint {

    private PlanFingerprint() {
    }

    /** "host id" or "part name" to the SHA-256 of its text, hosts first in their order. */
    static Map<String, String> of(ClusterSetPlan plan) {
        Map<String, String> digests = new LinkedHashMap<>();
        for (Map.Entry<HostId, HostPlan> host : plan.hosts().entrySet()) {
            digests.put("host " + host.getKey(), sha256(text(host.getValue())));
        }
        digests.put("part endpoints", sha256(text(plan.endpoints())));
        digests.put("part segments", sha256(text(plan.segments())));
        digests.put("part serviceRecords", sha256(text(plan.serviceRecords())));
        digests.put("part allocations", sha256(text(plan.allocations())));
        digests.put("part ovn", sha256(text(plan.ovn())));
        return digests;
    }

    static String text(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Record record) {
            out.append(record.getClass().getName()).append('(');
            RecordComponent[] components = record.getClass().getRecordComponents();
            for (int i = 0; i < components.length; i++) {
                if (i > 0) {
                    out.append(", ");
                }
                out.append(components[i].getName()).append('=');
                try {
                    components[i].getAccessor().setAccessible(true);
                    write(components[i].getAccessor().invoke(record), out);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
            out.append(')');
        } else if (value instanceof List<?> list) {
            writeAll("[", list, out);
        } else if (value instanceof SortedMap<?, ?> map) {
            writeEntries(map, out);
        } else if (value instanceof Map<?, ?> map) {
            TreeMap<String, Object> sorted = new TreeMap<>();
            map.forEach((k, v) -> sorted.put(text(k), v));
            writeEntries(sorted, out);
        } else if (value instanceof Collection<?> set) {
            List<String> sorted = new ArrayList<>();
            set.forEach(e -> sorted.add(text(e)));
            sorted.sort(null);
            out.append('{').append(String.join(", ", sorted)).append('}');
        } else if (value instanceof Optional<?> optional) {
            out.append("Optional[");
            write(optional.orElse(null), out);
            out.append(']');
        } else {
            out.append(value.getClass().getSimpleName()).append(':').append(value);
        }
    }

    private static void writeAll(String open, Collection<?> values, StringBuilder out) {
        out.append(open);
        boolean first = true;
        for (Object v : values) {
            if (!first) {
                out.append(", ");
            }
            first = false;
            write(v, out);
        }
        out.append(']');
    }

    private static void writeEntries(Map<?, ?> map, StringBuilder out) {
        out.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!first) {
                out.append(", ");
            }
            first = false;
            write(e.getKey(), out);
            out.append('=');
            write(e.getValue(), out);
        }
        out.append('}');
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
