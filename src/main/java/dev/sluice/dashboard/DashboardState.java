package dev.sluice.dashboard;

import dev.sluice.bridge.Quantities;
import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.ClusterQueueStatus;
import dev.sluice.engine.CohortStatus;
import dev.sluice.engine.Engine;
import dev.sluice.engine.FlavorQuotas;
import dev.sluice.engine.FlavorResource;
import dev.sluice.engine.ResourceGroupSpec;
import dev.sluice.engine.ResourceQuota;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.WorkloadState;
import dev.sluice.forecast.Forecast;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The dashboard's picture of one moment, as plain maps for JSON: cohorts and ClusterQueues with quota, usage and
 * borrowing per flavor and resource, each queue's pending workloads in the engine's own order (the order the
 * visibility API lists) with reason and forecast, and the recent admissions and preemptions. Built from an engine
 * between two passes (the controller's, on its thread) and copied out; nothing in it is secret (names, counts,
 * quantities, condition messages).
 */
public final class DashboardState {

    /** What the picture is drawn from. */
    public record Source(Engine engine, Map<String, ClusterQueueSpec> specs,
            Function<WorkloadKey, String> pendingReason, Function<WorkloadKey, Forecast> forecast, Journal journal,
            long nowMillis) {
    }

    /** Pending workloads listed per ClusterQueue (the count says how many wait in all). */
    public static final int PENDING_SHOWN = 50;
    public static final int RECENT_SHOWN = 50;

    private DashboardState() {
    }

