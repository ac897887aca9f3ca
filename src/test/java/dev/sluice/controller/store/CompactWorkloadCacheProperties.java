package dev.sluice.controller.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.Admission;
import dev.sluice.api.v1beta2.PodSet;
import dev.sluice.api.v1beta2.PodSetAssignment;
import dev.sluice.api.v1beta2.PriorityClassRef;
import dev.sluice.api.v1beta2.RequeueState;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadSpec;
import dev.sluice.api.v1beta2.WorkloadStatus;
import dev.sluice.bridge.EngineRebuild;
import dev.sluice.bridge.EngineWorkloads;
import dev.sluice.bridge.InvalidObjectException;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.controller.conditions.WorkloadConditions;
import dev.sluice.controller.session.WorkloadRetention;
import dev.sluice.controller.write.Writes;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The Workload cache keeps less than the API server sends (no pod sets but in the engine form, labels and annotations
 * packed; of a finished Workload only a summary), yet every question the controller asks of a cached Workload gets
 * the answer the full object gives, pending, admitted or finished, and a status write computed from the cache is the
 * very patch computed from the full object.
 */
class CompactWorkloadCacheProperties {

    private static final Instant NOW = Instant.parse("2025-03-04T05:06:07Z");
    private static final List<String> TYPES = List.of(WorkloadConditions.QUOTA_RESERVED, WorkloadConditions.ADMITTED,
            WorkloadConditions.EVICTED, WorkloadConditions.PREEMPTED, WorkloadConditions.REQUEUED,
            WorkloadConditions.FINISHED, "PodsReady", WorkloadConditions.WRITE_FAILED);

    /** Everything the controller's readers take from a cached Workload (WorkloadSync, JobSync, retention, forecast,
     * dashboard, visibility, the engine's start-up), each as the reader computes it. */
    private static Map<String, Object> readings(Workload wl) {
        Map<String, Object> r = new LinkedHashMap<>();
        ObjectMeta m = wl.getMetadata();
        r.put("apiVersion", wl.getApiVersion());
        r.put("kind", wl.getKind());
        r.put("crdName", wl.getCRDName());
        r.put("plural", wl.getPlural());
        r.put("key", EngineWorkloads.key(wl));
        r.put("uid", m.getUid());
        r.put("resourceVersion", m.getResourceVersion());
        r.put("generation", m.getGeneration());
        r.put("created", EngineWorkloads.createdMillis(wl));
        r.put("deletionTimestamp", m.getDeletionTimestamp());
        r.put("labels", m.getLabels());
        // kubectl's last-applied copy is dropped from every cached object and read by nothing
        Map<String, String> annotations = m.getAnnotations() == null ? null : new LinkedHashMap<>(m.getAnnotations());
        if (annotations != null) {
            annotations.remove(StrippedItemStore.LAST_APPLIED);
        }
        r.put("annotations", annotations);
        r.put("owners", Serialization.asJson(m.getOwnerReferences()));
        r.put("ownerKeys", ClusterCache.ownerKeys(wl));
        r.put("finalizers", m.getFinalizers());
        r.put("queueName", wl.getSpec() == null ? null : wl.getSpec().getQueueName());
        r.put("priority", wl.getSpec() == null ? null : wl.getSpec().getPriority());
        r.put("priorityClassRef", wl.getSpec() == null ? null : Serialization.asJson(wl.getSpec().getPriorityClassRef()));
        r.put("active", wl.getSpec() == null ? null : wl.getSpec().getActive());
        for (String type : TYPES) {
            r.put("isTrue " + type, WorkloadConditions.isTrue(wl, type));
            Condition c = WorkloadConditions.find(wl, type);
            r.put("condition " + type, c == null ? null : Serialization.asJson(c));
        }
        r.put("hasReservation", WorkloadConditions.hasReservation(wl));
        r.put("mayRun", WorkloadConditions.mayRun(wl));
        r.put("deactivated", WorkloadConditions.deactivated(wl));
        r.put("clusterQueue", wl.getStatus() == null || wl.getStatus().getAdmission() == null ? null
                : wl.getStatus().getAdmission().getClusterQueue());
        r.put("requeueState", wl.getStatus() == null ? null : Serialization.asJson(wl.getStatus().getRequeueState()));
        r.put("invalidJob", InvalidJobWorkloads.problem(wl));
        WorkloadRetention retention = new WorkloadRetention(Duration.ofHours(1), Duration.ofMinutes(30));
        r.put("retention", retention.expiry(wl));
        r.put("holdsQuota", WorkloadRetention.holdsQuota(wl, Optional.empty()));
        r.put("deactivatedByKueue", WorkloadRetention.deactivatedByKueue(wl));
        r.put("reservedAt", EngineRebuild.reservedAt(wl));
        return r;
    }

