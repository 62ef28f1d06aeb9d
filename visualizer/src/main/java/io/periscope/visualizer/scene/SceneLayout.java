package io.periscope.visualizer.scene;

import org.eclipse.elk.alg.layered.options.LayeredMetaDataProvider;
import org.eclipse.elk.alg.layered.options.LayeredOptions;
import org.eclipse.elk.core.RecursiveGraphLayoutEngine;
import org.eclipse.elk.core.data.LayoutMetaDataService;
import org.eclipse.elk.core.math.ElkPadding;
import org.eclipse.elk.core.options.CoreOptions;
import org.eclipse.elk.core.options.Direction;
import org.eclipse.elk.core.options.EdgeRouting;
import org.eclipse.elk.core.util.BasicProgressMonitor;
import org.eclipse.elk.graph.ElkNode;
import org.eclipse.elk.graph.util.ElkGraphUtil;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Places clusters and their hosts with ELK layered. Inside a cluster the layers run top-down from pods
 * through their nodes to the gateways; between clusters they run left to right along the cables. The
 * graph is built in file order and ELK layered is deterministic, so the same file gives the same
 * picture.
 *
 * <p>ELK lays out each cluster's interior on its own (children first), so an edit inside one cluster
 * never rearranges another's hosts; but the clusters' places depend on their sizes, so a cluster that
 * grows (a pod, a node, an export) would push the others along. Given the previous revision's
 * placement ({@link #place(Input, Placement)}), every cluster keeps the place it had: the one edited
 * grows where it stands, a new one goes to the right of the picture, and only a cluster that the
 * growth would overlap slides right to make room.
 */
public final class SceneLayout {

    /** Above this many cables per cluster the set is laid out as a wrapped chain rather than along its cables. */
    private static final int DENSE_CABLES_PER_CLUSTER = 2;

    static {
        LayoutMetaDataService.getInstance().registerLayoutMetaDataProviders(new LayeredMetaDataProvider());
    }

    /** A box in page coordinates. */
    public record Box(double x, double y, double width, double height) {
    }

    /** What to place: per cluster its hosts (with sizes) and the edges that order them; cables between clusters. */
    public record Input(List<ClusterInput> clusters, List<List<String>> cables) {
    }

    public record ClusterInput(String name, double headerHeight, double minWidth, List<HostInput> hosts, List<List<String>> edges) {
    }

    public record HostInput(String id, double width, double height) {
    }

    /** A point of a cable's route. */
    public record Point(double x, double y) {
    }

    /**
     * Where everything went: a box per cluster and per host, the route of each cable between clusters
     * (keyed {@code left + " " + right}; ELK routes long ones around the clusters in between), and the
     * whole picture's size; and what it was made from, for the next revision: the input (the same
     * input again is placed where it was, with no layout at all) and each cluster's interior by its
     * input (reused for every cluster a save leaves as it was). Null and empty when not known.
     */
    public record Placement(Map<String, Box> clusters, Map<String, Box> hosts, Map<String, List<Point>> cables, double width,
                            double height, Input input, Map<ClusterInput, Interior> interiors) {

        public Placement(Map<String, Box> clusters, Map<String, Box> hosts, Map<String, List<Point>> cables, double width, double height) {
            this(clusters, hosts, cables, width, height, null, Map.of());
        }
    }

    /**
     * A cluster's interior laid out on its own: the box's size and each host's box relative to the
     * cluster's corner. The same {@link ClusterInput} always gives the same interior, so the next
     * revision reuses it for every cluster the save did not touch.
     */
    public record Interior(double width, double height, Map<String, Box> hosts) {
    }

    /** The room kept between clusters that had to make room for a grown one. */
    private static final double GAP = 60;
    /** Closer than this, two clusters overlap (less than any spacing ELK leaves, so a fresh layout never does). */
    private static final double TOUCHING = 20;
    private static final double PADDING = 20;

    private SceneLayout() {
    }

    /**
     * Places {@code input} where {@code previous} (the placement of the file's previous revision, or
     * null) had its clusters. Cable routes are ELK's when no cluster moved from where a fresh layout puts
     * it, and straight lines (none given) otherwise, since ELK routed them around other places.
     */
    public static Placement place(Input input, Placement previous) {
        if (previous != null && input.equals(previous.input())) {
            // Nothing the picture is made of changed (a flow renamed or added, say): the same places, no layout at all.
            return previous;
        }
        Placement fresh = place(input, previous == null ? Map.of() : previous.interiors());
        if (previous == null) {
            return fresh;
        }
        Map<String, Box> clusters = new LinkedHashMap<>();
        double right = PADDING - GAP;
        for (Box box : previous.clusters().values()) {
            right = Math.max(right, box.x() + box.width());
        }
        List<String> newcomers = new java.util.ArrayList<>();
        for (Map.Entry<String, Box> entry : fresh.clusters().entrySet()) {
            Box size = entry.getValue();
            Box before = previous.clusters().get(entry.getKey());
            if (before == null) {
                newcomers.add(entry.getKey());
            } else {
                clusters.put(entry.getKey(), new Box(before.x(), before.y(), size.width(), size.height()));
            }
        }
        for (String name : newcomers) {
            Box size = fresh.clusters().get(name);
            clusters.put(name, new Box(right + GAP, PADDING, size.width(), size.height()));
            right += GAP + size.width();
        }
        makeRoom(clusters);
        boolean moved = false;
        Map<String, Box> hosts = new LinkedHashMap<>();
        Map<String, Box> ordered = new LinkedHashMap<>();
        for (Map.Entry<String, Box> entry : fresh.clusters().entrySet()) {
            Box was = entry.getValue();
            Box now = clusters.get(entry.getKey());
            ordered.put(entry.getKey(), now);
            double dx = now.x() - was.x();
            double dy = now.y() - was.y();
            moved |= dx != 0 || dy != 0;
            String prefix = entry.getKey() + "/";
            fresh.hosts().forEach((id, box) -> {
                if (id.startsWith(prefix)) {
                    hosts.put(id, new Box(box.x() + dx, box.y() + dy, box.width(), box.height()));
                }
            });
        }
        double width = 0;
        double height = 0;
        for (Box box : ordered.values()) {
            width = Math.max(width, box.x() + box.width() + PADDING);
            height = Math.max(height, box.y() + box.height() + PADDING);
        }
        return new Placement(ordered, hosts, moved ? Map.of() : fresh.cables(), width, height, input, fresh.interiors());
    }

    /**
     * Slides clusters right, from the left-most on, until none overlaps one left of it: a cluster that
     * grew pushes only those it now covers (and those they then cover), never the ones beside it.
     */
    private static void makeRoom(Map<String, Box> clusters) {
        List<String> byX = clusters.keySet().stream()
                .sorted(java.util.Comparator.comparingDouble((String n) -> clusters.get(n).x()).thenComparingDouble(n -> clusters.get(n).y()))
                .toList();
        for (int i = 0; i < byX.size(); i++) {
            Box box = clusters.get(byX.get(i));
            boolean shifted = true;
            while (shifted) {
                shifted = false;
                for (int j = 0; j < i; j++) {
                    Box left = clusters.get(byX.get(j));
                    if (overlaps(left, box)) {
                        box = new Box(left.x() + left.width() + GAP, box.y(), box.width(), box.height());
                        shifted = true;
                    }
                }
            }
            clusters.put(byX.get(i), box);
        }
    }

    private static boolean overlaps(Box a, Box b) {
        return a.x() < b.x() + b.width() + TOUCHING && b.x() < a.x() + a.width() + TOUCHING
                && a.y() < b.y() + b.height() + TOUCHING && b.y() < a.y() + a.height() + TOUCHING;
    }

    public static Placement place(Input input) {
        return place(input, Map.of());
    }

    /**
     * Lays each cluster's interior out on its own (pods above their nodes above the gateways), taking
     * from {@code known} the interiors of clusters whose input is unchanged, then the clusters as boxes
     * of those sizes along their cables. ELK's recursive layout does the same in one graph (each level
     * on its own, children first), so the picture is the one it gives; apart, an edit inside one
     * cluster costs the layout of that cluster and of the boxes, not of every host again.
     */
    private static Placement place(Input input, Map<ClusterInput, Interior> known) {
        // One layout at a time: ELK's shared registries and instance pools are not documented as safe
        // for concurrent layouts, and the only concurrent caller is the warm-up, which loads the same
        // classes the caller would otherwise wait for anyway.
        synchronized (ELK) {
            return placeOneAtATime(input, known);
        }
    }

    private static final Object ELK = new Object();

    private static Placement placeOneAtATime(Input input, Map<ClusterInput, Interior> known) {
        Map<ClusterInput, Interior> interiors = new LinkedHashMap<>();
        for (ClusterInput cluster : input.clusters()) {
            Interior interior = known.get(cluster);
            interiors.put(cluster, interior != null ? interior : interior(cluster));
        }
        ElkNode root = ElkGraphUtil.createGraph();
        root.setProperty(CoreOptions.ALGORITHM, LayeredOptions.ALGORITHM_ID);
        root.setProperty(CoreOptions.DIRECTION, Direction.RIGHT);
        root.setProperty(CoreOptions.EDGE_ROUTING, EdgeRouting.POLYLINE);
        root.setProperty(CoreOptions.SPACING_NODE_NODE, 60.0);
        root.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, 140.0);
        root.setProperty(CoreOptions.PADDING, new ElkPadding(20));
        root.setProperty(LayeredOptions.RANDOM_SEED, 1);
        Map<String, ElkNode> clusterNodes = new LinkedHashMap<>();
        for (ClusterInput cluster : input.clusters()) {
            Interior interior = interiors.get(cluster);
            ElkNode box = ElkGraphUtil.createNode(root);
            box.setIdentifier(cluster.name());
            box.setDimensions(interior.width(), interior.height());
            clusterNodes.put(cluster.name(), box);
        }
        Map<String, org.eclipse.elk.graph.ElkEdge> cableEdges = new LinkedHashMap<>();
        List<List<String>> cables = input.cables();
        if (cables.size() > DENSE_CABLES_PER_CLUSTER * input.clusters().size()) {
            // A (nearly) full mesh: every cable as an edge costs layered layout seconds and orders the
            // clusters no better. Chain them in file order instead and let ELK wrap the chain into rows;
            // the cables are then drawn straight between the boxes.
            root.setProperty(LayeredOptions.WRAPPING_STRATEGY, org.eclipse.elk.alg.layered.options.WrappingStrategy.MULTI_EDGE);
            root.setProperty(CoreOptions.ASPECT_RATIO, 1.6);
            List<List<String>> chain = new java.util.ArrayList<>();
            for (int i = 1; i < input.clusters().size(); i++) {
                chain.add(List.of(input.clusters().get(i - 1).name(), input.clusters().get(i).name()));
            }
            cables = chain;
        }
        boolean routed = cables == input.cables();
        for (List<String> cable : cables) {
            ElkNode from = clusterNodes.get(cable.get(0));
            ElkNode to = clusterNodes.get(cable.get(1));
            if (from != null && to != null) {
                cableEdges.put(cable.get(0) + " " + cable.get(1), ElkGraphUtil.createSimpleEdge(from, to));
            }
        }
        new RecursiveGraphLayoutEngine().layout(root, new BasicProgressMonitor());
        Map<String, Box> clusters = new LinkedHashMap<>();
        Map<String, Box> hosts = new LinkedHashMap<>();
        for (ClusterInput cluster : input.clusters()) {
            ElkNode box = clusterNodes.get(cluster.name());
            clusters.put(cluster.name(), new Box(box.getX(), box.getY(), box.getWidth(), box.getHeight()));
            interiors.get(cluster).hosts().forEach((id, host) ->
                    hosts.put(id, new Box(box.getX() + host.x(), box.getY() + host.y(), host.width(), host.height())));
        }
        Map<String, List<Point>> routes = new LinkedHashMap<>();
        cableEdges.forEach((key, edge) -> {
            if (!routed || edge.getSections().isEmpty()) {
                return;
            }
            var section = edge.getSections().getFirst();
            List<Point> points = new java.util.ArrayList<>();
            points.add(new Point(section.getStartX(), section.getStartY()));
            section.getBendPoints().forEach(b -> points.add(new Point(b.getX(), b.getY())));
            points.add(new Point(section.getEndX(), section.getEndY()));
            routes.put(key, List.copyOf(points));
        });
        return new Placement(clusters, hosts, routes, root.getWidth(), root.getHeight(), input, Map.copyOf(interiors));
    }

    /** One cluster's hosts laid out top-down inside its box (padding for its header), as ELK lays out a child graph. */
    private static Interior interior(ClusterInput cluster) {
        ElkNode box = ElkGraphUtil.createGraph();
        box.setIdentifier(cluster.name());
        box.setProperty(CoreOptions.ALGORITHM, LayeredOptions.ALGORITHM_ID);
        box.setProperty(CoreOptions.DIRECTION, Direction.DOWN);
        box.setProperty(CoreOptions.SPACING_NODE_NODE, 18.0);
        box.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, 34.0);
        box.setProperty(CoreOptions.PADDING, new ElkPadding(cluster.headerHeight() + 12, 14, 14, 14));
        box.setProperty(LayeredOptions.RANDOM_SEED, 1);
        box.setProperty(CoreOptions.NODE_SIZE_CONSTRAINTS, java.util.EnumSet.of(org.eclipse.elk.core.options.SizeConstraint.MINIMUM_SIZE));
        box.setProperty(CoreOptions.NODE_SIZE_MINIMUM, new org.eclipse.elk.core.math.KVector(cluster.minWidth(), cluster.headerHeight() + 40));
        Map<String, ElkNode> hostNodes = new LinkedHashMap<>();
        for (HostInput host : cluster.hosts()) {
            ElkNode node = ElkGraphUtil.createNode(box);
            node.setIdentifier(host.id());
            node.setDimensions(host.width(), host.height());
            hostNodes.put(host.id(), node);
        }
        for (List<String> edge : cluster.edges()) {
            ElkNode from = hostNodes.get(edge.get(0));
            ElkNode to = hostNodes.get(edge.get(1));
            if (from != null && to != null) {
                ElkGraphUtil.createSimpleEdge(from, to);
            }
        }
        new RecursiveGraphLayoutEngine().layout(box, new BasicProgressMonitor());
        Map<String, Box> hosts = new LinkedHashMap<>();
        for (ElkNode child : box.getChildren()) {
            hosts.put(child.getIdentifier(), new Box(child.getX(), child.getY(), child.getWidth(), child.getHeight()));
        }
        return new Interior(box.getWidth(), box.getHeight(), java.util.Collections.unmodifiableMap(hosts));
    }
}
