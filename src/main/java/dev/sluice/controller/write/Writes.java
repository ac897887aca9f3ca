package dev.sluice.controller.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.store.FinishedWorkloads;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.JsonDiff;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Every write Sluice makes, each with a resourceVersion precondition (no server-side apply): status by JSON patch of the
 * status subresource, jobs by JSON patch that sets the resourceVersion they were computed from. A stale cache shows as a
 * conflict (409, and only 409); status writes then re-read and retry, job writes give up and let the next event
 * converge. Any other refusal is a real failure that the caller reports ({@link WriteFailures}).
 */
public final class Writes {

    private static final int STATUS_ATTEMPTS = 4;

    private final KubernetesClient client;

    public Writes(KubernetesClient client) {
        this.client = client;
    }

    /**
     * Only 409 is a conflict (a stale resourceVersion, or the object already exists). 422 means the server refused what
     * was written (validation) and a retry with the same content fails again.
     */
    public static boolean isConflict(KubernetesClientException e) {
        return e.getCode() == 409;
    }

    /**
     * The object written is gone (404 naming it). A 404 for a path the server does not serve at all (a missing status
     * subresource, a CRD not installed) is a refusal, not a deletion: the API server says "the server could not find
     * the requested resource" then.
     */
    public static boolean isNotFound(KubernetesClientException e) {
        return e.getCode() == 404 && !serverMessage(e).contains("could not find the requested resource");
    }

    /** What the API server said: its Status message, else the client's. */
    static String serverMessage(KubernetesClientException e) {
        if (e.getStatus() != null && e.getStatus().getMessage() != null && !e.getStatus().getMessage().isBlank()) {
            return e.getStatus().getMessage();
        }
        return String.valueOf(e.getMessage());
    }

    /** The outcome of a status write: the latest object (null: it is gone) and whether this call changed it. */
    public record Written(Workload workload, boolean changed) {
        public boolean gone() {
            return workload == null;
        }
    }

    /**
     * Applies {@code change} to a copy of the Workload and writes its status if that changed it. On a conflict the
     * Workload is re-read and the change applied again, so a change already made by an earlier write is not made
     * (nor reported) twice.
     */
    public Written workloadStatus(Workload current, UnaryOperator<Workload> change) {
        Workload base = writeBase(current, this::readWorkload);
        if (base == null) {
            return new Written(null, false);
        }
        for (int attempt = 1;; attempt++) {
            Workload next = change.apply(Serialization.clone(base));
            if (Objects.equals(json(base.getStatus()), json(next.getStatus()))) {
                return new Written(base, false);
            }
            try {
                return new Written(statusPatch(Workload.class, base, next), true);
            } catch (KubernetesClientException e) {
                if (isNotFound(e)) {
                    return new Written(null, false);
                }
                if (!isConflict(e) || attempt >= STATUS_ATTEMPTS) {
                    throw e;
                }
                base = client.resources(Workload.class).inNamespace(base.getMetadata().getNamespace())
                        .withName(base.getMetadata().getName()).get();
                if (base == null) {
                    return new Written(null, false);
                }
            }
        }
    }

    /**
     * What a status change is computed on: the cached Workload, or, for a finished Workload's cached summary (which
     * lacks what a change may touch, e.g. the pod-set assignments), the whole object read from the API server.
     */
    public static Workload writeBase(Workload cached, java.util.function.BiFunction<String, String, Workload> read) {
        return FinishedWorkloads.isSummary(cached)
                ? read.apply(cached.getMetadata().getNamespace(), cached.getMetadata().getName())
                : cached;
    }

    /** Writes a queue's status when it differs; a conflict is left to the next pass (the cache catches up). */
    @SuppressWarnings("unchecked")
    public <T extends HasMetadata> void queueStatus(T current, T next, Object currentStatus, Object nextStatus) {
        if (Objects.equals(json(currentStatus), json(nextStatus))) {
            return;
        }
        try {
            statusPatch((Class<T>) next.getClass(), current, next);
        } catch (KubernetesClientException e) {
            if (!isConflict(e) && !isNotFound(e)) {
                throw e;
            }
        }
    }

    /**
     * Writes the difference between two states of a job as one JSON patch, guarded by the resourceVersion.
     *
     * @throws KubernetesClientException 409 when the job changed meanwhile; any other code is a refusal
     */
    public void jobPatch(JobKind kind, GenericKubernetesResource before, GenericKubernetesResource after) {
        ArrayNode patch = JobWrites.patch(before, after);
        if (patch.isEmpty()) {
            return;
        }
        try {
            client.genericKubernetesResources(kind.resourceContext())
                    .inNamespace(before.getMetadata().getNamespace()).resource(stub(before))
                    .patch(PatchContext.of(PatchType.JSON), patch.toString());
        } catch (KubernetesClientException e) {
            throw new RefusedWrite(e, RefusedWrite.jsonPatch(patch));
        }
    }

