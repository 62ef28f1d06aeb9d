package io.periscope.plan.ovn;

import java.util.List;

/** An OVN load balancer group: load balancers attached together to routers and switches (OVN-Kubernetes' {@code clusterLBGroup} holds every ClusterIP service). */
public record LoadBalancerGroup(String name, List<LoadBalancer> loadBalancers) {

    public LoadBalancerGroup {
        loadBalancers = List.copyOf(loadBalancers);
    }
}
