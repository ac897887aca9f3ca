/**
 * The queue objects: ResourceFlavors, Cohorts, ClusterQueues, LocalQueues and Namespaces from the caches into the
 * engine ({@code QueueSync}), and back out as status and gauges: ClusterQueue and LocalQueue status
 * ({@code QueueStatusSync}), Cohort status ({@code CohortStatusSync}), LocalQueue admission-fair-sharing status and
 * the LocalQueue and cohort gauges' snapshots.
 * <p>
 * Called by the engine loop ({@code controller.sync}) only, on the engine thread; public are the three reconcilers
 * it builds and calls. Works on a term's {@code controller.session.Session}.
 */
package dev.sluice.controller.queues;
