package dev.sluice.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.AdmissionFairSharingStatus;
import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Cohort;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.LocalQueueFairSharingStatus;
import dev.sluice.api.v1beta2.LocalQueueStatus;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadStatus;
import dev.sluice.engine.AdmissionFairSharing;
import dev.sluice.engine.CycleResult;
import dev.sluice.engine.Engine;
import dev.sluice.engine.Eviction;
import dev.sluice.engine.FairSharing;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.WorkloadState;
import dev.sluice.forecast.Capture;
import dev.sluice.forecast.Forecasts;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The engine copies a standby (EngineRebuild, from the API objects) and the forecast (Forecasts.copy, from a
 * capture) build decide as the leader's live engine: same fair-sharing and admission-fair-sharing settings, the
 * Cohort pool, and the LocalQueues' usage (a standby reads it back from status, the forecast copies the books).
 *
 * World: Cohort pool owns 4 cpu; ClusterQueues fs-a (weight 2) and fs-b (weight 1) own none and borrow everything;
 * ClusterQueue afs (1 cpu, UsageBasedAdmissionFairSharing) with LocalQueues heavy and light. The leader has run
 * a1..a4 on fs-a and h1 on heavy (sampled for a minute, then finished); b1, h2 (older) and l1 (newer) wait. Next
 * decisions, Kueue's: one of fs-a's is preempted for b1 (InCohortFairSharing), and l1 goes before h2.
 */
class EngineCopiesTest {

    private static final long T0 = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    private static final long MINUTE = 60_000;
    private static final FairSharing FS = FairSharing.on();
    private static final AdmissionFairSharing AFS = AdmissionFairSharing.on(10 * MINUTE, MINUTE);
    private static final String NS = "team";

    private final List<ResourceFlavor> flavors = List.of(yaml(ResourceFlavor.class, """
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: ResourceFlavor
            metadata: {name: f}
            spec: {}
            """));
    private final List<Cohort> cohorts = List.of(yaml(Cohort.class, """
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: Cohort
            metadata: {name: pool}
            spec:
              resourceGroups:
              - coveredResources: [cpu]
                flavors:
                - name: f
                  resources:
                  - {name: cpu, nominalQuota: "4"}
            """));
    private final List<ClusterQueue> clusterQueues = List.of(borrower("fs-a", "2"), borrower("fs-b", "1"),
            yaml(ClusterQueue.class, """
                    apiVersion: kueue.x-k8s.io/v1beta2
                    kind: ClusterQueue
                    metadata: {name: afs}
                    spec:
                      namespaceSelector: {}
                      admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}
                      resourceGroups:
                      - coveredResources: [cpu]
                        flavors:
                        - name: f
                          resources:
                          - {name: cpu, nominalQuota: "1"}
                    """));
    private final List<LocalQueue> localQueues = new ArrayList<>(List.of(localQueue("a", "fs-a"),
            localQueue("b", "fs-b"), localQueue("heavy", "afs"), localQueue("light", "afs")));
    private final List<Namespace> namespaces = List.of(new NamespaceBuilder().withNewMetadata().withName(NS)
            .endMetadata().build());
    private final Map<WorkloadKey, Workload> workloads = new TreeMap<>(
            java.util.Comparator.comparing(WorkloadKey::namespace).thenComparing(WorkloadKey::name));