    /**
     * What is read of a Workload that is not finished, besides {@link #readings}: its pod sets and admission as
     * JobSync starts its job (names, counts, flavors), WorkloadSync and the engine's rebuild take the admission
     * ({@code Admissions.fromApi}). {@code podSets} is what the reader gets: from the store for a cached Workload.
     */
    private static Map<String, Object> liveReadings(Workload wl, List<WorkloadStore.PodSetCount> podSets) {
        Map<String, Object> r = readings(wl);
        r.put("podSets", podSets);
        r.put("admission", wl.getStatus() == null ? null : Serialization.asJson(wl.getStatus().getAdmission()));
        return r;
    }

    /**
     * What is kept of a Workload that is not finished: all of it but the dropped fields (its pod sets when the engine
     * form has them, else their templates).
     */
    private static String unfinishedReadings(Workload wl, boolean inEngineForm) {
        Workload copy = Serialization.clone(wl);
        if (inEngineForm) {
            copy.getSpec().setPodSets(List.of());
        } else {
            copy.getSpec().getPodSets().forEach(ps -> ps.setTemplate(null));
        }
        copy.getMetadata().setManagedFields(null);
        copy.getMetadata().getAnnotations().remove(StrippedItemStore.LAST_APPLIED);
        return Serialization.asJson(copy);
    }

    @Property(tries = 300)
    void theCacheAnswersWhatTheFullObjectAnswers(@ForAll("workloads") Workload full) {
        String json = Serialization.asJson(full);
        Workload fromApi = Serialization.unmarshal(json, Workload.class);
        WorkloadStore store = new WorkloadStore();
        String key = Cache.metaNamespaceKeyFunc(fromApi);
        store.put(key, Serialization.unmarshal(json, Workload.class));
        Workload cached = store.get(key);

        assertThat(readings(cached)).isEqualTo(readings(fromApi));
        boolean finished = WorkloadConditions.isTrue(fromApi, WorkloadConditions.FINISHED);
        assertThat(FinishedWorkloads.isSummary(cached)).isEqualTo(finished);
        if (finished) {
            // no engine form: a finished Workload is never queued again (WorkloadSync stops before reading it)
            assertThat(store.derived(fromApi.getMetadata().getNamespace(), fromApi.getMetadata().getName())).isNull();
            assertThat(cached.getSpec().getPodSets()).isEmpty();
        } else {
            assertThat(liveReadings(cached, store.podSets(cached)))
                    .isEqualTo(liveReadings(fromApi, WorkloadStore.podSetsOf(fromApi)));
            WorkloadStore.Derived d = store.derived(fromApi.getMetadata().getNamespace(), fromApi.getMetadata().getName());
            assertThat(Serialization.asJson(cached)).isEqualTo(unfinishedReadings(fromApi, d.spec() != null));
            assertThat(d.resourceVersion()).isEqualTo(fromApi.getMetadata().getResourceVersion());
            if (InvalidJobWorkloads.problem(fromApi) != null) { // a placeholder for an invalid job: never queued
                assertThat(d.spec()).isNull();
                assertThat(d.problem()).isEqualTo(InvalidJobWorkloads.problem(fromApi));
                return;
            }
            try {
                assertThat(d.spec()).isEqualTo(EngineWorkloads.toEngine(fromApi, EngineWorkloads.createdMillis(fromApi)));
            } catch (InvalidObjectException | IllegalArgumentException e) {
                assertThat(d.problem()).isEqualTo(e.getMessage());
            }
        }
    }

    @Property(tries = 300)
    void aStatusWriteFromTheCacheIsThePatchFromTheFullObject(@ForAll("workloads") Workload full,
            @ForAll("changes") UnaryOperator<Workload> change) {
        String json = Serialization.asJson(full);
        Workload fromApi = Serialization.unmarshal(json, Workload.class);
        WorkloadStore store = new WorkloadStore();
        String key = Cache.metaNamespaceKeyFunc(fromApi);
        store.put(key, Serialization.unmarshal(json, Workload.class));
        List<String> reads = new ArrayList<>();

        Workload base = Writes.writeBase(store.get(key), (ns, name) -> {
            reads.add(ns + "/" + name);
            return Serialization.unmarshal(json, Workload.class); // the API server's copy
        });
        String fromCache = Writes.statusPatch(base, change.apply(Serialization.clone(base))).toString();
        String fromFull = Writes.statusPatch(fromApi, change.apply(Serialization.clone(fromApi))).toString();

        assertThat(fromCache).isEqualTo(fromFull);
        // the API server is asked only for a finished Workload's whole object, never for one cached whole
        assertThat(reads).hasSize(WorkloadConditions.isTrue(fromApi, WorkloadConditions.FINISHED) ? 1 : 0);
    }

