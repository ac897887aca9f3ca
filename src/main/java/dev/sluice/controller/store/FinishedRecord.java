package dev.sluice.controller.store;

import dev.sluice.api.v1beta2.Admission;
import dev.sluice.api.v1beta2.PriorityClassRef;
import dev.sluice.api.v1beta2.RequeueState;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadSpec;
import dev.sluice.api.v1beta2.WorkloadStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A finished Workload as the Workload cache holds it: the fields of its {@linkplain FinishedWorkloads#summary
 * summary} in one small immutable object instead of fabric8's Workload, ObjectMeta, spec, status, admission, lists
 * and conditions. With a year of history these are most of the cache (250,000 stored Workloads), so each byte counts:
 * the uid is two longs, the resourceVersion a long, the creation time and every condition's time epoch seconds, each
 * only when the number gives back the very same text ({@link ExactText}), else the text is kept. Shared strings,
 * labels and annotations (packed) are the summary's own.
 * <p>
 * {@link #toWorkload} makes the summary again, anew on every read: a fabric8 Workload whose JSON is the summary's and
 * that {@link FinishedWorkloads#isSummary} tells as one, so every reader works as it did. {@link #of} refuses
 * (null) a summary with something this does not keep (an unknown field, managed fields): that one is cached as the
 * summary itself.
 */
final class FinishedRecord {

    private static final byte UID_PACKED = 1;
    private static final byte HAS_STATUS = 2;
    private static final byte HAS_ADMISSION = 4;
    private static final byte NULL_OWNERS = 8;
    private static final byte KEY_FORM = 16;

    /**
     * The store's key ({@code namespace/name}, the very string the store's map holds), or the name when the key is
     * not of that form: the name is not kept twice.
     */
    private final String keyOrName;
    private final String namespace;
    private final Map<String, String> labels;
    private final Map<String, String> annotations;
    /** null (no owner: the shared empty list), one {@link Owner}, or an Owner[]. */
    private final Object owners;
    private final List<String> finalizers;
    private final Long generation;
    private final String queueName;
    private final PriorityRef priorityClassRef;
    private final Integer priority;
    private final Boolean active;
    private final String clusterQueue;
    /** null when the status has no conditions list. */
    private final Cond[] conditions;
    /** What few finished Workloads have, and texts that are not numbers; null for most. */
    private final Rare rare;
    private final long uidHigh;
    private final long uidLow;
    private final long resourceVersion;
    private final long created;
    private final byte flags;

    /** The fields most finished Workloads do not have, and the texts kept as text. */
    private record Rare(String uid, String resourceVersion, String creationTimestamp, String generateName,
            String selfLink, String deletionTimestamp, Long deletionGracePeriodSeconds, boolean hasRequeueState,
            Integer requeueCount, String requeueAt) {
    }

    /** A priority class reference, one instance per distinct reference (there are a handful per cluster). */
    private record PriorityRef(String group, String kind, String name) {
        private static final Map<PriorityRef, PriorityRef> SHARED = new ConcurrentHashMap<>();

        static PriorityRef of(PriorityClassRef ref) {
            if (ref == null) {
                return null;
            }
            PriorityRef r = new PriorityRef(ref.getGroup(), ref.getKind(), ref.getName());
            return SHARED.computeIfAbsent(r, k -> k);
        }

        PriorityClassRef toRef() {
            PriorityClassRef ref = new PriorityClassRef();
            ref.setGroup(group);
            ref.setKind(kind);
            ref.setName(name);
            return ref;
        }
    }

    /** A condition: its time as epoch seconds ({@link TextCond} when its text is not one). */
    private static class Cond {
        final String type;
        final String status;
        final String reason;
        final String message;
        final Long observedGeneration;
        final long time;

        Cond(Condition c, long time) {
            type = c.getType();
            status = c.getStatus();
            reason = c.getReason();
            message = c.getMessage();
            observedGeneration = c.getObservedGeneration();
            this.time = time;
        }

        String timeText() {
            return ExactText.time(time);
        }

        static Cond of(Condition c) {
            long t = ExactText.seconds(c.getLastTransitionTime());
            return t == ExactText.NONE ? new TextCond(c) : new Cond(c, t);
        }

        Condition toCondition() {
            Condition c = new Condition();
            c.setType(type);
            c.setStatus(status);
            c.setReason(reason);
            c.setMessage(message);
            c.setObservedGeneration(observedGeneration);
            c.setLastTransitionTime(timeText());
            c.setAdditionalProperties(Compact.noExtras(null));
            return c;
        }
    }

    private static final class TextCond extends Cond {
        private final String timeText;

        TextCond(Condition c) {
            super(c, ExactText.NONE);
            timeText = c.getLastTransitionTime();
        }

        @Override
        String timeText() {
            return timeText;
        }
    }

    /** An owner reference: its uid as two longs ({@link TextOwner} when it is not a canonical UUID). */
    private static class Owner {
        final String apiVersion;
        final String kind;
        final String name;
        final Boolean controller;
        final Boolean blockOwnerDeletion;
        final long uidHigh;
        final long uidLow;

        Owner(OwnerReference o, UUID uid) {
            apiVersion = Compact.shared(o.getApiVersion());
            kind = Compact.shared(o.getKind());
            name = o.getName();
            controller = o.getController();
            blockOwnerDeletion = o.getBlockOwnerDeletion();
            uidHigh = uid == null ? 0 : uid.getMostSignificantBits();
            uidLow = uid == null ? 0 : uid.getLeastSignificantBits();
        }

        String uid() {
            return new UUID(uidHigh, uidLow).toString();
        }

        static Owner of(OwnerReference o) {
            UUID uid = ExactText.uuid(o.getUid());
            return uid == null ? new TextOwner(o) : new Owner(o, uid);
        }

        OwnerReference toReference() {
            OwnerReference o = new OwnerReference(apiVersion, blockOwnerDeletion, controller, kind, name, uid());
            o.setAdditionalProperties(Compact.noExtras(null));
            return o;
        }
    }

    private static final class TextOwner extends Owner {
        private final String uid;

        TextOwner(OwnerReference o) {
            super(o, null);
            uid = o.getUid();
        }

        @Override
        String uid() {
            return uid;
        }
    }

    private FinishedRecord(String key, Workload s, Object owners, Cond[] conditions) {
        ObjectMeta m = s.getMetadata();
        boolean keyForm = key != null && m.getName() != null && key.equals(keyOf(m.getNamespace(), m.getName()));
        keyOrName = keyForm ? key : m.getName();
        namespace = m.getNamespace();
        labels = m.getLabels();
        annotations = m.getAnnotations();
        this.owners = owners;
        finalizers = m.getFinalizers();
        generation = m.getGeneration();
        WorkloadSpec spec = s.getSpec();
        queueName = spec.getQueueName();
        priorityClassRef = PriorityRef.of(spec.getPriorityClassRef());
        priority = spec.getPriority();
        active = spec.getActive();
        WorkloadStatus status = s.getStatus();
        Admission admission = status == null ? null : status.getAdmission();
        clusterQueue = admission == null ? null : admission.getClusterQueue();
        this.conditions = conditions;
        UUID uid = ExactText.uuid(m.getUid());
        uidHigh = uid == null ? 0 : uid.getMostSignificantBits();
        uidLow = uid == null ? 0 : uid.getLeastSignificantBits();
        resourceVersion = ExactText.decimal(m.getResourceVersion());
        created = ExactText.seconds(m.getCreationTimestamp());
        RequeueState requeue = status == null ? null : status.getRequeueState();
        boolean rareNeeded = uid == null && m.getUid() != null
                || resourceVersion == ExactText.NONE && m.getResourceVersion() != null
                || created == ExactText.NONE && m.getCreationTimestamp() != null
                || m.getGenerateName() != null || m.getSelfLink() != null || m.getDeletionTimestamp() != null
                || m.getDeletionGracePeriodSeconds() != null || requeue != null;
        rare = !rareNeeded ? null
                : new Rare(uid == null ? m.getUid() : null,
                        resourceVersion == ExactText.NONE ? m.getResourceVersion() : null,
                        created == ExactText.NONE ? m.getCreationTimestamp() : null, m.getGenerateName(),
                        m.getSelfLink(), m.getDeletionTimestamp(), m.getDeletionGracePeriodSeconds(), requeue != null,
                        requeue == null ? null : requeue.getCount(), requeue == null ? null : requeue.getRequeueAt());
        flags = (byte) ((uid != null ? UID_PACKED : 0) | (status != null ? HAS_STATUS : 0)
                | (admission != null ? HAS_ADMISSION : 0) | (m.getOwnerReferences() == null ? NULL_OWNERS : 0)
                | (keyForm ? KEY_FORM : 0));
    }

    /** The informer's key of a Workload (fabric8's {@code Cache.metaNamespaceKeyFunc}). */
    private static String keyOf(String namespace, String name) {
        return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
    }

    /**
     * The record of a summary ({@link FinishedWorkloads#summary}) stored under {@code key}, or null when the summary
     * has something the record does not keep (then the summary itself is cached).
     */
    static FinishedRecord of(String key, Workload summary) {
        ObjectMeta m = summary.getMetadata();
        if (m == null || !FinishedWorkloads.isSummary(summary) || m.getManagedFields() != null
                || !empty(m.getAdditionalProperties())) {
            return null;
        }
        Object owners = null;
        List<OwnerReference> refs = m.getOwnerReferences();
        if (refs != null && !refs.isEmpty()) {
            Owner[] all = new Owner[refs.size()];
            for (int i = 0; i < all.length; i++) {
                OwnerReference o = refs.get(i);
                if (o == null || !empty(o.getAdditionalProperties())) {
                    return null;
                }
                all[i] = Owner.of(o);
            }
            owners = all.length == 1 ? all[0] : all;
        }
        Cond[] conditions = null;
        WorkloadStatus status = summary.getStatus();
        if (status != null && status.getConditions() != null) {
            List<Condition> list = status.getConditions();
            conditions = new Cond[list.size()];
            for (int i = 0; i < conditions.length; i++) {
                Condition c = list.get(i);
                if (c == null || !empty(c.getAdditionalProperties())) {
                    return null;
                }
                conditions[i] = Cond.of(c);
            }
        }
        return new FinishedRecord(key, summary, owners, conditions);
    }

    private static boolean empty(Map<?, ?> extras) {
        return extras == null || extras.isEmpty();
    }

    /** The summary this was made from, as a new object (a reader may hold it; nothing is shared that may change). */
    Workload toWorkload() {
        Workload wl = new Workload();
        Compact.customResource(wl);
        wl.setMetadata(meta());
        WorkloadSpec spec = new WorkloadSpec();
        spec.setQueueName(queueName);
        spec.setPriorityClassRef(priorityClassRef == null ? null : priorityClassRef.toRef());
        spec.setPriority(priority);
        spec.setActive(active);
        FinishedWorkloads.markSummary(spec);
        wl.setSpec(spec);
        if ((flags & HAS_STATUS) != 0) {
            WorkloadStatus status = new WorkloadStatus();
            status.setConditions(conditions());
            if (rare != null && rare.hasRequeueState()) {
                RequeueState r = new RequeueState();
                r.setCount(rare.requeueCount());
                r.setRequeueAt(rare.requeueAt());
                status.setRequeueState(r);
            }
            if ((flags & HAS_ADMISSION) != 0) {
                Admission admission = new Admission();
                admission.setClusterQueue(clusterQueue);
                status.setAdmission(admission);
            }
            wl.setStatus(status);
        }
        return wl;
    }

    private ObjectMeta meta() {
        ObjectMeta m = new ObjectMeta();
        m.setName(name());
        m.setNamespace(namespace);
        m.setUid((flags & UID_PACKED) != 0 ? new UUID(uidHigh, uidLow).toString() : rare == null ? null : rare.uid());
        m.setResourceVersion(resourceVersion != ExactText.NONE ? Long.toString(resourceVersion)
                : rare == null ? null : rare.resourceVersion());
        m.setCreationTimestamp(created != ExactText.NONE ? ExactText.time(created)
                : rare == null ? null : rare.creationTimestamp());
        m.setGeneration(generation);
        m.setLabels(labels);
        m.setAnnotations(annotations);
        m.setFinalizers(finalizers);
        m.setOwnerReferences(ownerReferences());
        m.setManagedFields(null);
        if (rare != null) {
            m.setGenerateName(rare.generateName());
            m.setSelfLink(rare.selfLink());
            m.setDeletionTimestamp(rare.deletionTimestamp());
            m.setDeletionGracePeriodSeconds(rare.deletionGracePeriodSeconds());
        }
        m.setAdditionalProperties(Compact.noExtras(null));
        return m;
    }

    private String name() {
        if ((flags & KEY_FORM) == 0 || namespace == null || namespace.isEmpty()) {
            return keyOrName;
        }
        return keyOrName.substring(namespace.length() + 1);
    }

    private List<OwnerReference> ownerReferences() {
        if ((flags & NULL_OWNERS) != 0) {
            return null;
        }
        if (owners == null) {
            return Collections.emptyList();
        }
        if (owners instanceof Owner one) {
            List<OwnerReference> list = new ArrayList<>(1);
            list.add(one.toReference());
            return list;
        }
        Owner[] all = (Owner[]) owners;
        List<OwnerReference> list = new ArrayList<>(all.length);
        for (Owner o : all) {
            list.add(o.toReference());
        }
        return list;
    }

    private List<Condition> conditions() {
        if (conditions == null) {
            return null;
        }
        List<Condition> list = new ArrayList<>(conditions.length);
        for (Cond c : conditions) {
            list.add(c.toCondition());
        }
        return list;
    }
}
