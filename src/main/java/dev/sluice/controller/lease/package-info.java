/**
 * Leadership and its health: {@link dev.sluice.controller.lease.LeaderElection} takes part in leader election on a
 * Lease, term after term, on a client of its own ({@code LeaseClient}: its own HTTP client on a Vert.x of its own);
 * {@code ObservedLeaseLock} tells {@code LeaseHealth} the outcome of every request, so a replica that cannot lead
 * says so.
 * <p>
 * Used by {@code ControllerRuntime} (the door), and {@code LeaseClient}'s Vert.x-of-its-own by the informers' client
 * ({@code controller.cache}). Imports nothing of the controller.
 */
package dev.sluice.controller.lease;
