package dev.sluice.controller;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.jobs.WellKnown;
import dev.sluice.jobs.WorkloadNames;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;

/**
 * What a cluster that ran Kueue 0.15 holds, in kueue.x-k8s.io/v1beta1 (the version Kueue 0.15 stored), written with
 * v1beta1's own spellings (a ClusterQueue's {@code whenCanBorrow: Borrow}, a Workload's {@code priorityClassName} and
 * {@code priorityClassSource}): a flavor, a ClusterQueue of 3 cpu (and 10Gi), its LocalQueue {@code jobs} in namespace
 * {@link #NS}, a WorkloadPriorityClass, and the admitted Workload (2 cpu, 200Mi) of a running Job, as Kueue left it.
 */
final class KueueV015Objects {

    static final String NS = "migrated";
    static final String FLAVOR = "migrated-flavor";
    static final String CLUSTER_QUEUE = "migrated-cq";
    static final String PRIORITY_CLASS = "migrated-high";
    static final String RUNNING = "running";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** When Kueue admitted the running Job (a few minutes before the test: well inside waitForPodsReady's timeout). */
    static final String ADMITTED_AT = java.time.Instant.now().minusSeconds(300)
            .truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();

    private KueueV015Objects() {
    }

    /** A batch/v1 Job in {@link #NS} asking for {@code cpu}, queued in LocalQueue {@code jobs} (not yet created). */
    static Job job(String name, String cpu, boolean suspend) {
        Job job = Serialization.unmarshal(KueueV015Objects.class.getResourceAsStream(
                "/seeds/ack-kube-queue/job-queued.yaml"), Job.class);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName(name);
        job.getMetadata().setNamespace(NS);
        job.getMetadata().setLabels(Map.of(WellKnown.QUEUE_NAME, "jobs"));
        job.getSpec().setSuspend(suspend);
        job.getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getRequests().put("cpu",
                new Quantity(cpu));
        return job;
    }

    /** The Job Kueue had admitted and started, still running, labeled with the WorkloadPriorityClass. */
    static Job runningJob() {
        Job job = job(RUNNING, "2", false);
        job.getMetadata().setLabels(Map.of(WellKnown.QUEUE_NAME, "jobs", WellKnown.PRIORITY_CLASS, PRIORITY_CLASS));
        return job;
    }

    /** What the Job controller reports of the running Job: its one pod active and ready since {@link #ADMITTED_AT}. */
    static Job withRunningStatus(Job created) {
        created.setStatus(new io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder().withActive(1).withReady(1)
                .withStartTime(ADMITTED_AT).build());
        return created;
    }

    /** The queue objects and the admitted Workload of {@code running} (as created, with its uid), in v1beta1. */
    static List<ObjectNode> objects(Job running) {
        ObjectNode flavor = object("ResourceFlavor", FLAVOR, null);
        flavor.putObject("spec");

        ObjectNode cq = object("ClusterQueue", CLUSTER_QUEUE, null);
        ObjectNode spec = cq.putObject("spec");
        spec.putObject("namespaceSelector");
        spec.put("queueingStrategy", "BestEffortFIFO");
        spec.putObject("flavorFungibility").put("whenCanBorrow", "Borrow").put("whenCanPreempt", "TryNextFlavor");
        spec.putObject("preemption").put("withinClusterQueue", "LowerPriority").put("reclaimWithinCohort", "Never");
        ObjectNode group = spec.putArray("resourceGroups").addObject();
        group.putArray("coveredResources").add("cpu").add("memory");
        ObjectNode f = group.putArray("flavors").addObject().put("name", FLAVOR);
        ArrayNode quotas = f.putArray("resources");
        quotas.addObject().put("name", "cpu").put("nominalQuota", "3");
        quotas.addObject().put("name", "memory").put("nominalQuota", "10Gi");

        ObjectNode lq = object("LocalQueue", "jobs", NS);
        lq.putObject("spec").put("clusterQueue", CLUSTER_QUEUE);

        ObjectNode wpc = object("WorkloadPriorityClass", PRIORITY_CLASS, null);
        wpc.put("value", 500).put("description", "from Kueue 0.15");

        return List.of(flavor, cq, lq, wpc, workload(running));
    }

    private static ObjectNode workload(Job running) {
        String uid = running.getMetadata().getUid();
        ObjectNode wl = object("Workload", WorkloadNames.forJob("Job", "batch", RUNNING, uid), NS);
        ObjectNode meta = (ObjectNode) wl.get("metadata");
        meta.putObject("labels").put(WellKnown.JOB_UID, uid);
        meta.putArray("ownerReferences").addObject().put("apiVersion", "batch/v1").put("kind", "Job").put("name", RUNNING)
                .put("uid", uid).put("controller", true).put("blockOwnerDeletion", true);
        ObjectNode spec = wl.putObject("spec");
        spec.put("queueName", "jobs").put("priority", 500).put("priorityClassName", PRIORITY_CLASS)
                .put("priorityClassSource", "kueue.x-k8s.io/workloadpriorityclass").put("active", true);
        ObjectNode podSet = spec.putArray("podSets").addObject().put("name", "main")
                .put("count", running.getSpec().getParallelism() == null ? 1 : running.getSpec().getParallelism());
        podSet.set("template", Serialization.jsonMapper().valueToTree(running.getSpec().getTemplate()));
        ObjectNode status = wl.putObject("status");
        ObjectNode admission = status.putObject("admission").put("clusterQueue", CLUSTER_QUEUE);
        ObjectNode assignment = admission.putArray("podSetAssignments").addObject().put("name", "main")
                .put("count", podSet.get("count").asInt());
        assignment.putObject("flavors").put("cpu", FLAVOR).put("memory", FLAVOR);
        assignment.putObject("resourceUsage").put("cpu", "2").put("memory", "200Mi");
        ArrayNode conditions = status.putArray("conditions");
        conditions.addObject().put("type", "QuotaReserved").put("status", "True").put("reason", "QuotaReserved")
                .put("message", "Quota reserved in ClusterQueue " + CLUSTER_QUEUE).put("lastTransitionTime", ADMITTED_AT);
        conditions.addObject().put("type", "Admitted").put("status", "True").put("reason", "Admitted")
                .put("message", "The workload is admitted").put("lastTransitionTime", ADMITTED_AT);
        conditions.addObject().put("type", "PodsReady").put("status", "True").put("reason", "Started")
                .put("message", "All pods reached readiness and the workload is running")
                .put("lastTransitionTime", ADMITTED_AT);
        return wl;
    }

    static String workloadName(Job running) {
        return WorkloadNames.forJob("Job", "batch", RUNNING, running.getMetadata().getUid());
    }

    private static ObjectNode object(String kind, String name, String namespace) {
        ObjectNode o = JSON.createObjectNode().put("apiVersion", "kueue.x-k8s.io/v1beta1").put("kind", kind);
        ObjectNode meta = o.putObject("metadata").put("name", name);
        if (namespace != null) {
            meta.put("namespace", namespace);
        }
        return o;
    }
}