    @Test
    void standbyAndForecastCopiesDecideAsTheLeader() {
        Engine live = new Engine(FS, AFS);
        flavors.forEach(f -> live.upsertFlavor(QueueObjects.flavor(f)));
        cohorts.forEach(c -> live.upsertCohort(CohortObjects.cohort(c)));
        clusterQueues.forEach(cq -> live.upsertClusterQueue(QueueObjects.clusterQueue(cq)));
        localQueues.forEach(lq -> live.upsertLocalQueue(QueueObjects.localQueue(lq)));
        namespaces.forEach(ns -> live.upsertNamespace(NS, Map.of()));

        for (int i = 1; i <= 4; i++) {
            submit(live, "a" + i, "a", T0 - 60_000 + i * 1000);
        }
        submit(live, "h1", "heavy", T0 - 30_000);
        assertThat(decide(live, T0)).containsExactlyInAnyOrder("admit team/a1 fs-a", "admit team/a2 fs-a", "admit team/a3 fs-a",
                "admit team/a4 fs-a", "admit team/h1 afs");
        live.schedule(T0 + MINUTE); // heavy's usage is sampled while h1 runs
        live.finish(new WorkloadKey(NS, "h1"));
        workloads.remove(new WorkloadKey(NS, "h1"));
        submit(live, "b1", "b", T0 + 10_000);
        submit(live, "h2", "heavy", T0 + 20_000);
        submit(live, "l1", "light", T0 + 30_000);

        // the copies, built from what the leader shows now
        Engine standby = EngineRebuild.build(FS, AFS, flavors, cohorts, clusterQueues, withRecordedUsage(live),
                namespaces, apiWorkloads(live), EngineRebuild::fromTemplates);
        Engine forecast = Forecasts.copy(capture(live));
        Engine flat = EngineRebuild.build(dev.sluice.engine.FairSharing.OFF, dev.sluice.engine.AdmissionFairSharing.OFF,
                flavors, List.of(), clusterQueues, localQueues, namespaces, apiWorkloads(live),
                EngineRebuild::fromTemplates);

        for (String cq : List.of("fs-a", "fs-b", "afs")) {
            assertThat(standby.pendingOrder(cq)).as(cq).isEqualTo(live.pendingOrder(cq));
            assertThat(forecast.pendingOrder(cq)).as(cq).isEqualTo(live.pendingOrder(cq));
        }
        long next = T0 + MINUTE + 1000;
        List<String> leader = decide(live, next);
        assertThat(leader).as("Kueue's decisions").contains("admit team/b1 fs-b", "admit team/l1 afs")
                .doesNotContain("admit team/h2 afs")
                .anyMatch(d -> d.startsWith("evict team/a") && d.endsWith("InCohortFairSharing"));
        assertThat(decide(standby, next)).as("standby").isEqualTo(leader);
        assertThat(decide(forecast, next)).as("forecast").isEqualTo(leader);
        assertThat(decide(flat, next)).as("without the pool, the weights and the usage a copy decides otherwise")
                .isNotEqualTo(leader);
    }

