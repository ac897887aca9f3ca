/**
 * Topology-aware scheduling's pods, as Kueue v0.19's {@code pkg/controller/tas}: the topology ungater, which takes
 * the {@code kueue.x-k8s.io/topology} scheduling gate off each pod of a pod set placed by topology while giving it the
 * node selector of its domain ({@link dev.sluice.controller.tas.UngatePlan} decides, {@link
 * dev.sluice.controller.tas.TopologyUngater} writes), and the node failure reporting, which records a node of an
 * admitted Workload's assignment that is gone or NotReady in {@code status.unhealthyNodes} ({@link
 * dev.sluice.controller.tas.NodeFailures}). Where the replacement domain is looked for is the engine's
 * ({@code engine.tas}); what start adds to the pod templates is the job kinds' ({@code jobs.PodSetStart}).
 */
package dev.sluice.controller.tas;