    @Property(tries = 100)
    void aWorkloadNoLongerFinishedIsCachedWholeAgain(@ForAll("workloads") Workload full) {
        WorkloadStore store = new WorkloadStore();
        String key = Cache.metaNamespaceKeyFunc(full);
        Workload finished = WorkloadConditions.finish(Serialization.clone(full), "Succeeded", "done", NOW);
        store.put(key, finished);
        assertThat(FinishedWorkloads.isSummary(store.get(key))).isTrue();

        Workload again = Serialization.clone(full);
        if (again.getStatus() != null && again.getStatus().getConditions() != null) {
            again.getStatus().getConditions().removeIf(c -> c.getType().equals(WorkloadConditions.FINISHED));
        }
        String json = Serialization.asJson(again);
        store.put(key, again);
        assertThat(FinishedWorkloads.isSummary(store.get(key))).isFalse();
        Workload fromApi = Serialization.unmarshal(json, Workload.class);
        assertThat(liveReadings(store.get(key), store.podSets(store.get(key))))
                .isEqualTo(liveReadings(fromApi, WorkloadStore.podSetsOf(fromApi)));
        assertThat(store.derived(full.getMetadata().getNamespace(), full.getMetadata().getName())).isNotNull();
    }

    // ---- generators ----

    @Provide
    Arbitrary<UnaryOperator<Workload>> changes() {
        Admission admission = new Admission();
        admission.setClusterQueue("cq-new");
        PodSetAssignment a = new PodSetAssignment();
        a.setName("main");
        a.setFlavors(Map.of("cpu", "on-demand"));
        a.setResourceUsage(Map.of("cpu", new Quantity("2")));
        admission.setPodSetAssignments(List.of(a));
        return Arbitraries.of(List.of(
                wl -> WorkloadConditions.admit(wl, admission, "Quota reserved in ClusterQueue cq-new", NOW),
                wl -> WorkloadConditions.evict(wl, "Preempted", "InClusterQueue", "Preempted to accommodate", NOW),
                wl -> WorkloadConditions.requeue(wl, NOW),
                wl -> WorkloadConditions.pending(wl, "Pending", "couldn't assign flavors: 3 more needed", NOW),
                wl -> WorkloadConditions.finish(wl, "Succeeded", "Job finished successfully", NOW),
                wl -> WorkloadConditions.writeFailed(wl, "forbidden", NOW),
                wl -> WorkloadConditions.writeFailed(wl, null, NOW),
                wl -> wl)); // nothing changes: the precondition alone (and no write)
    }

    @Provide
    Arbitrary<Workload> workloads() {
        return Combinators.combine(metas(), specs(), statuses()).as((meta, spec, status) -> {
            Workload wl = new Workload();
            wl.setMetadata(meta);
            wl.setSpec(spec);
            wl.setStatus(status);
            return wl;
        });
    }

    private Arbitrary<ObjectMeta> metas() {
        Arbitrary<String> names = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(8);
        return Combinators.combine(names, Arbitraries.of("team-a", "team-b"), Arbitraries.integers().between(1, 99999),
                Arbitraries.integers().between(0, 3), Arbitraries.of(false, true), Arbitraries.of(false, true),
                Arbitraries.of(false, true)).as((name, ns, rv, labels, owned, placeholder, deleting) -> {
                    ObjectMeta m = new ObjectMeta();
                    m.setName(name);
                    m.setNamespace(ns);
                    m.setUid("uid-" + name + "-" + rv);
                    m.setResourceVersion(Integer.toString(rv));
                    m.setGeneration((long) (rv % 3 + 1));
                    m.setCreationTimestamp("2025-01-02T03:04:0" + (rv % 10) + "Z");
                    Map<String, String> l = new LinkedHashMap<>();
                    for (int i = 0; i < labels; i++) {
                        l.put(i == 0 ? WellKnown.JOB_UID : "label-" + i, "v" + (rv % (i + 2)));
                    }
                    m.setLabels(l);
                    Map<String, String> a = new LinkedHashMap<>();
                    a.put(StrippedItemStore.LAST_APPLIED, "{\"big\": true}");
                    a.put("sluice.dev/forecast", "in 5m");
                    if (placeholder) {
                        a.put(InvalidJobWorkloads.INVALID_JOB, "the job asks for no pods");
                    }
                    m.setAnnotations(a);
                    ManagedFieldsEntry f = new ManagedFieldsEntry();
                    f.setManager("kubectl");
                    m.setManagedFields(List.of(f));
                    if (owned) {
                        OwnerReference o = new OwnerReference("batch/v1", true, true, "Job", "job-" + name, "job-uid-" + rv);
                        m.setOwnerReferences(List.of(o));
                        m.setFinalizers(List.of("kueue.x-k8s.io/resource-in-use"));
                    }
                    if (deleting) {
                        m.setDeletionTimestamp("2025-03-04T05:00:00Z");
                    }
                    return m;
                });
    }

