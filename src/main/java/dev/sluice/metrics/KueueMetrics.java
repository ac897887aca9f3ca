package dev.sluice.metrics;

import static dev.sluice.metrics.KueueMeters.*;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.prometheus.client.Collector;
import io.prometheus.client.CollectorRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Kueue's Prometheus metrics (same names, labels, buckets) plus Sluice's per-workload availability series, fed by
 * the controller through {@link AdmissionEvents}.
 */
@ApplicationScoped
public class KueueMetrics implements AdmissionEvents {

    /** Room for the 15,000-workload target twice over; a tracked workload costs a map entry and two small records. */
    public static final int DEFAULT_MAX_TRACKED_WORKLOADS = 30_000;

    private static final Logger LOG = Logger.getLogger(KueueMetrics.class.getName());

    private final MeterRegistry registry;
    private final QueueGauges queues;
    private final ShareGauges clusterQueueShares;
    private final ShareGauges cohortShares;
    private final AdmissionFairSharingGauges admissionFairSharing;
    private final LocalQueueAndCohortGauges localQueuesAndCohorts;
    private final WorkloadAvailability availability;
    private final Optional<CollectorRegistry> prometheus;
    private final Collector availabilityCollector;

    @Inject
    public KueueMetrics(MeterRegistry registry) {
        this(registry, Clock.systemUTC(), DEFAULT_MAX_TRACKED_WORKLOADS);
    }

    /** The clock gives "now" for the uptime of running workloads at scrape time. */
    public KueueMetrics(MeterRegistry registry, Clock clock, int maxTrackedWorkloads) {
        this.registry = registry;
        this.queues = new QueueGauges(registry);
        this.clusterQueueShares = new ShareGauges(registry, CLUSTER_QUEUE_WEIGHTED_SHARE, CLUSTER_QUEUE);
        this.cohortShares = new ShareGauges(registry, COHORT_WEIGHTED_SHARE, COHORT);
        this.admissionFairSharing = new AdmissionFairSharingGauges(registry);
        this.localQueuesAndCohorts = new LocalQueueAndCohortGauges(registry);
        this.availability = new WorkloadAvailability(registry, clock, maxTrackedWorkloads);
        this.availabilityCollector = availability.collector();
        this.prometheus = PrometheusRegistries.collectorRegistry(registry);
        prometheus.ifPresentOrElse(r -> r.register(availabilityCollector),
                () -> LOG.warning("No Prometheus registry behind " + registry.getClass().getName()
                        + "; per-workload availability series are not exported."));
    }

    @PreDestroy
    void close() {
        prometheus.ifPresent(r -> r.unregister(availabilityCollector));
    }

    @Override
    public void quotaReserved(String clusterQueue, double waitSeconds) {
        counter(QUOTA_RESERVED_WORKLOADS_TOTAL, CLUSTER_QUEUE, queue(clusterQueue)).increment();
        Histograms.record(histogram(QUOTA_RESERVED_WAIT_TIME, WAIT_TIME_BUCKETS, CLUSTER_QUEUE, queue(clusterQueue)),
                waitSeconds);
    }

    @Override
    public void admitted(String clusterQueue, double waitSeconds) {
        counter(ADMITTED_WORKLOADS_TOTAL, CLUSTER_QUEUE, queue(clusterQueue)).increment();
        Histograms.record(histogram(ADMISSION_WAIT_TIME, WAIT_TIME_BUCKETS, CLUSTER_QUEUE, queue(clusterQueue)),
                waitSeconds);
    }

    @Override
    public void evicted(String clusterQueue, String reason, String underlyingCause) {
        counter(EVICTED_WORKLOADS_TOTAL, CLUSTER_QUEUE, queue(clusterQueue), REASON, reason(reason), UNDERLYING_CAUSE,
                underlyingCause == null ? "" : underlyingCause).increment();
    }

    @Override
    public void podsReady(String clusterQueue, double sinceAdmittedSeconds, double sinceQueuedSeconds) {
        Histograms.record(histogram(ADMITTED_UNTIL_READY_WAIT_TIME, WAIT_TIME_BUCKETS, CLUSTER_QUEUE,
                queue(clusterQueue)), sinceAdmittedSeconds);
        Histograms.record(histogram(READY_WAIT_TIME, WAIT_TIME_BUCKETS, CLUSTER_QUEUE, queue(clusterQueue)),
                sinceQueuedSeconds);
    }

    @Override
    public void evictedAfterReady(String clusterQueue, String reason, String underlyingCause, double sinceReadySeconds) {
        Histograms.record(Histograms.builder(PODS_READY_TO_EVICTED_TIME, WAIT_TIME_BUCKETS).tags(CLUSTER_QUEUE,
                queue(clusterQueue), REASON, reason(reason), UNDERLYING_CAUSE,
                underlyingCause == null ? "" : underlyingCause).register(registry), sinceReadySeconds);
    }

