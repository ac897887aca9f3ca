/**
 * One term as leader: {@link dev.sluice.controller.session.Session} holds a fresh engine, the caches, the writers and
 * the settings the term decides by; the reconcilers ({@code controller.sync}, {@code controller.queues}) all work on
 * it. Beside it the settings it is built from, Kueue's configuration blocks as Sluice properties
 * ({@code FairSharingConfig}, {@code AdmissionFairSharingConfig}, {@code WaitForPodsReadyConfig} with its start-up
 * check, {@code ObjectRetentionConfig} and the {@code WorkloadRetention} policy it gives), and
 * {@code FinishedRuns}, the run times told to the forecast, which outlive a term.
 * <p>
 * Built by {@code ControllerRuntime} (the door, {@code dev.sluice.controller}); used by the engine loop and the
 * reconcilers. It imports the writers, the caches and the stores, never a reconciler.
 */
package dev.sluice.controller.session;
