package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * XGBoostJob, PaddleJob and JAXJob (training-operator {@code kubeflow.org/v1}): the cases of Kueue v0.19.2's
 * {@code kubeflow/jobs/{xgboostjob,paddlejob,jaxjob}/*_controller_test.go} that test pod sets, their order, the
 * priority class and suspend/run/restore, under their names.
 */
class KubeflowV1KindsTest {
    private final XGBoostJobKind xgboost = new XGBoostJobKind();
    private final PaddleJobKind paddle = new PaddleJobKind();
    private final JAXJobKind jax = new JAXJobKind();

    private static GenericKubernetesResource job(String kind, String field, String replicaSpecs, String runPolicy) {
        return Manifests.parse("""
                apiVersion: kubeflow.org/v1
                kind: %s
                metadata: {name: j, namespace: ns}
                spec:
                  runPolicy: %s
                  %s:
                %s
                """.formatted(kind, runPolicy, field, replicaSpecs.indent(4)));
    }

    private static String replica(String type, int replicas, String priorityClass) {
        return "%s: {replicas: %d, template: {spec: {%scontainers: [{name: c, resources: {requests: {cpu: \"1\"}}}]}}}"
                .formatted(type, replicas, priorityClass == null ? "" : "priorityClassName: " + priorityClass + ", ");
    }

    // ---- TestPriorityClass (xgboostjob, paddlejob, jaxjob) ----

    @Test
    void priorityClass_prioritySpecifiedAtRunPolicyAndReplicasUsePriorityInRunPolicy() {
        GenericKubernetesResource j = job("XGBoostJob", "xgbReplicaSpecs", replica("Master", 1, "master-priority")
                + "\n" + replica("Worker", 1, "worker-priority"), "{schedulingPolicy: {priorityClass: scheduling-priority}}");
        assertThat(xgboost.priorityClassName(j)).contains("scheduling-priority");
        GenericKubernetesResource jaxJob = job("JAXJob", "jaxReplicaSpecs", replica("Worker", 1, "worker-priority"),
                "{schedulingPolicy: {priorityClass: scheduling-priority}}");
        assertThat(jax.priorityClassName(jaxJob)).contains("scheduling-priority");
    }

    @Test
    void priorityClass_runPolicyPresentButWithoutPriorityFallbackToMaster() {
        GenericKubernetesResource j = job("PaddleJob", "paddleReplicaSpecs", replica("Master", 1, "master-priority"),
                "{schedulingPolicy: {}}");
        assertThat(paddle.priorityClassName(j)).contains("master-priority");
    }

    @Test
    void priorityClass_specifiedOnMasterTakesPrecedenceOverWorker() {
        // the map's own order puts Worker first: the pod-set order decides, not the manifest's
        GenericKubernetesResource j = job("XGBoostJob", "xgbReplicaSpecs", replica("Worker", 1, "worker-priority")
                + "\n" + replica("Master", 1, "master-priority"), "{}");
        assertThat(xgboost.priorityClassName(j)).contains("master-priority");
    }

    @Test
    void priorityClass_masterPresentButWithoutPriorityFallbackToWorker() {
        GenericKubernetesResource j = job("PaddleJob", "paddleReplicaSpecs", replica("Master", 1, null)
                + "\n" + replica("Worker", 1, "worker-priority"), "{}");
        assertThat(paddle.priorityClassName(j)).contains("worker-priority");
    }

    @Test
    void priorityClass_specifiedOnWorkerOnly() {
        GenericKubernetesResource j = job("XGBoostJob", "xgbReplicaSpecs", replica("Worker", 1, "worker-priority"), "{}");
        assertThat(xgboost.priorityClassName(j)).contains("worker-priority");
    }

    @Test
    void priorityClass_workerPresentButWithoutPriorityFallbackToEmpty() {
        GenericKubernetesResource j = job("JAXJob", "jaxReplicaSpecs", replica("Worker", 1, null), "{}");
        assertThat(jax.priorityClassName(j)).isEmpty();
    }

    // ---- TestOrderedReplicaTypes / TestPodSets ----

    @Test
    void orderedReplicaTypes_jobHasAllReplicas() {
        GenericKubernetesResource j = job("XGBoostJob", "xgbReplicaSpecs", replica("Worker", 3, null)
                + "\n" + replica("Master", 1, null), "{}");
        assertThat(xgboost.podSets(j)).extracting(PodSetTemplate::name, PodSetTemplate::count)
                .containsExactly(tuple("master", 1), tuple("worker", 3));
        GenericKubernetesResource p = job("PaddleJob", "paddleReplicaSpecs", replica("Worker", 2, null)
                + "\n" + replica("Master", 1, null), "{}");
        assertThat(paddle.podSets(p)).extracting(PodSetTemplate::name).containsExactly("master", "worker");
    }

    @Test
    void orderedReplicaTypes_jobHasOnlyWorkerReplica() {
        GenericKubernetesResource j = job("PaddleJob", "paddleReplicaSpecs", replica("Worker", 2, null), "{}");
        assertThat(paddle.podSets(j)).extracting(PodSetTemplate::name, PodSetTemplate::count)
                .containsExactly(tuple("worker", 2));
        GenericKubernetesResource x = job("JAXJob", "jaxReplicaSpecs", replica("Worker", 4, null), "{}");
        assertThat(jax.podSets(x)).extracting(PodSetTemplate::name, PodSetTemplate::count)
                .containsExactly(tuple("worker", 4));
    }

    @Test
    void podSets_noAnnotations() {
        GenericKubernetesResource j = Manifests.load("xgboostjob.yaml").get(0);
        List<PodSetTemplate> podSets = xgboost.podSets(j);
        assertThat(podSets).extracting(PodSetTemplate::name, PodSetTemplate::count, PodSetTemplate::minCount)
                .containsExactly(tuple("master", 1, null), tuple("worker", 2, null));
        assertThat(podSets.get(1).template().getSpec().getContainers().get(0).getResources().getRequests().get("cpu"))
                .hasToString("2");
    }

    // ---- TestReconciler: "when workload is evicted, suspended is reset, restore node affinity" ----

    @Test
    void reconciler_whenWorkloadIsEvictedSuspendedIsResetRestoreNodeAffinity() {
        for (var kind : List.<KubeflowJobKind>of(xgboost, paddle, jax)) {
            GenericKubernetesResource j = Manifests.load(kind.plural().replaceAll("s$", "") + ".yaml").get(0);
            kind.hold(j);
            assertThat(j.<Boolean>get("spec", "runPolicy", "suspend")).as(kind.kind()).isTrue();
            List<PodSetTemplate> originals = kind.podSets(j);
            kind.start(j, originals.stream().map(ps -> new PodSetStart(ps.name(), Map.of("provisioning", "spot"),
                    List.of(), null)).toList());
            assertThat(kind.isSuspended(j)).isFalse();
            assertThat(kind.podSets(j)).allSatisfy(ps -> {
                assertThat(ps.template().getSpec().getNodeSelector()).containsEntry("provisioning", "spot");
                assertThat(ps.template().getMetadata().getLabels()).containsEntry(WellKnown.POD_SET, ps.name());
            });
            kind.restore(j, originals);
            assertThat(j.<Boolean>get("spec", "runPolicy", "suspend")).as(kind.kind()).isTrue();
            assertThat(kind.podSets(j)).isEqualTo(originals);
        }
    }

    @Test
    void finishedAndPodsReadyFromTheTrainingOperatorsStatus() {
        GenericKubernetesResource j = Manifests.load("jaxjob.yaml").get(0);
        j.getAdditionalProperties().put("status", Map.of("replicaStatuses", Map.of("Worker", Map.of("active", 1))));
        assertThat(jax.isActive(j)).isTrue();
        assertThat(jax.podsReady(j)).as("1 of 2 workers").isFalse();
        j.getAdditionalProperties().put("status", Map.of("replicaStatuses", Map.of("Worker", Map.of("active", 2)),
                "conditions", List.of(Map.of("type", "Succeeded", "status", "True", "reason", "JAXJobSucceeded"))));
        assertThat(jax.podsReady(j)).isTrue();
        assertThat(jax.finished(j)).hasValueSatisfying(f -> assertThat(f.succeeded()).isTrue());
    }
}
