package dev.sluice.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.prometheus.client.Collector;
import io.prometheus.client.CounterMetricFamily;
import io.prometheus.client.GaugeMetricFamily;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Availability of each running workload, the tutorial's JobSet health figures: uptime, interruptions, time to
 * recover (interruption to the next time its pods are all ready) and time between interruptions (ready to the next
 * interruption). A workload is up while its pods are ready (PodsReady), not merely while its job is unsuspended; an
 * interruption is an eviction or a loss of readiness of a workload that was up (GKE's rules: the first provisioning
 * is not a recovery, the first up period counts as a time between interruptions, the last one only when the workload
 * fails).
 *
 * <p>Memory: one small immutable record per workload that has started and not finished, in a map capped at
 * {@code maxTracked}; the per-workload series are produced at scrape time by one collector instead of a Micrometer
 * meter per series (a meter costs far more than the record). The two distributions are cluster-wide histograms
 * without per-workload labels.
 */
final class WorkloadAvailability {

    static final Metric UPTIME = new Metric("sluice_workload_uptime_seconds",
            "Total time the workload has been running since it first started, summed over its runs (frozen while "
            + "interrupted), per 'namespace' and 'workload'.");
    static final Metric INTERRUPTIONS = new Metric("sluice_workload_interruptions",
            "The number of times the workload stopped before finishing (evicted or preempted), per 'namespace' and "
            + "'workload'.");
    static final Metric TIME_TO_RECOVER = new Metric("sluice_workload_time_to_recover_seconds",
            "Time from a workload's interruption to its next start, over all workloads.");
    static final Metric TIME_BETWEEN_INTERRUPTIONS = new Metric("sluice_workload_time_between_interruptions_seconds",
            "Time from a workload's start to its next interruption, over all workloads.");
    static final Metric UNTRACKED = new Metric("sluice_workload_availability_untracked_total",
            "Workload events not tracked because the availability map was full.");

    /** Kueue's wait-time bucket scheme extended to about 45 hours: runs between interruptions can be long. */
    static final double[] BUCKETS = KueueMeters.exponentialFrom1(18);

    private static final Logger LOG = Logger.getLogger(WorkloadAvailability.class.getName());
    private static final long NONE = Long.MIN_VALUE;
    private static final List<String> LABELS = List.of("namespace", "workload");

    private record Key(String namespace, String name) {
    }

    /** Times in epoch milliseconds; {@link #NONE} when absent. Immutable: replaced on each event. */
    private record State(long uptimeMillis, long runningSince, long interruptedAt, long interruptions) {
        boolean running() {
            return runningSince != NONE;
        }
    }

    private final Clock clock;
    private final int maxTracked;
    private final Map<Key, State> workloads = new ConcurrentHashMap<>();
    private final Timer timeToRecover;
    private final Timer timeBetweenInterruptions;
    private final Counter untracked;
    private volatile boolean warnedFull;

    WorkloadAvailability(MeterRegistry registry, Clock clock, int maxTracked) {
        if (maxTracked <= 0) {
            throw new IllegalArgumentException("maxTracked must be positive, got " + maxTracked);
        }
        this.clock = clock;
        this.maxTracked = maxTracked;
        this.timeToRecover = Histograms.register(registry, TIME_TO_RECOVER, BUCKETS);
        this.timeBetweenInterruptions = Histograms.register(registry, TIME_BETWEEN_INTERRUPTIONS, BUCKETS);
        this.untracked = Counter.builder(UNTRACKED.name()).description(UNTRACKED.help()).register(registry);
    }

    /**
     * The job was started (admitted and unsuspended): from here the workload is tracked, but it is up only once its
     * pods are ready ({@link #ready}); provisioning is not uptime, and the first provisioning is not a recovery.
     */
    void started(String namespace, String name, Instant at) {
        Key key = key(namespace, name);
        millis(at, "workloadStarted");
        if (!workloads.containsKey(key) && admit(key)) {
            workloads.put(key, new State(0, NONE, NONE, 0));
        }
    }

