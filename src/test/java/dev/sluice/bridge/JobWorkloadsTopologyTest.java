package dev.sluice.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sluice.api.v1beta2.PodSetTopologyRequest;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.jobs.InvalidJobException;
import dev.sluice.jobs.JobKinds;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import org.junit.jupiter.api.Test;

/**
 * A job's Workload carries each pod set's topology request as Kueue's integrations build it: from the pod template's
 * annotations, with the kind's pod index labels (Job: job-completion-index; JobSet: also the job index and the
 * replicas; Kubeflow: replica-index), and none for a kind without them and no annotation.
 */
class JobWorkloadsTopologyTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static Workload workload(String manifest) throws Exception {
        GenericKubernetesResource job = YAML.readValue(manifest, GenericKubernetesResource.class);
        var kind = JobKinds.standard().forJob(job).orElseThrow();
        return JobWorkloads.forJob(kind, job, BridgeTest.CLASSES);
    }

    private static PodSetTopologyRequest request(Workload wl, int podSet) {
        return wl.getSpec().getPodSets().get(podSet).getTopologyRequest();
    }

    @Test
    void aJobsRequiredTopologyAndItsCompletionIndex() throws Exception {
        Workload wl = workload("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: train, namespace: default, uid: u1, labels: {kueue.x-k8s.io/queue-name: lq}}
                spec:
                  parallelism: 4
                  completions: 4
                  template:
                    metadata:
                      annotations:
                        kueue.x-k8s.io/podset-required-topology: cloud.com/block
                        kueue.x-k8s.io/podset-slice-required-topology: cloud.com/rack
                        kueue.x-k8s.io/podset-slice-size: "2"
                    spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
                """);
        PodSetTopologyRequest r = request(wl, 0);
        assertThat(r.getRequired()).isEqualTo("cloud.com/block");
        assertThat(r.getPodIndexLabel()).isEqualTo("batch.kubernetes.io/job-completion-index");
        assertThat(r.getPodSetSliceRequiredTopology()).isEqualTo("cloud.com/rack");
        assertThat(r.getPodSetSliceSize()).isEqualTo(2);
        assertThat(r.getSubGroupIndexLabel()).isNull();
    }

    @Test
    void everyJobCarriesItsPodIndexLabelAsInKueue() throws Exception {
        Workload wl = workload("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: plain, namespace: default, uid: u2, labels: {kueue.x-k8s.io/queue-name: lq}}
                spec:
                  template:
                    spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
                """);
        PodSetTopologyRequest r = request(wl, 0);
        assertThat(r.getPodIndexLabel()).isEqualTo("batch.kubernetes.io/job-completion-index");
        assertThat(r.getRequired()).isNull();
        assertThat(r.getPreferred()).isNull();
        assertThat(r.getUnconstrained()).isNull();
    }

    @Test
    void aJobSetsReplicatedJobsAreSubGroupsWithAGroupName() throws Exception {
        Workload wl = workload("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: js, namespace: default, uid: u3, labels: {kueue.x-k8s.io/queue-name: lq}}
                spec:
                  replicatedJobs:
                  - name: leader
                    replicas: 1
                    template:
                      spec:
                        template:
                          metadata:
                            annotations:
                              kueue.x-k8s.io/podset-preferred-topology: cloud.com/rack
                              kueue.x-k8s.io/podset-group-name: g
                          spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
                  - name: workers
                    replicas: 3
                    template:
                      spec:
                        parallelism: 2
                        completions: 2
                        template:
                          metadata:
                            annotations:
                              kueue.x-k8s.io/podset-preferred-topology: cloud.com/rack
                              kueue.x-k8s.io/podset-group-name: g
                          spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
                """);
        assertThat(request(wl, 0).getSubGroupCount()).isEqualTo(1);
        PodSetTopologyRequest workers = request(wl, 1);
        assertThat(workers.getPreferred()).isEqualTo("cloud.com/rack");
        assertThat(workers.getPodSetGroupName()).isEqualTo("g");
        assertThat(workers.getPodIndexLabel()).isEqualTo("batch.kubernetes.io/job-completion-index");
        assertThat(workers.getSubGroupIndexLabel()).isEqualTo("jobset.sigs.k8s.io/job-index");
        assertThat(workers.getSubGroupCount()).isEqualTo(3);
    }

    @Test
    void aKubeflowJobsReplicaIndex() throws Exception {
        Workload wl = workload("""
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: pt, namespace: default, uid: u4, labels: {kueue.x-k8s.io/queue-name: lq}}
                spec:
                  pytorchReplicaSpecs:
                    Master:
                      replicas: 1
                      template:
                        metadata: {annotations: {kueue.x-k8s.io/podset-unconstrained-topology: "true"}}
                        spec: {containers: [{name: pytorch, image: busybox}]}
                """);
        assertThat(request(wl, 0).getUnconstrained()).isTrue();
        assertThat(request(wl, 0).getPodIndexLabel()).isEqualTo("training.kubeflow.org/replica-index");
    }

    @Test
    void aRayJobWithoutAnnotationsAsksNothing() throws Exception {
        Workload wl = workload("""
                apiVersion: ray.io/v1
                kind: RayJob
                metadata: {name: ray, namespace: default, uid: u5, labels: {kueue.x-k8s.io/queue-name: lq}}
                spec:
                  entrypoint: python x.py
                  rayClusterSpec:
                    headGroupSpec:
                      template:
                        spec: {containers: [{name: head, image: ray}]}
                """);
        assertThat(wl.getSpec().getPodSets()).allSatisfy(ps -> assertThat(ps.getTopologyRequest()).isNull());
    }

    @Test
    void anAnnotationTheBuilderCannotReadIsNamed() {
        assertThatThrownBy(() -> workload("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: bad, namespace: default, uid: u6, labels: {kueue.x-k8s.io/queue-name: lq}}
                spec:
                  template:
                    metadata: {annotations: {kueue.x-k8s.io/podset-unconstrained-topology: "yes"}}
                    spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
                """)).isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("kueue.x-k8s.io/podset-unconstrained-topology")
                .hasMessageContaining("strconv.ParseBool: parsing \"yes\": invalid syntax");
    }
}