    @Override
    public void workloadReady(String namespace, String name, Instant at) {
        availability.ready(namespace, name, at);
    }

    @Override
    public void workloadNotReady(String namespace, String name, Instant at) {
        availability.notReady(namespace, name, at);
    }

    @Override
    public void preempted(String preemptingClusterQueue, String reason) {
        counter(PREEMPTED_WORKLOADS_TOTAL, PREEMPTING_CLUSTER_QUEUE, queue(preemptingClusterQueue), REASON,
                reason(reason)).increment();
    }

    @Override
    public void admissionAttempt(boolean success, double seconds) {
        String result = success ? "success" : "inadmissible";
        counter(ADMISSION_ATTEMPTS_TOTAL, RESULT, result).increment();
        Histograms.record(histogram(ADMISSION_ATTEMPT_DURATION, DEFAULT_BUCKETS, RESULT, result), seconds);
    }

    @Override
    public void writeFailed(String resource, String verb, int code) {
        counter(WRITE_FAILURES_TOTAL, "resource", resource, "verb", verb, "code",
                Integer.toString(code)).increment();
    }

    @Override
    public void eventsDropped(long n) {
        counter(EVENTS_DROPPED_TOTAL).increment(n);
    }

    @Override
    public void queuesChanged(List<ClusterQueueMetrics> snapshot) {
        if (snapshot == null) {
            throw new IllegalArgumentException("queuesChanged needs a snapshot (an empty list when there are no "
                    + "ClusterQueues), got null");
        }
        Set<String> gone = queues.update(snapshot);
        if (!gone.isEmpty()) {
            removeEventSeries(gone);
        }
    }

    @Override
    public void clusterQueueSharesChanged(java.util.Map<String, Double> shares) {
        clusterQueueShares.update(shares);
    }

    @Override
    public void cohortSharesChanged(java.util.Map<String, Double> shares) {
        cohortShares.update(shares);
    }

    @Override
    public void localQueueAdmissionFairSharingUsageChanged(List<LocalQueueFairSharingUsage> usages) {
        admissionFairSharing.update(usages);
    }

    @Override
    public void workloadStarted(String namespace, String name, Instant at) {
        availability.started(namespace, name, at);
    }

    @Override
    public void workloadInterrupted(String namespace, String name, Instant at) {
        availability.interrupted(namespace, name, at);
    }

    @Override
    public void workloadFailed(String namespace, String name, Instant at) {
        availability.failed(namespace, name, at);
    }

    @Override
    public void workloadFinished(String namespace, String name, Instant at) {
        availability.finished(namespace, name);
    }

    /** Workloads whose availability is tracked now (started, not finished). */
    public int trackedWorkloads() {
        return availability.tracked();
    }

    /** Kueue deletes a deleted ClusterQueue's counters and histograms too, not only its gauges. */
    private void removeEventSeries(Set<String> gone) {
        for (Meter meter : registry.getMeters()) {
            Meter.Id id = meter.getId();
            if (!id.getName().startsWith("kueue_")) {
                continue;
            }
            String cq = id.getTag(CLUSTER_QUEUE);
            String preempting = id.getTag(PREEMPTING_CLUSTER_QUEUE);
            if ((cq != null && gone.contains(cq)) || (preempting != null && gone.contains(preempting))) {
                registry.remove(meter);
            }
        }
    }

    private Counter counter(Metric metric, String... tags) {
        return Counter.builder(metric.name()).description(metric.help()).tags(tags).register(registry);
    }

    private Timer histogram(Metric metric, double[] buckets, String tag, String value) {
        return Histograms.builder(metric, buckets).tags(tag, value).register(registry);
    }

