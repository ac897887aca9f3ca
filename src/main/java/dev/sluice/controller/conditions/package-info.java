/**
 * The condition vocabulary, in Kueue's words: {@code Conditions} sets a condition the way Kubernetes expects
 * (lastTransitionTime moves only with the status), {@code WorkloadConditions} is a Workload's status through its life
 * (QuotaReserved, Admitted, Evicted, Requeued, Finished and their reasons).
 * <p>
 * The ground floor of the controller: any room may use it, it imports none of them.
 */
package dev.sluice.controller.conditions;
