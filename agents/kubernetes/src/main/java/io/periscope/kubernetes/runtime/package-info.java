/**
 * The small runtime every Kubernetes controller of Periscope runs on: {@link io.periscope.kubernetes.runtime.ControllerRuntime}
 * owns the informers (everything {@link io.periscope.kubernetes.modelbuilder.LiveObjects} holds, and any
 * {@link io.periscope.kubernetes.runtime.Watch} more, on this cluster's API or the broker's), the level loop, and the
 * optional lease. A {@link io.periscope.kubernetes.runtime.Controller} supplies only its pass: a
 * {@link io.periscope.kubernetes.runtime.Snapshot} of the caches in, the {@link io.periscope.kubernetes.runtime.Action}s out,
 * which the one {@link io.periscope.kubernetes.runtime.StatusWriter} carries out through fabric8.
 */
package io.periscope.kubernetes.runtime;
