package dev.sluice.controller;

import dev.sluice.metrics.AdmissionEvents;
import java.time.Instant;
import java.util.List;

/** Stands in when no meters bean is deployed: the controller works the same, nothing is measured. Not a bean. */
enum NoMeters implements AdmissionEvents {
    INSTANCE;

    @Override
    public void quotaReserved(String clusterQueue, double waitSeconds) {
    }

    @Override
    public void admitted(String clusterQueue, double waitSeconds) {
    }

    @Override
    public void evicted(String clusterQueue, String reason) {
    }

    @Override
    public void preempted(String preemptingClusterQueue, String reason) {
    }

    @Override
    public void admissionAttempt(boolean success, double seconds) {
    }

    @Override
    public void queuesChanged(List<ClusterQueueMetrics> snapshot) {
    }

    @Override
    public void workloadStarted(String namespace, String name, Instant at) {
    }

    @Override
    public void workloadInterrupted(String namespace, String name, Instant at) {
    }

    @Override
    public void workloadFinished(String namespace, String name, Instant at) {
    }
}