    private static String queue(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("admission event without a ClusterQueue name");
        }
        return name;
    }

    private static String reason(String reason) {
        if (reason == null || reason.isEmpty()) {
            throw new IllegalArgumentException("eviction or preemption event without a reason (Kueue's words, "
                    + "e.g. Preempted, InClusterQueue)");
        }
        return reason;
    }

    static final Metric LQ_QUOTA_RESERVED_TOTAL = new Metric("kueue_local_queue_quota_reserved_workloads_total",
            "The total number of quota reserved workloads per 'local_queue'");
    static final Metric LQ_ADMITTED_TOTAL = new Metric("kueue_local_queue_admitted_workloads_total",
            "The total number of admitted workloads per 'local_queue'");
    static final Metric LQ_QUOTA_RESERVED_WAIT = new Metric("kueue_local_queue_quota_reserved_wait_time_seconds",
            "The time between a workload was created or requeued until it got quota reservation, per 'local_queue'");
    static final Metric LQ_ADMISSION_WAIT = new Metric("kueue_local_queue_admission_wait_time_seconds",
            "The time between a workload was created or requeued until admission, per 'local_queue'");
    /** LocalQueues ("namespace/name") of the last snapshot, whose counters go when they do. */
    private Set<String> localQueueNames = Set.of();

    @Override
    public void localQueueAdmitted(String namespace, String localQueue, double waitSeconds) {
        if (namespace == null || localQueue == null || localQueue.isEmpty()) {
            throw new IllegalArgumentException("LocalQueue admission event without a namespace and a LocalQueue name");
        }
        String[] lq = {"name", localQueue, "namespace", namespace};
        counter(LQ_QUOTA_RESERVED_TOTAL, lq).increment();
        counter(LQ_ADMITTED_TOTAL, lq).increment();
        Histograms.record(Histograms.builder(LQ_QUOTA_RESERVED_WAIT, WAIT_TIME_BUCKETS).tags(lq).register(registry),
                waitSeconds);
        Histograms.record(Histograms.builder(LQ_ADMISSION_WAIT, WAIT_TIME_BUCKETS).tags(lq).register(registry),
                waitSeconds);
    }

    static final Metric ADMISSION_CHECKS_WAIT_TIME = new Metric("kueue_admission_checks_wait_time_seconds",
            "The time from when a workload got the quota reservation until admission, per 'cluster_queue'");
    static final Metric LQ_ADMISSION_CHECKS_WAIT = new Metric("kueue_local_queue_admission_checks_wait_time_seconds",
            "The time from when a workload got the quota reservation until admission, per 'local_queue'");

    @Override
    public void localQueueQuotaReserved(String namespace, String localQueue, double waitSeconds) {
        String[] lq = localQueueTags(namespace, localQueue);
        counter(LQ_QUOTA_RESERVED_TOTAL, lq).increment();
        Histograms.record(Histograms.builder(LQ_QUOTA_RESERVED_WAIT, WAIT_TIME_BUCKETS).tags(lq).register(registry),
                waitSeconds);
    }

    @Override
    public void localQueueAdmittedAfterChecks(String namespace, String localQueue, double waitSeconds,
            double checksWaitSeconds) {
        String[] lq = localQueueTags(namespace, localQueue);
        counter(LQ_ADMITTED_TOTAL, lq).increment();
        Histograms.record(Histograms.builder(LQ_ADMISSION_WAIT, WAIT_TIME_BUCKETS).tags(lq).register(registry),
                waitSeconds);
        Histograms.record(Histograms.builder(LQ_ADMISSION_CHECKS_WAIT, WAIT_TIME_BUCKETS).tags(lq).register(registry),
                checksWaitSeconds);
    }

    @Override
    public void admissionChecksWaited(String clusterQueue, double seconds) {
        Histograms.record(histogram(ADMISSION_CHECKS_WAIT_TIME, WAIT_TIME_BUCKETS, CLUSTER_QUEUE, queue(clusterQueue)),
                seconds);
    }

    private static String[] localQueueTags(String namespace, String localQueue) {
        if (namespace == null || localQueue == null || localQueue.isEmpty()) {
            throw new IllegalArgumentException("LocalQueue admission event without a namespace and a LocalQueue name");
        }
        return new String[] {"name", localQueue, "namespace", namespace};
    }

    @Override
    public synchronized void localQueuesChanged(List<LocalQueueMetrics> snapshot) {
        localQueuesAndCohorts.localQueues(java.util.Objects.requireNonNull(snapshot, "LocalQueue snapshot"));
        Set<String> names = new java.util.HashSet<>();
        snapshot.forEach(lq -> names.add(lq.namespace() + "/" + lq.name()));
        Set<String> gone = new java.util.HashSet<>(localQueueNames);
        gone.removeAll(names);
        localQueueNames = Set.copyOf(names);
        if (gone.isEmpty()) {
            return;
        }
        // a deleted LocalQueue's counters and histograms go with it, as Kueue's ClearLocalQueueMetrics
        for (Meter meter : registry.getMeters()) {
            Meter.Id id = meter.getId();
            if (id.getName().startsWith("kueue_local_queue_") && id.getTag("name") != null
                    && gone.contains(id.getTag("namespace") + "/" + id.getTag("name"))) {
                registry.remove(meter);
            }
        }
    }

    @Override
    public void unadmittedChanged(List<UnadmittedMetrics> snapshot) {
        localQueuesAndCohorts.unadmitted(java.util.Objects.requireNonNull(snapshot, "unadmitted snapshot"));
    }

    @Override
    public void cohortsChanged(List<CohortMetrics> snapshot) {
        localQueuesAndCohorts.cohorts(java.util.Objects.requireNonNull(snapshot, "cohort snapshot"));
    }
}