    /** Its pods are all ready (PodsReady): up from {@code at}; after an interruption that ends the time to recover. */
    void ready(String namespace, String name, Instant at) {
        Key key = key(namespace, name);
        long t = millis(at, "workloadReady");
        State before = workloads.get(key);
        if (before == null) {
            return; // not tracked: its start was not (the map was full)
        }
        if (before.running()) {
            return; // announced twice: the first counts
        }
        if (before.interruptedAt() != NONE) {
            Histograms.record(timeToRecover, Math.max(0, t - before.interruptedAt()) / 1000.0);
        }
        workloads.put(key, new State(before.uptimeMillis(), t, NONE, before.interruptions()));
    }

    /** Its pods are no longer all ready: an interruption, as an eviction is. */
    void notReady(String namespace, String name, Instant at) {
        State before = workloads.get(key(namespace, name));
        if (before != null && before.running()) {
            interrupted(namespace, name, at);
        }
    }

    /**
     * It ended in failure: GKE counts the last up period as a time between interruptions only then (a success ends
     * the workload, it does not interrupt it).
     */
    void failed(String namespace, String name, Instant at) {
        Key key = key(namespace, name);
        long t = millis(at, "workloadFailed");
        State before = workloads.get(key);
        if (before != null && before.running()) {
            Histograms.record(timeBetweenInterruptions, Math.max(0, t - before.runningSince()) / 1000.0);
            workloads.put(key, new State(before.uptimeMillis() + Math.max(0, t - before.runningSince()), NONE, NONE,
                    before.interruptions()));
        }
    }

    void interrupted(String namespace, String name, Instant at) {
        Key key = key(namespace, name);
        long t = millis(at, "workloadInterrupted");
        State before = workloads.get(key);
        if (before == null) {
            // Not seen starting (e.g. the controller restarted while it ran): count it, measure its recovery.
            if (admit(key)) {
                workloads.put(key, new State(0, NONE, t, 1));
            }
            return;
        }
        if (!before.running()) {
            return; // already interrupted, or never up: nothing was interrupted
        }
        long ran = Math.max(0, t - before.runningSince());
        Histograms.record(timeBetweenInterruptions, ran / 1000.0);
        workloads.put(key, new State(before.uptimeMillis() + ran, NONE, t, before.interruptions() + 1));
    }

    void finished(String namespace, String name) {
        workloads.remove(key(namespace, name));
    }

    int tracked() {
        return workloads.size();
    }

    private boolean admit(Key key) {
        if (workloads.size() < maxTracked) {
            return true;
        }
        untracked.increment();
        if (!warnedFull) {
            warnedFull = true;
            LOG.warning("Workload availability map is full (" + maxTracked + " workloads); " + key.namespace() + "/"
                    + key.name() + " and later ones are not tracked until others finish.");
        }
        return false;
    }

    /** The per-workload series, computed at scrape time from the records. */
    Collector collector() {
        return new Collector() {
            @Override
            public List<MetricFamilySamples> collect() {
                long now = clock.millis();
                GaugeMetricFamily uptime = new GaugeMetricFamily(UPTIME.name(), UPTIME.help(), LABELS);
                CounterMetricFamily interruptions = new CounterMetricFamily(INTERRUPTIONS.name(), INTERRUPTIONS.help(),
                        LABELS);
                workloads.forEach((key, s) -> {
                    List<String> labels = List.of(key.namespace(), key.name());
                    long running = s.running() ? Math.max(0, now - s.runningSince()) : 0;
                    uptime.addMetric(labels, (s.uptimeMillis() + running) / 1000.0);
                    interruptions.addMetric(labels, s.interruptions());
                });
                return List.of(uptime, interruptions);
            }
        };
    }

    private static Key key(String namespace, String name) {
        if (namespace == null || name == null) {
            throw new IllegalArgumentException("workload event needs a namespace and a name, got " + namespace + "/"
                    + name);
        }
        return new Key(namespace, name);
    }

    private static long millis(Instant at, String event) {
        if (at == null) {
            throw new IllegalArgumentException(event + " needs the time of the event, got null");
        }
        return at.toEpochMilli();
    }
}