    /**
     * Clears a batch/v1 Job's {@code status.startTime} (status subresource, guarded by the resourceVersion): before
     * Kubernetes 1.36 the API server lets a Job's pod template change only while it is suspended and has no start time
     * ({@code pkg/registry/batch/job/strategy.go}), so a stopped Job's templates can be restored only after this. A
     * client may clear it while the Job is suspended ({@code ValidateJobUpdateStatus}: only an unsuspended Job's start
     * time is kept).
     *
     * <p>A JSON merge patch, not a JSON patch: on 1.36 the Job controller clears the start time of a suspended Job
     * itself, and a JSON patch {@code remove} of a path that is gone fails to apply (422, before the resourceVersion
     * is even compared). A merge patch's {@code null} applies to an absent field too; the resourceVersion it sets is
     * the precondition, so a Job changed meanwhile (the Job controller's write included) answers 409 and the next event
     * decides again from the newer Job.
     */
    public void clearJobStartTime(JobKind kind, GenericKubernetesResource job) {
        ObjectNode patch = clearStartTime(job);
        try {
            client.genericKubernetesResources(kind.resourceContext())
                    .inNamespace(job.getMetadata().getNamespace()).resource(stub(job))
                    .subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
        } catch (KubernetesClientException e) {
            throw new RefusedWrite(e, RefusedWrite.mergePatch(patch));
        }
    }

    /** The merge patch of {@link #clearJobStartTime}: the resourceVersion it was computed on, start time null. */
    static ObjectNode clearStartTime(GenericKubernetesResource job) {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        patch.putObject("metadata").put("resourceVersion", job.getMetadata().getResourceVersion());
        patch.putObject("status").putNull("startTime");
        return patch;
    }

    /**
     * A status change as a JSON patch of the status subresource that also sets the resourceVersion it was computed
     * from: the API server takes that as the precondition (409 Conflict when the object changed meanwhile). Only the
     * status differs between the two, so only status is written.
     */
    private <T extends HasMetadata> T statusPatch(Class<T> type, T before, T after) {
        ArrayNode patch = statusPatch(before, after);
        var resources = client.resources(type);
        var named = before.getMetadata().getNamespace() == null
                ? resources.resource(stub(before))
                : resources.inNamespace(before.getMetadata().getNamespace()).resource(stub(before));
        try {
            return named.subresource("status").patch(PatchContext.of(PatchType.JSON), patch.toString());
        } catch (KubernetesClientException e) {
            throw new RefusedWrite(e, RefusedWrite.jsonPatch(patch));
        }
    }

    /**
     * An empty object of the same kind that names the same object, to patch it by: fabric8's patch of a resource
     * selected by name alone first reads the object from the API server (a GET before every write, which is a verb
     * the RBAC must grant on a real cluster), and one selected by a whole object first copies it by serialization.
     * Given this stub it sends the PATCH only; the patch carries the resourceVersion precondition itself.
     */
    @SuppressWarnings("unchecked")
    static <T extends HasMetadata> T stub(T object) {
        T stub;
        try {
            stub = (T) object.getClass().getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot name a " + object.getClass().getName() + " to patch it", e);
        }
        if (stub instanceof GenericKubernetesResource generic) {
            generic.setApiVersion(object.getApiVersion());
            generic.setKind(object.getKind());
        }
        return named(stub, object.getMetadata().getNamespace(), object.getMetadata().getName());
    }

    /** {@code empty}, named {@code namespace/name}: an object to patch by (see {@link #stub}). */
    public static <T extends HasMetadata> T named(T empty, String namespace, String name) {
        empty.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withNamespace(namespace)
                .withName(name).build());
        return empty;
    }

    /** The JSON patch of a status write from {@code before} to {@code after}, resourceVersion precondition first. */
    public static ArrayNode statusPatch(HasMetadata before, HasMetadata after) {
        ArrayNode patch = JsonNodeFactory.instance.arrayNode();
        ObjectNode precondition = patch.addObject();
        precondition.put("op", "replace");
        precondition.put("path", "/metadata/resourceVersion");
        precondition.put("value", before.getMetadata().getResourceVersion());
        patch.addAll(JsonDiff.diff(Serialization.jsonMapper().valueToTree(before),
                Serialization.jsonMapper().valueToTree(after)));
        return patch;
    }

    public Workload readWorkload(String namespace, String name) {
        return client.resources(Workload.class).inNamespace(namespace).withName(name).get();
    }

    /** The job as the API server has it now (null: gone); for the rare paths where the cache may lag. */
    public GenericKubernetesResource readJob(JobKind kind, String namespace, String name) {
        return client.genericKubernetesResources(kind.resourceContext()).inNamespace(namespace).withName(name).get();
    }

    public Workload createWorkload(Workload wl) {
        return client.resources(Workload.class).inNamespace(wl.getMetadata().getNamespace()).resource(wl).create();
    }

    /** Deletes the Workload if it is still the one given (uid precondition via the object). */
    public void deleteWorkload(Workload wl) {
        client.resources(Workload.class).inNamespace(wl.getMetadata().getNamespace())
                .withName(wl.getMetadata().getName()).delete();
    }

    /**
     * Deletes the Workload if it is still the version given (resourceVersion precondition: a Workload that changed or
     * was replaced under the same name since is kept; 409).
     */
    public void deleteWorkload(String namespace, String name, String resourceVersion) {
        client.resources(Workload.class).inNamespace(namespace).withName(name).lockResourceVersion(resourceVersion)
                .delete();
    }

    /** Deletes a job if it is still the version given; its dependents (the Workload) go by background propagation. */
    public void deleteJob(JobKind kind, String namespace, String name, String resourceVersion) {
        client.genericKubernetesResources(kind.resourceContext()).inNamespace(namespace).withName(name)
                .lockResourceVersion(resourceVersion).delete();
    }

    static String json(Object o) {
        return o == null ? null : Serialization.asJson(o);
    }
}