    /** Admissions in order, and evictions with their reasons; an eviction is confirmed at once, as the controller does. */
    private static List<String> decide(Engine e, long now) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            CycleResult r = e.schedule(now);
            r.evictions().forEach(ev -> out.add("evict " + ev.workload().namespace() + "/" + ev.workload().name() + " "
                    + ev.reason() + " " + ev.preemptionReason()));
            r.admissions().forEach(a -> out.add("admit " + a.workload().namespace() + "/" + a.workload().name() + " "
                    + a.assignment().clusterQueue()));
            for (Eviction ev : r.evictions()) {
                e.evictionDone(ev.workload(), now);
            }
            if (r.admissions().isEmpty() && r.evictions().isEmpty()) {
                return out;
            }
        }
        throw new AssertionError("did not settle: " + out);
    }

    private void submit(Engine live, String name, String queue, long createdMillis) {
        Workload wl = yaml(Workload.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: %s, namespace: %s, creationTimestamp: "%s"}
                spec:
                  queueName: %s
                  podSets:
                  - name: main
                    count: 1
                    template:
                      spec:
                        containers:
                        - {name: c, image: busybox, resources: {requests: {cpu: "1"}}}
                """.formatted(name, NS, Instant.ofEpochMilli(createdMillis), queue));
        workloads.put(EngineWorkloads.key(wl), wl);
        live.submit(EngineWorkloads.toEngine(wl, EngineWorkloads.createdMillis(wl)));
    }

    /** The Workloads as the API server shows them: an admitted one carries its admission and QuotaReserved time. */
    private List<Workload> apiWorkloads(Engine live) {
        List<Workload> out = new ArrayList<>();
        for (Workload wl : workloads.values()) {
            Workload copy = Serialization.clone(wl);
            WorkloadState s = live.workload(EngineWorkloads.key(wl)).orElseThrow();
            if (s.assignment() != null) {
                WorkloadStatus status = new WorkloadStatus();
                status.setAdmission(Admissions.toApi(s.assignment()));
                Condition reserved = new ConditionBuilder().withType("QuotaReserved").withStatus("True")
                        .withReason("QuotaReserved").withLastTransitionTime(Instant.ofEpochMilli(s.admittedAtMillis())
                                .toString()).build();
                status.setConditions(new ArrayList<>(List.of(reserved)));
                copy.setStatus(status);
            }
            out.add(copy);
        }
        return out;
    }

    /** The LocalQueues with status.fairSharing.admissionFairSharingStatus as the leader writes it. */
    private List<LocalQueue> withRecordedUsage(Engine live) {
        List<LocalQueue> out = new ArrayList<>();
        for (LocalQueue lq : localQueues) {
            LocalQueue copy = Serialization.clone(lq);
            var last = live.localQueueUsageLastUpdate(NS, lq.getMetadata().getName());
            if (last.isPresent()) {
                Map<String, Quantity> consumed = new TreeMap<>();
                live.localQueueConsumedResources(NS, lq.getMetadata().getName()).orElseThrow().forEach((r, v) ->
                        consumed.put(r, new Quantity(new BigDecimal(v).setScale(3, RoundingMode.HALF_UP).toPlainString())));
                AdmissionFairSharingStatus afs = new AdmissionFairSharingStatus();
                afs.setConsumedResources(consumed);
                afs.setLastUpdate(Instant.ofEpochMilli(last.getAsLong()).toString());
                LocalQueueFairSharingStatus fs = new LocalQueueFairSharingStatus();
                fs.setAdmissionFairSharingStatus(afs);
                LocalQueueStatus status = new LocalQueueStatus();
                status.setFairSharing(fs);
                copy.setStatus(status);
            }
            out.add(copy);
        }
        return out;
    }

    /** What LiveCapture takes from the live state, in engine form. */
    private Capture capture(Engine live) {
        List<Capture.Admitted> admitted = new ArrayList<>();
        List<dev.sluice.engine.WorkloadSpec> waiting = new ArrayList<>();
        for (WorkloadKey key : workloads.keySet()) {
            WorkloadState s = live.workload(key).orElseThrow();
            if (s.assignment() != null) {
                admitted.add(new Capture.Admitted(s.spec(), s.assignment(), s.admittedAtMillis()));
            } else {
                waiting.add(s.spec());
            }
        }
        List<Capture.LocalQueueBooks> books = new ArrayList<>();
        for (LocalQueue lq : localQueues) {
            String name = lq.getMetadata().getName();
            books.add(new Capture.LocalQueueBooks(NS, name, live.localQueueConsumedResources(NS, name).orElseThrow(),
                    live.localQueueEntryPenalty(NS, name).orElseThrow(),
                    live.localQueueUsageLastUpdate(NS, name).getAsLong()));
        }
        return new Capture(T0 + MINUTE, flavors.stream().map(QueueObjects::flavor).toList(), Map.of(NS, Map.of()),
                clusterQueues.stream().map(QueueObjects::clusterQueue).toList(),
                localQueues.stream().map(QueueObjects::localQueue).toList(), admitted, waiting, new HashMap<>(),
                new HashMap<>(), cohorts.stream().map(CohortObjects::cohort).toList(), FS, AFS, books);
    }

    private static ClusterQueue borrower(String name, String weight) {
        return yaml(ClusterQueue.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: %s}
                spec:
                  cohortName: pool
                  namespaceSelector: {}
                  fairSharing: {weight: "%s"}
                  preemption: {reclaimWithinCohort: Any, withinClusterQueue: Never}
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors:
                    - name: f
                      resources:
                      - {name: cpu, nominalQuota: "0"}
                """.formatted(name, weight));
    }

    private static LocalQueue localQueue(String name, String clusterQueue) {
        return yaml(LocalQueue.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: LocalQueue
                metadata: {name: %s, namespace: %s}
                spec: {clusterQueue: %s}
                """.formatted(name, NS, clusterQueue));
    }

    private static <T> T yaml(Class<T> type, String yaml) {
        return Serialization.unmarshal(yaml, type);
    }
}
