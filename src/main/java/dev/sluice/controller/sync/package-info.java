/**
 * The engine loop and the reconcilers of Workloads and jobs. {@link dev.sluice.controller.sync.EngineLoop} is the one
 * thread that owns the engine while this replica leads: it takes each changed object from its
 * {@link dev.sluice.controller.sync.Inbox}, reconciles it from the caches (queue objects through
 * {@code controller.queues}, then Workloads, then jobs), runs admission cycles and hands the decisions to
 * {@code WorkloadSync}, which writes them through {@code controller.write}. {@code JobSync} keeps each queued job and its
 * Workload in step; {@code PodsReadySync} is waitForPodsReady; {@code RetentionSweep} deletes what the retention
 * policy names.
 * <p>
 * Public face: {@code EngineLoop} alone, for {@code ControllerRuntime}, which starts one per term and reads its
 * health. Everything here runs on the engine thread or reports back to it; nothing below imports this package.
 */
package dev.sluice.controller.sync;
