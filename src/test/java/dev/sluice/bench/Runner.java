package dev.sluice.bench;

import dev.sluice.api.v1beta1.Workload;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * Plays the part of Kueue's benchmark runner for bare Workloads: a Workload admitted (status.admission and
 * Admitted=True) is marked Finished=True (reason Succeeded) its runtime after the admission was seen; an evicted one
 * has its reservation released (admission cleared, QuotaReserved=False, Requeued=True), as a job controller does
 * once the job is stopped. It also records when each Workload was first admitted and finished, and the quota held
 * over time.
 */
final class Runner implements ResourceEventHandler<Workload>, AutoCloseable {

    /** What the runner saw of one Workload (times in milliseconds since the start). */
    static final class Seen {
        final BenchObjects.Planned planned;
        volatile long createdAt = -1;
        volatile long firstAdmittedAt = -1;
        volatile long finishedAt = -1;
        volatile int admissions;
        String admissionToken;
        ScheduledFuture<?> finish;
        boolean releasing;
        double heldCpu;

        Seen(BenchObjects.Planned planned) {
            this.planned = planned;
        }
    }

    private final KubernetesClient client;
    private final long startNanos;
    private final Map<String, Seen> seen = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService writers = Executors.newFixedThreadPool(4);
    private final AtomicLong finishedCount = new AtomicLong();
    private final AtomicLong admissionCount = new AtomicLong();
    private final AtomicLong releases = new AtomicLong();
    private final AtomicLong writeErrors = new AtomicLong();
    private final AtomicLong lastFinishedAt = new AtomicLong();
    /** Held cpu integrated over time (cpu·ms), for the ClusterQueues' average usage. */
    private double heldCpu;
    private double cpuMillis;
    private long lastChange;

    Runner(KubernetesClient client, List<BenchObjects.Planned> planned, long startNanos) {
        this.client = client;
        this.startNanos = startNanos;
        for (BenchObjects.Planned p : planned) {
            seen.put(p.key(), new Seen(p));
        }
    }

    long now() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    void created(String key, long at) {
        Seen s = seen.get(key);
        if (s != null) {
            s.createdAt = at;
        }
    }

    @Override
    public void onAdd(Workload wl) {
        observe(wl);
    }

    @Override
    public void onUpdate(Workload old, Workload wl) {
        observe(wl);
    }

    @Override
    public void onDelete(Workload wl, boolean unknownFinalState) {
        Seen s = seen.get(key(wl));
        if (s != null) {
            synchronized (s) {
                hold(s, 0);
                cancel(s);
            }
        }
    }

    private void observe(Workload wl) {
        Seen s = seen.get(key(wl));
        if (s == null) {
            return;
        }
        long now = now();
        boolean hasAdmission = wl.getStatus() != null && wl.getStatus().getAdmission() != null;
        boolean finished = QuotaAudit.isTrue(wl, "Finished");
        synchronized (s) {
            hold(s, hasAdmission && !finished ? cpu(wl) : 0);
            if (finished) {
                cancel(s);
                if (s.finishedAt < 0) {
                    s.finishedAt = now;
                    finishedCount.incrementAndGet();
                    lastFinishedAt.accumulateAndGet(now, Math::max);
                }
                return;
            }
            if (hasAdmission && QuotaAudit.isTrue(wl, "Evicted")) {
                cancel(s);
                if (!s.releasing) {
                    s.releasing = true;
                    writers.execute(() -> release(wl));
                }
                return;
            }
            s.releasing = false;
            if (!hasAdmission || !QuotaAudit.isTrue(wl, "Admitted")) {
                cancel(s);
                return;
            }
            String token = token(wl);
            if (token.equals(s.admissionToken)) {
                return;
            }
            cancel(s);
            s.admissionToken = token;
            s.admissions++;
            admissionCount.incrementAndGet();
            if (s.firstAdmittedAt < 0) {
                s.firstAdmittedAt = now;
            }
            String k = key(wl);
            s.finish = timers.schedule(() -> writers.execute(() -> finish(k, token)), s.planned.runtimeMillis(),
                    TimeUnit.MILLISECONDS);
        }
    }

    private void hold(Seen s, double cpu) {
        synchronized (this) {
            long now = now();
            cpuMillis += heldCpu * (now - lastChange);
            lastChange = now;
            heldCpu += cpu - s.heldCpu;
        }
        s.heldCpu = cpu;
    }

