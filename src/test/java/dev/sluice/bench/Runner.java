package dev.sluice.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Plays the part of Kueue's benchmark runner for bare Workloads: a Workload admitted (status.admission and
 * Admitted=True) is marked Finished=True (reason Succeeded) its runtime after the admission was seen; an evicted one
 * has its reservation released (admission cleared, QuotaReserved=False, Requeued=True), as a job controller does
 * once the job is stopped. It also records when each Workload was first admitted and finished, and the quota held
 * over time.
 * <p>
 * Its writes are JSON patches of the status computed from the latest watched state, with the resource version as a
 * precondition: when the Workload changed meanwhile the API server answers 409, and the change is computed again from
 * a fresh read. (A read before every write, as a job controller's cache does not need either, would double the
 * runner's requests.)
 */
final class Runner implements AutoCloseable {

    /** What the runner saw of one Workload (times in milliseconds since the start). */
    static final class Seen {
        final BenchObjects.Planned planned;
        volatile long createdAt = -1;
        volatile long firstAdmittedAt = -1;
        volatile long finishedAt = -1;
        volatile int admissions;
        volatile WorkloadView latest;
        /** The versions seen, oldest first (at most {@link #HISTORY}), for the report of one left unfinished. */
        final java.util.ArrayDeque<String> history = new java.util.ArrayDeque<>();
        String admissionToken;
        ScheduledFuture<?> finish;
        boolean releasing;
        double heldCpu;

        Seen(BenchObjects.Planned planned) {
            this.planned = planned;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int HISTORY = 24;

    private final WorkloadApi api;
    private final long startNanos;
    private final Map<String, Seen> seen = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService writers = Executors.newFixedThreadPool(4);
    private final AtomicLong finishedCount = new AtomicLong();
    private final AtomicLong admissionCount = new AtomicLong();
    private final AtomicLong releases = new AtomicLong();
    private final AtomicLong writeErrors = new AtomicLong();
    private final AtomicLong conflicts = new AtomicLong();
    private final AtomicLong lastFinishedAt = new AtomicLong();
    /** Held cpu integrated over time (cpu·ms), for the ClusterQueues' average usage. */
    private double heldCpu;
    private double cpuMillis;
    private long lastChange;

    /** Workloads whose pods never get ready: never finished by the runner, so waitForPodsReady times them out. */
    private volatile java.util.function.Predicate<String> neverReady = key -> false;
    private final AtomicLong deactivatedCount = new AtomicLong();

    Runner(WorkloadApi api, List<BenchObjects.Planned> planned, long startNanos) {
        this.api = api;
        this.startNanos = startNanos;
        for (BenchObjects.Planned p : planned) {
            seen.put(p.key(), new Seen(p));
        }
    }

    long now() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    /**
     * Every Workload whose key hashes below {@code share} (0..1) never gets ready: it is not finished after its
     * runtime, so the controller evicts it at its PodsReady timeout, requeues it and finally deactivates it; a
     * deactivated one counts as done.
     */
    void neverReady(double share) {
        neverReady = key -> Math.floorMod(key.hashCode() * 0x9E3779B1, 10_000) < share * 10_000;
    }

    boolean isNeverReady(String key) {
        return neverReady.test(key);
    }

    long deactivated() {
        return deactivatedCount.get();
    }

    /** The Workload as the runner last saw it, for the report of one left unfinished: admission and conditions. */
    String lastSeen(String key) {
        Seen s = seen.get(key);
        WorkloadView wl = s == null ? null : s.latest;
        if (wl == null) {
            return "(never seen by the runner)";
        }
        StringBuilder b = new StringBuilder("(last seen: ").append(describe(wl, 0)).append(')');
        synchronized (s) {
            if (s.history.size() > 1) {
                b.append("\n    its versions as seen (ms since start: rv, admission; conditions):");
                s.history.forEach(h -> b.append("\n      ").append(h));
            }
        }
        return b.toString();
    }

    private static String describe(WorkloadView wl, long at) {
        StringBuilder b = new StringBuilder();
        if (at > 0) {
            b.append(at).append(" ms: ");
        }
        b.append("rv ").append(wl.resourceVersion()).append(", admission ")
                .append(wl.admission() == null ? "none" : wl.admission().clusterQueue()).append(';');
        for (WorkloadView.ConditionView c : wl.conditions()) {
            b.append(' ').append(c.type()).append('=').append(c.status()).append('/').append(c.reason());
        }
        return b.toString();
    }

    void created(String key, long at) {
        Seen s = seen.get(key);
        if (s != null) {
            s.createdAt = at;
        }
    }

    /** A watch event: the Workload as it is now, or deleted. */
    void changed(WorkloadJson.Event e) {
        if ("DELETED".equals(e.type())) {
            deleted(e.workload().key());
        } else {
            observe(e.workload());
        }
    }

    void deleted(String key) {
        Seen s = seen.get(key);
        if (s != null) {
            synchronized (s) {
                hold(s, 0);
                cancel(s);
            }
        }
    }

    void observe(WorkloadView wl) {
        Seen s = seen.get(wl.key());
        if (s == null) {
            return;
        }
        s.latest = wl;
        long now = now();
        synchronized (s) {
            if (s.history.size() == HISTORY) {
                s.history.removeFirst();
            }
            s.history.addLast(describe(wl, Math.max(1, now)));
        }
        boolean hasAdmission = wl.admission() != null;
        boolean finished = wl.isTrue("Finished");
        boolean deactivated = neverReady.test(wl.key()) && wl.isDeactivated();
        if (deactivated && s.finishedAt < 0) {
            deactivatedCount.incrementAndGet();
        }
        synchronized (s) {
            hold(s, hasAdmission && !finished ? wl.cpu() : 0);
            if (finished || deactivated) {
                cancel(s);
                if (s.finishedAt < 0) {
                    s.finishedAt = now;
                    finishedCount.incrementAndGet();
                    lastFinishedAt.accumulateAndGet(now, Math::max);
                }
                return;
            }
            if (hasAdmission && wl.isTrue("Evicted")) {
                cancel(s);
                if (!s.releasing) {
                    s.releasing = true;
                    String k = wl.key();
                    writers.execute(() -> release(k));
                }
                return;
            }
            s.releasing = false;
            if (!hasAdmission || !wl.isTrue("Admitted")) {
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
            String k = wl.key();
            if (neverReady.test(k)) {
                return; // its pods never get ready: nothing finishes it
            }
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
    static String token(WorkloadView wl) {
        WorkloadView.ConditionView c = wl.condition("QuotaReserved");
        return wl.admission().clusterQueue() + "@" + (c == null ? "" : c.lastTransitionTime());
    }

    private void finish(String key, String token) {
        update(key, wl -> {
            if (wl.isTrue("Finished") || wl.admission() == null || wl.isTrue("Evicted") || !token.equals(token(wl))) {
                return null; // evicted or re-admitted meanwhile: nothing to finish for this admission
            }
            return statusPatch(wl, false, set(wl, List.of(
                    condition(wl, "Finished", "True", "Succeeded", "Finished by the benchmark runner"))));
        });
    }

    private void release(String key) {
        releases.incrementAndGet();
        update(key, wl -> {
            if (wl.admission() == null || !wl.isTrue("Evicted") || wl.isTrue("Finished")) {
                return null;
            }
            WorkloadView.ConditionView ev = wl.condition("Evicted");
            List<WorkloadView.ConditionView> changes = new ArrayList<>();
            changes.add(condition(wl, "QuotaReserved", "False", "PendingEvaluation", ev.message()));
            if (wl.condition("Admitted") != null) {
                changes.add(condition(wl, "Admitted", "False", "NoReservation", "The workload has no reservation"));
            }
            changes.add(condition(wl, "Requeued", "True", ev.reason(), ev.message()));
            return statusPatch(wl, true, set(wl, changes));
        });
    }

    /**
     * Computes the patch from the latest state (null: nothing to do) and applies it; on 409 (the Workload moved on)
     * computes it again from a fresh read.
     */
    private void update(String key, Function<WorkloadView, String> change) {
        Seen s = seen.get(key);
        WorkloadView wl = s == null ? null : s.latest;
        String[] nsName = key.split("/", 2);
        for (int attempt = 0; attempt < 20; attempt++) {
            try {
                if (wl == null) {
                    return;
                }
                String patch = change.apply(wl);
                if (patch == null) {
                    return;
                }
                int code = api.patchStatus(nsName[0], nsName[1], patch);
                if (code / 100 == 2 || code == 404) {
                    return;
                }
                if (code == 409) {
                    conflicts.incrementAndGet();
                } else {
                    writeErrors.incrementAndGet();
                    sleep(50L * (attempt + 1));
                }
                wl = api.get(nsName[0], nsName[1]);
            } catch (IOException e) {
                writeErrors.incrementAndGet();
                sleep(50L * (attempt + 1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        writeErrors.incrementAndGet();
    }

    /**
     * A JSON patch: the resource version as read (the precondition), the new conditions and, when releasing, the
     * admission cleared. Only "replace" of a field that exists and "add" are used, which cannot fail on a Workload
     * that moved on; the precondition then answers 409.
     */
    static String statusPatch(WorkloadView wl, boolean clearAdmission, List<WorkloadView.ConditionView> conditions) {
        List<Map<String, Object>> ops = new ArrayList<>();
        ops.add(Map.of("op", "replace", "path", "/metadata/resourceVersion", "value", wl.resourceVersion()));
        List<Map<String, Object>> cs = new ArrayList<>();
        for (WorkloadView.ConditionView c : conditions) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("type", c.type());
            m.put("status", c.status());
            if (c.observedGeneration() != null) {
                m.put("observedGeneration", c.observedGeneration());
            }
            m.put("lastTransitionTime", c.lastTransitionTime());
            m.put("reason", c.reason());
            m.put("message", c.message() == null ? "" : c.message());
            cs.add(m);
        }
        ops.add(Map.of("op", "add", "path", "/status/conditions", "value", cs));
        if (clearAdmission) {
            Map<String, Object> clear = new LinkedHashMap<>();
            clear.put("op", "add");
            clear.put("path", "/status/admission");
            clear.put("value", null);
            ops.add(clear);
        }
        try {
            return JSON.writeValueAsString(ops);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A condition as a controller sets it: the transition time kept when the status does not change. */
    static WorkloadView.ConditionView condition(WorkloadView wl, String type, String status, String reason, String message) {
        WorkloadView.ConditionView old = wl.condition(type);
        String at = old != null && status.equals(old.status()) ? old.lastTransitionTime()
                : Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        return new WorkloadView.ConditionView(type, status, reason, message == null ? "" : message, at, wl.generation());
    }

    /** The Workload's conditions with {@code changes} replacing those of their types (appended when new). */
    static List<WorkloadView.ConditionView> set(WorkloadView wl, List<WorkloadView.ConditionView> changes) {
        List<WorkloadView.ConditionView> out = new ArrayList<>(wl.conditions());
        for (WorkloadView.ConditionView c : changes) {
            out.removeIf(x -> c.type().equals(x.type()));
            out.add(c);
        }
        return out;
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

    long conflicts() {
        return conflicts.get();
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
