package dev.sluice.controller.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.Admission;
import dev.sluice.api.v1beta2.PodSet;
import dev.sluice.api.v1beta2.PriorityClassRef;
import dev.sluice.api.v1beta2.RequeueState;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadSpec;
import dev.sluice.api.v1beta2.WorkloadStatus;
import dev.sluice.controller.conditions.WorkloadConditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * A finished Workload is cached as a {@link FinishedRecord} and materialised on every read; whatever the reader
 * reads is today's summary ({@link FinishedWorkloads#summary}) to the byte of its JSON, for uids, resourceVersions
 * and times that are numbers and for those that are not, through every way the store is read (get, the informer's
 * values, the controller's list), and a summary the record cannot hold is cached as the summary itself.
 */
class FinishedRecordProperties {

    /** Today's summary of a Workload as the API server sends it: stripped and compacted as the store does. */
    private static String summaryJson(String json) {
        Workload wl = Serialization.unmarshal(json, Workload.class);
        StrippedItemStore.strip(wl);
        WorkloadStore.compact(wl);
        return Serialization.asJson(FinishedWorkloads.summary(wl));
    }

    @Property(tries = 500)
    void everyReadOfAFinishedWorkloadIsItsSummary(@ForAll("finished") Workload full) {
        String json = Serialization.asJson(full);
        String expected = summaryJson(json);
        WorkloadStore store = new WorkloadStore();
        String key = Cache.metaNamespaceKeyFunc(full);
        store.put(key, Serialization.unmarshal(json, Workload.class));

        Workload read = store.get(key);
        assertThat(FinishedWorkloads.isSummary(read)).isTrue();
        assertThat(Serialization.asJson(read)).isEqualTo(expected);
        assertThat(store.values().map(Serialization::asJson).collect(Collectors.toList())).containsExactly(expected);
        assertThat(store.list()).hasSize(1);
        assertThat(Serialization.asJson(store.list().get(0))).isEqualTo(expected);
        assertThat(FinishedWorkloads.isSummary(store.list().get(0))).isTrue();
        // what the indexer and the informer's update notice see of the Workload replaced, and of one removed
        assertThat(Serialization.asJson(store.put(key, Serialization.unmarshal(json, Workload.class))))
                .isEqualTo(expected);
        assertThat(Serialization.asJson(store.remove(key))).isEqualTo(expected);
        assertThat(store.get(key)).isNull();
        assertThat(store.size()).isZero();
    }

    @Property(tries = 300)
    void aSummaryWithoutUnknownFieldsIsKeptAsARecord(@ForAll("finished") Workload full) {
        WorkloadStore store = new WorkloadStore();
        String key = Cache.metaNamespaceKeyFunc(full);
        boolean unknown = !full.getMetadata().getAdditionalProperties().isEmpty()
                || full.getStatus().getConditions().stream().anyMatch(c -> !c.getAdditionalProperties().isEmpty())
                || full.getMetadata().getOwnerReferences() != null && full.getMetadata().getOwnerReferences().stream()
                        .anyMatch(o -> !o.getAdditionalProperties().isEmpty());
        store.put(key, Serialization.unmarshal(Serialization.asJson(full), Workload.class));
        assertThat(store.isRecord(key)).isEqualTo(!unknown);
    }

    @Property(tries = 100)
    void eachReadIsANewObjectSoAReaderCannotChangeTheCache(@ForAll("finished") Workload full) {
        String json = Serialization.asJson(full);
        WorkloadStore store = new WorkloadStore();
        String key = Cache.metaNamespaceKeyFunc(full);
        store.put(key, Serialization.unmarshal(json, Workload.class));
        if (!store.isRecord(key)) {
            return;
        }
        Workload first = store.get(key);
        first.getMetadata().setResourceVersion("changed");
        first.getStatus().getConditions().clear();
        first.getSpec().setQueueName("changed");
        assertThat(Serialization.asJson(store.get(key))).isEqualTo(summaryJson(json));
    }

    // ---- generators: what the API server may send, odd values included ----

    @Provide
    Arbitrary<Workload> finished() {
        return Combinators.combine(metas(), specs(), statuses()).as((meta, spec, status) -> {
            Workload wl = new Workload();
            wl.setMetadata(meta);
            wl.setSpec(spec);
            wl.setStatus(status);
            return wl;
        });
    }

    private static Arbitrary<String> uids() {
        return Arbitraries.oneOf(Arbitraries.randomValue(r -> new java.util.UUID(r.nextLong(), r.nextLong()).toString()),
                Arbitraries.randomValue(r -> new java.util.UUID(r.nextLong(), r.nextLong()).toString().toUpperCase()),
                Arbitraries.of("uid-1", "", "0b5e1f-5d1e-4c7a-9f0e-100001", "00000000-0000-0000-0000-000000000000",
                        "0000000-00000-0000-0000-000000000000", "{12345678-1234-1234-1234-123456789012}"))
                .injectNull(0.05);
    }

    private static Arbitrary<String> times() {
        return Arbitraries.oneOf(
                Arbitraries.longs().between(-62135596800L, 253402300799L).map(s -> java.time.Instant.ofEpochSecond(s).toString()),
                Arbitraries.longs().between(0, 4_000_000_000L).map(s -> java.time.Instant.ofEpochSecond(s, 123_000_000).toString()),
                Arbitraries.of("2025-01-02T03:04:05Z", "2025-01-02T03:04:05.000Z", "2025-01-02T03:04:05+01:00",
                        "2025-01-02T03:04:05z", "2025-01-02 03:04:05Z", "not a time", "", "1970-01-01T00:00:00Z",
                        "+10000-01-01T00:00:00Z", "2025-02-30T00:00:00Z",
                        "2025-01-02T24:00:00Z", "2016-12-31T23:59:60Z")) // parsed as another text: kept as text
                .injectNull(0.05);
    }

    private Arbitrary<ObjectMeta> metas() {
        Arbitrary<String> names = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(12);
        Arbitrary<String> rvs = Arbitraries.oneOf(Arbitraries.longs().between(0, Long.MAX_VALUE).map(v -> Long.toString(v)),
                Arbitraries.of("0", "007", "-5", "abc", "", "12a", "999999999999999999999", "1e5", " 12"))
                .injectNull(0.05);
        Arbitrary<Map<String, String>> labels = Arbitraries.maps(
                Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(10), Arbitraries.strings().alpha().ofMaxLength(6))
                .ofMaxSize(20).map(LinkedHashMap::new);
        Arbitrary<List<OwnerReference>> owners = Combinators.combine(uids(), names,
                Arbitraries.of(Boolean.TRUE, Boolean.FALSE).injectNull(0.3), Arbitraries.of("batch/v1", "jobset.x-k8s.io/v1alpha2"),
                Arbitraries.of(false, false, false, true)).as((uid, name, controller, api, extra) -> {
                    OwnerReference o = new OwnerReference(api, controller, controller, "Job", name, uid);
                    if (extra) {
                        o.setAdditionalProperty("unknownField", "kept");
                    }
                    return o;
                }).list().ofMaxSize(3);
        Arbitrary<String> rare = Arbitraries.of("generateName", "selfLink", "deletionTimestamp", "grace", "finalizers",
                "noGeneration", "nullOwners", "unknownField", "nullLabels");
        return Combinators.combine(names, Arbitraries.of("team-a", "team-b", ""), uids(), rvs, times(), labels, owners,
                rare.set().ofMaxSize(3)).as((name, ns, uid, rv, created, l, o, odd) -> {
                    ObjectMeta m = new ObjectMeta();
                    m.setName(name);
                    m.setNamespace(ns);
                    m.setUid(uid);
                    m.setResourceVersion(rv);
                    m.setCreationTimestamp(created);
                    m.setGeneration(odd.contains("noGeneration") ? null : (long) (name.length() * 37));
                    m.setLabels(odd.contains("nullLabels") ? null : l);
                    Map<String, String> a = new LinkedHashMap<>(l);
                    a.put(StrippedItemStore.LAST_APPLIED, "{\"big\": true}");
                    m.setAnnotations(a);
                    m.setOwnerReferences(odd.contains("nullOwners") ? null : new ArrayList<>(o));
                    if (odd.contains("generateName")) {
                        m.setGenerateName("job-" + name + "-");
                    }
                    if (odd.contains("selfLink")) {
                        m.setSelfLink("/apis/kueue.x-k8s.io/v1beta2/namespaces/" + ns + "/workloads/" + name);
                    }
                    if (odd.contains("deletionTimestamp")) {
                        m.setDeletionTimestamp("2025-03-04T05:00:00Z");
                    }
                    if (odd.contains("grace")) {
                        m.setDeletionGracePeriodSeconds(30L);
                    }
                    if (odd.contains("finalizers")) {
                        m.setFinalizers(new ArrayList<>(List.of("kueue.x-k8s.io/resource-in-use")));
                    }
                    if (odd.contains("unknownField")) {
                        m.setAdditionalProperty("unknownField", Map.of("a", 1));
                    }
                    return m;
                });
    }

    private Arbitrary<WorkloadSpec> specs() {
        return Combinators.combine(Arbitraries.of("lq", "lq-2").injectNull(0.1),
                Arbitraries.integers().between(-1_000_000, 1_000_000).injectNull(0.3),
                Arbitraries.of(Boolean.TRUE, Boolean.FALSE).injectNull(0.5), Arbitraries.of(0, 1, 2))
                .as((queue, priority, active, classRef) -> {
                    WorkloadSpec s = new WorkloadSpec();
                    PodSet ps = new PodSet();
                    ps.setName("main");
                    ps.setCount(3);
                    s.setPodSets(new ArrayList<>(List.of(ps)));
                    s.setQueueName(queue);
                    s.setPriority(priority);
                    s.setActive(active);
                    if (classRef > 0) {
                        PriorityClassRef ref = new PriorityClassRef();
                        ref.setGroup(classRef == 1 ? "kueue.x-k8s.io" : "scheduling.k8s.io");
                        ref.setKind(classRef == 1 ? "WorkloadPriorityClass" : "PriorityClass");
                        ref.setName(classRef == 1 ? "high" : null);
                        s.setPriorityClassRef(ref);
                    }
                    return s;
                });
    }

    private Arbitrary<WorkloadStatus> statuses() {
        Arbitrary<Condition> condition = Combinators.combine(
                Arbitraries.of("QuotaReserved", "Admitted", "Evicted", "Preempted", "Requeued", "PodsReady", "Custom"),
                Arbitraries.of("True", "False", "Unknown"), Arbitraries.of("Succeeded", "Pending", "Preempted").injectNull(0.1),
                Arbitraries.strings().ofMaxLength(30).injectNull(0.1), times(),
                Arbitraries.longs().between(0, 500).injectNull(0.3), Arbitraries.of(false, false, false, false, true))
                .as((type, status, reason, message, time, generation, extra) -> {
                    Condition c = new Condition();
                    c.setType(type);
                    c.setStatus(status);
                    c.setReason(reason);
                    c.setMessage(message);
                    c.setLastTransitionTime(time);
                    c.setObservedGeneration(generation);
                    if (extra) {
                        c.setAdditionalProperty("unknownField", "kept");
                    }
                    return c;
                });
        Arbitrary<Admission> admission = Arbitraries.of("cq", "cq-2", "").injectNull(0.2).map(cq -> {
            Admission a = new Admission();
            a.setClusterQueue(cq);
            return a;
        });
        Arbitrary<RequeueState> requeue = Combinators.combine(Arbitraries.integers().between(0, 5).injectNull(0.2), times())
                .as((n, at) -> {
                    RequeueState r = new RequeueState();
                    r.setCount(n);
                    r.setRequeueAt(at);
                    return r;
                });
        return Combinators.combine(condition.list().ofMaxSize(8), times(), admission.injectNull(0.3),
                requeue.injectNull(0.7), Arbitraries.integers().between(0, 8)).as((conditions, finishedAt, a, r, at) -> {
                    WorkloadStatus s = new WorkloadStatus();
                    List<Condition> all = new ArrayList<>(conditions);
                    Condition f = new Condition();
                    f.setType(WorkloadConditions.FINISHED);
                    f.setStatus("True");
                    f.setReason("Succeeded");
                    f.setMessage("Job finished successfully");
                    f.setLastTransitionTime(finishedAt);
                    all.add(Math.min(at, all.size()), f);
                    s.setConditions(all);
                    s.setAdmission(a);
                    s.setRequeueState(r);
                    return s;
                });
    }
}