    public static Map<String, Object> of(Source src) {
        Engine engine = src.engine();
        List<Map<String, Object>> queues = new ArrayList<>();
        for (String name : engine.clusterQueueNames()) {
            ClusterQueueStatus st = engine.clusterQueueStatus(name);
            if (st != null) {
                queues.add(clusterQueue(src, st));
            }
        }
        List<Map<String, Object>> cohorts = new ArrayList<>();
        for (String name : engine.cohortNames()) {
            engine.cohortStatus(name).ifPresent(c -> cohorts.add(cohort(c)));
        }
        List<Map<String, Object>> recent = new ArrayList<>();
        for (Journal.Entry e : src.journal().recent(RECENT_SHOWN)) {
            recent.add(entry(e));
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("now", Instant.ofEpochMilli(src.nowMillis()).toString());
        m.put("cohorts", cohorts);
        m.put("clusterQueues", queues);
        m.put("recent", recent);
        return m;
    }

    /** One Workload: where it is now and what happened to it (null when neither the engine nor the journal knows it). */
    public static Map<String, Object> workload(Source src, String namespace, String name) {
        WorkloadKey key = new WorkloadKey(namespace, name);
        Optional<WorkloadState> w = src.engine().workload(key);
        List<Journal.Entry> history = src.journal().history(namespace, name);
        if (w.isEmpty() && history.isEmpty()) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("namespace", namespace);
        m.put("name", name);
        w.ifPresent(s -> {
            // quota reserved but not admitted: said so, with the checks it waits for
            m.put("phase", s.waitingForChecks() ? "RESERVED" : s.phase().name());
            m.put("clusterQueue", s.clusterQueue());
            m.put("localQueue", s.spec().queueName());
            m.put("priority", s.spec().priority());
            m.put("message", s.waitingForChecks() ? waitingForChecks(s) : s.message());
            if (!s.admissionChecks().isEmpty()) {
                Map<String, Object> checks = new LinkedHashMap<>();
                new java.util.TreeMap<>(s.admissionChecks()).forEach((c, state) -> checks.put(c, state.name()));
                m.put("admissionChecks", checks);
            }
            if (s.admittedAtMillis() != null) {
                m.put("admittedAt", Instant.ofEpochMilli(s.admittedAtMillis()).toString());
            }
            Forecast f = src.forecast().apply(key);
            if (f != null) {
                m.put("forecast", f.describe(src.nowMillis()));
            }
        });
        List<Map<String, Object>> h = new ArrayList<>();
        history.forEach(e -> h.add(entry(e)));
        m.put("history", h);
        return m;
    }

    /** What a reserved workload waits for, in Kueue's words for its Admitted=False condition. */
    static String waitingForChecks(WorkloadState s) {
        List<String> checks = new ArrayList<>();
        new java.util.TreeMap<>(s.admissionChecks()).forEach((c, state) -> checks.add(c + " (" + state + ")"));
        return "Quota reserved in ClusterQueue " + s.clusterQueue() + "; the workload has not all checks ready: "
                + "waiting for admission checks " + String.join(", ", checks);
    }

    private static Map<String, Object> clusterQueue(Source src, ClusterQueueStatus st) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", st.name());
        m.put("cohort", st.cohort());
        m.put("active", st.active());
        if (!st.active()) {
            m.put("message", st.message());
        }
        m.put("pending", st.pendingWorkloads());
        m.put("inadmissible", st.inadmissibleWorkloads());
        m.put("admitted", st.admittedWorkloads());
        // reserving quota, admission checks not all Ready yet
        m.put("waitingForChecks", st.reservingWorkloads() - st.admittedWorkloads());
        List<Map<String, Object>> resources = new ArrayList<>();
        ClusterQueueSpec spec = src.specs().get(st.name());
        if (spec != null) {
            for (ResourceGroupSpec rg : spec.resourceGroups()) {
                for (FlavorQuotas fq : rg.flavors()) {
                    for (ResourceQuota q : fq.resources()) {
                        // what others cannot take: reserved quota, admitted or waiting for its admission checks
                        long used = st.flavorsReservation().getOrDefault(new FlavorResource(fq.flavor(), q.resource()),
                                0L);
                        Map<String, Object> r = amounts(fq.flavor(), q.resource(), q.nominal(), used);
                        r.put("borrowingLimit", q.borrowingLimit() == null ? null : text(q.borrowingLimit()));
                        r.put("borrowingLimitMilli", q.borrowingLimit());
                        long borrowed = Math.max(0, used - q.nominal());
                        r.put("borrowed", text(borrowed));
                        r.put("borrowedMilli", borrowed);
                        resources.add(r);
                    }
                }
            }
        }
        m.put("resources", resources);
        List<Map<String, Object>> pending = new ArrayList<>();
        List<WorkloadKey> order = src.engine().pendingOrder(st.name());
        for (int i = 0; order != null && i < order.size() && i < PENDING_SHOWN; i++) {
            WorkloadKey k = order.get(i);
            Optional<WorkloadState> w = src.engine().workload(k);
            if (w.isEmpty()) {
                continue;
            }
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("position", i);
            p.put("namespace", k.namespace());
            p.put("name", k.name());
            p.put("localQueue", w.get().spec().queueName());
            p.put("priority", w.get().spec().priority());
            p.put("phase", w.get().phase().name());
            p.put("reason", src.pendingReason().apply(k));
            p.put("message", w.get().message());
            Forecast f = src.forecast().apply(k);
            if (f != null) {
                p.put("forecast", f.describe(src.nowMillis()));
                p.put("expectedStart", f.startAtMillis() == null ? null : Instant.ofEpochMilli(f.startAtMillis()).toString());
            }
            pending.add(p);
        }
        m.put("pendingWorkloads", pending);
        return m;
    }

    private static Map<String, Object> cohort(CohortStatus c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", c.name());
        m.put("clusterQueues", c.clusterQueues());
        List<Map<String, Object>> resources = new ArrayList<>();
        for (Map.Entry<FlavorResource, Long> q : new java.util.TreeMap<>(c.nominalQuota()).entrySet()) {
            resources.add(amounts(q.getKey().flavor(), q.getKey().resource(), q.getValue(),
                    c.usage().getOrDefault(q.getKey(), 0L)));
        }
        m.put("resources", resources);
        return m;
    }

    private static Map<String, Object> amounts(String flavor, String resource, long nominal, long used) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("flavor", flavor);
        r.put("resource", resource);
        r.put("nominal", text(nominal));
        r.put("nominalMilli", nominal);
        r.put("usage", text(used));
        r.put("usageMilli", used);
        return r;
    }

    private static Map<String, Object> entry(Journal.Entry e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("at", Instant.ofEpochMilli(e.atMillis()).toString());
        m.put("namespace", e.namespace());
        m.put("workload", e.workload());
        m.put("type", e.type());
        m.put("reason", e.reason());
        m.put("message", e.message());
        if (e.preemptor() != null) {
            m.put("preemptor", e.preemptor());
        }
        return m;
    }

    /** Milli-units as Kubernetes writes the quantity (8, 500m, 2Gi stays in bytes: 2147483648). */
    private static String text(long milli) {
        return Quantities.of(milli).toString();
    }
}
