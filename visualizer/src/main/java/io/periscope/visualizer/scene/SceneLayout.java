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
 * picture and an edit elsewhere in the file does not move a node.
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
     * whole picture's size.
     */
    public record Placement(Map<String, Box> clusters, Map<String, Box> hosts, Map<String, List<Point>> cables, double width,
                            double height) {
    }

    private SceneLayout() {
    }

    public static Placement place(Input input) {
        ElkNode root = ElkGraphUtil.createGraph();
        root.setProperty(CoreOptions.ALGORITHM, LayeredOptions.ALGORITHM_ID);
        root.setProperty(CoreOptions.DIRECTION, Direction.RIGHT);
        root.setProperty(CoreOptions.EDGE_ROUTING, EdgeRouting.POLYLINE);
        root.setProperty(CoreOptions.SPACING_NODE_NODE, 60.0);
        root.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, 140.0);
        root.setProperty(CoreOptions.PADDING, new ElkPadding(20));
        root.setProperty(LayeredOptions.RANDOM_SEED, 1);
        Map<String, ElkNode> clusterNodes = new LinkedHashMap<>();
        Map<String, ElkNode> hostNodes = new LinkedHashMap<>();
        for (ClusterInput cluster : input.clusters()) {
            ElkNode box = ElkGraphUtil.createNode(root);
            box.setIdentifier(cluster.name());
            box.setProperty(CoreOptions.ALGORITHM, LayeredOptions.ALGORITHM_ID);
            box.setProperty(CoreOptions.DIRECTION, Direction.DOWN);
            box.setProperty(CoreOptions.SPACING_NODE_NODE, 18.0);
            box.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, 34.0);
            box.setProperty(CoreOptions.PADDING, new ElkPadding(cluster.headerHeight() + 12, 14, 14, 14));
            box.setProperty(LayeredOptions.RANDOM_SEED, 1);
            box.setProperty(CoreOptions.NODE_SIZE_CONSTRAINTS, java.util.EnumSet.of(org.eclipse.elk.core.options.SizeConstraint.MINIMUM_SIZE));
            box.setProperty(CoreOptions.NODE_SIZE_MINIMUM, new org.eclipse.elk.core.math.KVector(cluster.minWidth(), cluster.headerHeight() + 40));
            clusterNodes.put(cluster.name(), box);
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
        for (ElkNode box : clusterNodes.values()) {
            clusters.put(box.getIdentifier(), new Box(box.getX(), box.getY(), box.getWidth(), box.getHeight()));
            for (ElkNode child : box.getChildren()) {
                hosts.put(child.getIdentifier(), new Box(box.getX() + child.getX(), box.getY() + child.getY(), child.getWidth(),
                        child.getHeight()));
            }
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
        return new Placement(clusters, hosts, routes, root.getWidth(), root.getHeight());
    }
}
