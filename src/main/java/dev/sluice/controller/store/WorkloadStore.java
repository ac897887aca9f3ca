package dev.sluice.controller.store;

import dev.sluice.api.v1beta2.Admission;
import dev.sluice.api.v1beta2.PodSet;
import dev.sluice.api.v1beta2.PodSetAssignment;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadSpec;
import dev.sluice.api.v1beta2.WorkloadStatus;
import dev.sluice.bridge.EngineWorkloads;
import dev.sluice.bridge.InvalidObjectException;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The Workload cache keeps what decisions read and nothing more: as each Workload arrives its pod sets are turned
 * into the engine's compact form (name, count, demand per pod, placement constraints), and the cached object keeps
 * no pod sets of its own: the engine form is the only copy ({@link #podSets} answers from it). The rare reader of a
 * template (restoring a stopped job) reads the Workload from the API server. A Workload without an engine form (it
 * cannot be queued) keeps its pod sets without templates. What the cached object keeps is its metadata (key, uid,
 * resourceVersion, labels, annotations, owners), queue, priority, {@code active}, and its status (conditions,
 * admission, requeueState): what the controller's readers and the status writes read. A status write is computed
 * on the cached object and is the patch the whole object would give, as it changes status only.
 * A finished Workload is kept smaller still: its {@linkplain FinishedWorkloads summary}, held as a
 * {@link FinishedRecord} (no fabric8 objects) and made into the summary anew on every read ({@link #get},
 * {@link #values}, {@link #list}); readers get a new object each time, so none may rely on two reads of a finished
 * Workload being one object (none does), and changing one changes nothing cached. What stays is compacted (shared strings,
 * labels and annotations in one array each, exact-size lists), and an update that leaves the engine form as it was
 * keeps the earlier instance, so the cache and the engine hold one copy of it.
 */
public final class WorkloadStore extends StrippedItemStore<Workload> {

    /** The engine's view of one Workload version, or why it cannot be queued. */
    public record Derived(String resourceVersion, dev.sluice.engine.WorkloadSpec spec, String problem) {
    }

    /** A pod set as a reader of the cache sees it: its name and number of pods (the API server's defaults applied). */
    public record PodSetCount(String name, int count) {
    }

    /**
     * The pod sets of every cached Workload that has an engine form: this one instance, so that such a Workload is
     * told by identity (its pod sets are read from the engine form, see {@link #podSets}).
     */
    private static final List<PodSet> IN_ENGINE_FORM = Collections.unmodifiableList(new ArrayList<>());

    private final Map<String, Derived> derived = new ConcurrentHashMap<>();
    /** What is kept of each Workload, by key: the Workload, or the {@link FinishedRecord} of a finished one. */
    private final Map<String, Object> kept = new ConcurrentHashMap<>();

    /**
     * A finished Workload is kept as its {@linkplain FinishedWorkloads#summary summary}, without an engine form: it
     * holds no quota and is never queued again. Any other Workload is kept without its pod templates.
     */
    @Override
    Workload toStored(String key, Workload wl) {
        if (wl.getSpec() != null && wl.getSpec().getPodSets() == IN_ENGINE_FORM) {
            return wl; // this very object was stored before (the informer never does that; a test may)
        }
        compact(wl); // first, so that the engine form and the summary refer to the shared strings
        if (FinishedWorkloads.isFinished(wl)) {
            derived.remove(key);
            return FinishedWorkloads.summary(wl);
        }
        derive(key, wl);
        return wl;
    }

    /**
     * The pod sets of a cached Workload, in its order: from the engine form when the cached object keeps none of its
     * own; null when neither has them (a Workload removed meanwhile: read it from the API server).
     */
    public List<PodSetCount> podSets(Workload cached) {
        if (cached.getSpec() == null) {
            return null;
        }
        if (cached.getSpec().getPodSets() != IN_ENGINE_FORM) {
            return podSetsOf(cached);
        }
        Derived d = derived.get(Cache.metaNamespaceKeyFunc(cached));
        if (d == null || d.spec() == null) {
            return null;
        }
        List<PodSetCount> out = new ArrayList<>();
        d.spec().podSets().forEach(ps -> out.add(new PodSetCount(ps.name(), ps.count())));
        return out;
    }

    /** The pod sets of a Workload that has them (as the API server has it), its defaults applied as the engine does. */
    public static List<PodSetCount> podSetsOf(Workload wl) {
        if (wl.getSpec() == null || wl.getSpec().getPodSets() == null) {
            return null;
        }
        List<PodSetCount> out = new ArrayList<>();
        for (PodSet ps : wl.getSpec().getPodSets()) {
            out.add(new PodSetCount(ps.getName() == null ? "main" : ps.getName(), ps.getCount() == null ? 1 : ps.getCount()));
        }
        return out;
    }

    private void derive(String key, Workload wl) {
        String invalidJob = InvalidJobWorkloads.problem(wl);
        Derived d = invalidJob != null
                ? new Derived(wl.getMetadata().getResourceVersion(), null, invalidJob) // never queued: see InvalidJobWorkloads
                : derive(wl);
        Derived before = derived.get(key);
        if (before != null && d.spec() != null && d.spec().equals(before.spec())) {
            // most updates are status writes: keep the one engine form the engine already holds, not an equal copy
            d = new Derived(d.resourceVersion(), before.spec(), null);
        }
        derived.put(key, d);
        if (wl.getSpec() == null || wl.getSpec().getPodSets() == null) {
            return;
        }
        if (d.spec() != null) {
            wl.getSpec().setPodSets(IN_ENGINE_FORM); // the engine form has them: names, counts, demand
            return;
        }
        for (PodSet ps : wl.getSpec().getPodSets()) {
            ps.setTemplate(null);
        }
    }

    /**
     * Spec and status with shared strings and exact-size lists (see {@link Compact}), labels, annotations and the
     * admission's maps packed ({@link PackedMap}); the base did the rest of the metadata.
     */
    static void compact(Workload wl) {
        Compact.customResource(wl);
        if (wl.getMetadata() != null) {
            wl.getMetadata().setLabels(Compact.packed(wl.getMetadata().getLabels(), Compact::shared));
            wl.getMetadata().setAnnotations(Compact.packed(wl.getMetadata().getAnnotations(), Compact::shared));
        }
        WorkloadSpec spec = wl.getSpec();
        if (spec != null) {
            spec.setQueueName(Compact.shared(spec.getQueueName()));
            if (spec.getPriorityClassRef() != null) {
                var ref = spec.getPriorityClassRef();
                ref.setGroup(Compact.shared(ref.getGroup()));
                ref.setKind(Compact.shared(ref.getKind()));
                ref.setName(Compact.shared(ref.getName()));
            }
            if (spec.getPodSets() != null) {
                spec.getPodSets().forEach(ps -> ps.setName(Compact.shared(ps.getName())));
                Compact.trim(spec.getPodSets());
            }
        }
        WorkloadStatus status = wl.getStatus();
        if (status == null) {
            return;
        }
        Compact.conditions(status.getConditions());
        Admission admission = status.getAdmission();
        if (admission != null) {
            admission.setClusterQueue(Compact.shared(admission.getClusterQueue()));
            if (admission.getPodSetAssignments() != null) {
                for (PodSetAssignment a : admission.getPodSetAssignments()) {
                    a.setName(Compact.shared(a.getName()));
                    a.setFlavors(Compact.packed(a.getFlavors(), Compact::shared));
                    a.setResourceUsage(Compact.packed(a.getResourceUsage(), Compact::quantity));
                }
                Compact.trim(admission.getPodSetAssignments());
            }
        }
        if (status.getRequeueState() != null) {
            status.getRequeueState().setRequeueAt(Compact.shared(status.getRequeueState().getRequeueAt()));
        }
    }

    private static Derived derive(Workload wl) {
        try {
            return new Derived(wl.getMetadata().getResourceVersion(),
                    EngineWorkloads.toEngine(wl, EngineWorkloads.createdMillis(wl)), null);
        } catch (InvalidObjectException | IllegalArgumentException e) {
            return new Derived(wl.getMetadata().getResourceVersion(), null, e.getMessage());
        }
    }

    /**
     * A finished Workload's summary is kept as its {@link FinishedRecord} (the summary itself when the record cannot
     * hold it, see {@link FinishedRecord#of}); any other Workload as the object. The base's own map stays empty.
     */
    @Override
    Workload keep(String key, Workload stored) {
        Object form = stored;
        if (FinishedWorkloads.isSummary(stored)) {
            FinishedRecord record = FinishedRecord.of(key, stored);
            if (record != null) {
                form = record;
            }
        }
        return asWorkload(kept.put(key, form));
    }

    /** The Workload a stored form stands for: a record is materialised anew (a summary), anything else is itself. */
    private static Workload asWorkload(Object form) {
        return form instanceof FinishedRecord r ? r.toWorkload() : (Workload) form;
    }

    @Override
    public Workload get(String key) {
        return asWorkload(kept.get(key));
    }

    @Override
    public Workload remove(String key) {
        derived.remove(key);
        return asWorkload(kept.remove(key));
    }

    @Override
    public Stream<String> keySet() {
        return kept.keySet().stream();
    }

    /**
     * Every cached Workload, each finished one materialised as it is reached; collected into a list (as fabric8's
     * informer does, see {@link ListingStream}) it is {@link #list}, which materialises an element when it is read.
     */
    @Override
    public Stream<Workload> values() {
        return new ListingStream<>(kept.values().stream().map(WorkloadStore::asWorkload), this::list);
    }

    @Override
    public int size() {
        return kept.size();
    }

    /**
     * Not the full state as fabric8 means it (as its own ReducedStateItemStore): the informer then hands each Workload
     * of its initial list to the handler as it is put, instead of keeping their keys until the list ends and then
     * reading every one back ({@code getByKey}) into a notice queued for the handler. With 250,000 finished Workloads
     * that read-back made as many summaries (about 0.8 KiB each) while the handler's thread caught up, and filled the
     * heap at the moment the controller started. The handler only queues a reference for the engine loop, which
     * starts from the synced cache anyway.
     */
    @Override
    public boolean isFullState() {
        return false;
    }

    /**
     * Every cached Workload as a list that materialises a finished one each time it is read ({@code get(i)}), so a
     * reader walking a quarter of a million finished Workloads holds one at a time, not all of them anew. The list is
     * of the Workloads cached when it was made (a later change is not seen) and cannot be changed.
     */
    public List<Workload> list() {
        Object[] forms = kept.values().toArray();
        return new Materialising(forms);
    }

    private static final class Materialising extends AbstractList<Workload> implements RandomAccess {
        private final Object[] forms;

        Materialising(Object[] forms) {
            this.forms = forms;
        }

        @Override
        public Workload get(int index) {
            return asWorkload(forms[index]);
        }

        @Override
        public int size() {
            return forms.length;
        }
    }

    /**
     * Every cached Workload that has not finished, without making a Workload of any finished one: what a reader of
     * live work walks (the forecast's capture) in a cache that is mostly history.
     */
    public List<Workload> unfinished() {
        List<Workload> out = new ArrayList<>();
        for (Object form : kept.values()) {
            if (form instanceof Workload wl && !FinishedWorkloads.isSummary(wl)) {
                out.add(wl);
            }
        }
        return out;
    }

    /** Whether the Workload of this key is kept as a {@link FinishedRecord} (for tests and the cost benchmark). */
    boolean isRecord(String key) {
        return kept.get(key) instanceof FinishedRecord;
    }

    public Derived derived(String namespace, String name) {
        return derived.get(Cache.namespaceKeyFunc(namespace, name));
    }
}