    private static void cancel(Seen s) {
        if (s.finish != null) {
            s.finish.cancel(false);
            s.finish = null;
        }
        s.admissionToken = null;
    }

    /** One admission of a Workload: its ClusterQueue and when quota was reserved. */
    private static String token(Workload wl) {
        Condition c = QuotaAudit.find(wl, "QuotaReserved");
        return wl.getStatus().getAdmission().getClusterQueue() + "@" + (c == null ? "" : c.getLastTransitionTime());
    }

    private void finish(String key, String token) {
        update(key, wl -> {
            if (QuotaAudit.isTrue(wl, "Finished") || wl.getStatus() == null || wl.getStatus().getAdmission() == null
                    || QuotaAudit.isTrue(wl, "Evicted") || !token.equals(token(wl))) {
                return null; // evicted or re-admitted meanwhile: nothing to finish for this admission
            }
            set(wl, "Finished", "True", "Succeeded", "Finished by the benchmark runner");
            return wl;
        });
    }

    private void release(Workload evicted) {
        releases.incrementAndGet();
        update(key(evicted), wl -> {
            if (wl.getStatus() == null || wl.getStatus().getAdmission() == null || !QuotaAudit.isTrue(wl, "Evicted")
                    || QuotaAudit.isTrue(wl, "Finished")) {
                return null;
            }
            Condition ev = QuotaAudit.find(wl, "Evicted");
            wl.getStatus().setAdmission(null);
            set(wl, "QuotaReserved", "False", "Pending", ev.getMessage());
            if (QuotaAudit.find(wl, "Admitted") != null) {
                set(wl, "Admitted", "False", "NoReservation", "The workload has no reservation");
            }
            set(wl, "Requeued", "True", ev.getReason(), ev.getMessage());
            return wl;
        });
    }

    /** Reads the Workload, applies the change (null: nothing to do) and writes its status; retried on conflict. */
    private void update(String key, UnaryOperator<Workload> change) {
        String[] nsName = key.split("/", 2);
        for (int attempt = 0; attempt < 20; attempt++) {
            try {
                Workload wl = client.resources(Workload.class).inNamespace(nsName[0]).withName(nsName[1]).get();
                if (wl == null) {
                    return;
                }
                Workload next = change.apply(wl);
                if (next == null) {
                    return;
                }
                client.resources(Workload.class).inNamespace(nsName[0]).resource(next).updateStatus();
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    writeErrors.incrementAndGet();
                    sleep(50L * (attempt + 1));
                }
            }
        }
        writeErrors.incrementAndGet();
    }

    private static void set(Workload wl, String type, String status, String reason, String message) {
        List<Condition> conditions = new ArrayList<>(wl.getStatus().getConditions() == null ? List.of()
                : wl.getStatus().getConditions());
        Condition old = conditions.stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
        String at = old != null && status.equals(old.getStatus()) ? old.getLastTransitionTime()
                : Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        conditions.removeIf(c -> type.equals(c.getType()));
        conditions.add(new ConditionBuilder().withType(type).withStatus(status).withReason(reason)
                .withMessage(message == null ? "" : message).withLastTransitionTime(at)
                .withObservedGeneration(wl.getMetadata().getGeneration()).build());
        wl.getStatus().setConditions(conditions);
    }

    private static double cpu(Workload wl) {
        double sum = 0;
        for (var psa : wl.getStatus().getAdmission().getPodSetAssignments()) {
            if (psa.getResourceUsage() != null && psa.getResourceUsage().get("cpu") != null) {
                sum += psa.getResourceUsage().get("cpu").getNumericalAmount().doubleValue();
            }
        }
        return sum;
    }

    static String key(Workload wl) {
        return wl.getMetadata().getNamespace() + "/" + wl.getMetadata().getName();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    long finished() {
        return finishedCount.get();
    }

    long admissions() {
        return admissionCount.get();
    }

    long releases() {
        return releases.get();
    }

    long writeErrors() {
        return writeErrors.get();
    }

    long lastFinishedAt() {
        return lastFinishedAt.get();
    }

    /** Average quota held over [0, until] as cpu. */
    synchronized double averageHeldCpu(long until) {
        double area = cpuMillis + heldCpu * Math.max(0, until - lastChange);
        return until <= 0 ? 0 : area / until;
    }

    Map<String, Seen> seen() {
        return seen;
    }

    @Override
    public void close() {
        timers.shutdownNow();
        writers.shutdownNow();
    }
}
