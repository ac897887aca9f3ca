/**
 * Every write the controller makes and what becomes of it: {@code Writes} (status by JSON patch, jobs by JSON patch
 * with a resourceVersion precondition), {@code JobWrites} (the job patches, built without I/O),
 * {@code WriteLanes} (off the engine thread, one object's writes in order), {@code PendingStatusWrites} (pending
 * status written with restraint), {@code WriteFailures} and {@code RefusedWrite} (a failed write logged, counted and
 * shown), {@code EventRecorder} and {@code EventRate} (core/v1 Events, correlated and paced), and
 * {@code WriteSettings}.
 * <p>
 * Called by the caches, the session and the reconcilers above it. It reads only the stores' forms
 * ({@code controller.store}), never the caches or what decides: a job's resource context is the kind's own
 * ({@code JobKind.resourceContext}).
 */
package dev.sluice.controller.write;