    private Arbitrary<WorkloadSpec> specs() {
        Arbitrary<PodSet> podSet = Combinators.combine(Arbitraries.integers().between(0, 5),
                Arbitraries.of("100m", "1", "2500m", "-1"), Arbitraries.of("main", "worker", "launcher"))
                .as((count, cpu, name) -> {
                    PodSet ps = new PodSet();
                    ps.setName(name);
                    ps.setCount(count);
                    ps.setTemplate(new PodTemplateSpecBuilder().withNewSpec().withContainers(new ContainerBuilder()
                            .withName("c").withImage("busybox").withNewResources().addToRequests("cpu", new Quantity(cpu))
                            .endResources().build()).withRestartPolicy("Never").endSpec().build());
                    return ps;
                });
        return Combinators.combine(podSet.list().ofMinSize(1).ofMaxSize(3).uniqueElements(PodSet::getName),
                Arbitraries.of("lq", "lq-2"), Arbitraries.integers().between(-5, 100).injectNull(0.3),
                Arbitraries.of(Boolean.TRUE, Boolean.FALSE).injectNull(0.5), Arbitraries.of(false, true))
                .as((podSets, queue, priority, active, classRef) -> {
                    WorkloadSpec s = new WorkloadSpec();
                    s.setPodSets(new ArrayList<>(podSets));
                    s.setQueueName(queue);
                    s.setPriority(priority);
                    s.setActive(active);
                    if (classRef) {
                        PriorityClassRef ref = new PriorityClassRef();
                        ref.setGroup("kueue.x-k8s.io");
                        ref.setKind("WorkloadPriorityClass");
                        ref.setName("high");
                        s.setPriorityClassRef(ref);
                    }
                    return s;
                });
    }

    private Arbitrary<WorkloadStatus> statuses() {
        Arbitrary<Condition> condition = Combinators.combine(Arbitraries.of(TYPES), Arbitraries.of("True", "False"),
                Arbitraries.of("Succeeded", "Pending", "DeactivatedDueToRequeuingLimitExceeded", "Deactivated", "Preempted"),
                Arbitraries.integers().between(0, 59)).as((type, status, reason, second) -> {
                    Condition c = new Condition();
                    c.setType(type);
                    c.setStatus(status);
                    c.setReason(reason);
                    c.setMessage("message of " + type + " " + (second % 4));
                    c.setLastTransitionTime("2025-03-04T04:0" + (second % 10) + ":" + (10 + second % 50) + "Z");
                    c.setObservedGeneration(1L);
                    return c;
                });
        Arbitrary<Admission> admission = Combinators.combine(Arbitraries.of("cq", "cq-2"),
                Arbitraries.of("default", "spot")).as((cq, flavor) -> {
                    Admission a = new Admission();
                    a.setClusterQueue(cq);
                    PodSetAssignment p = new PodSetAssignment();
                    p.setName("main");
                    p.setFlavors(new LinkedHashMap<>(Map.of("cpu", flavor)));
                    p.setResourceUsage(new LinkedHashMap<>(Map.of("cpu", new Quantity("1500m"))));
                    a.setPodSetAssignments(List.of(p));
                    return a;
                });
        Arbitrary<RequeueState> requeue = Arbitraries.integers().between(1, 5).map(n -> {
            RequeueState r = new RequeueState();
            r.setCount(n);
            r.setRequeueAt("2025-03-04T06:00:0" + n + "Z");
            return r;
        });
        Arbitrary<WorkloadStatus> some = Combinators.combine(
                condition.list().ofMaxSize(5).uniqueElements(Condition::getType), admission.injectNull(0.4),
                requeue.injectNull(0.7), Arbitraries.of(false, true)).as((conditions, a, r, finished) -> {
                    WorkloadStatus s = new WorkloadStatus();
                    s.setConditions(new ArrayList<>(conditions));
                    if (finished) { // half of them: a year of history is mostly finished Workloads
                        s.getConditions().removeIf(c -> c.getType().equals(WorkloadConditions.FINISHED));
                        Condition f = new Condition();
                        f.setType(WorkloadConditions.FINISHED);
                        f.setStatus("True");
                        f.setReason("Succeeded");
                        f.setMessage("Job finished successfully");
                        f.setLastTransitionTime("2025-03-04T05:00:00Z");
                        s.getConditions().add(f);
                    }
                    s.setAdmission(a);
                    s.setRequeueState(r);
                    return s;
                });
        return some.injectNull(0.1);
    }
}
