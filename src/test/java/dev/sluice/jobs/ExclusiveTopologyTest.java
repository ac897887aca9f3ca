package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExclusiveTopologyTest {
    private static final String NODEPOOL = "cloud.google.com/gke-nodepool";
    private final JobKinds kinds = JobKinds.standard();

    private PodSpec podSpec(GenericKubernetesResource job, int podSet) {
        return kinds.forJob(job).orElseThrow().podSets(job).get(podSet).template().getSpec();
    }

    @ParameterizedTest
    @ValueSource(strings = {"jobsets-multislice-autopilot.yaml", "jobsets-multislice-standard.yaml",
        "jobset-low-priority-autopilot.yaml", "jobset-low-priority-standard.yaml"})
    void seedJobSetsGetAffinityAndAntiAffinityOnTheNodePool(String file) {
        for (GenericKubernetesResource js : Manifests.load(file)) {
            Map<String, String> selectorBefore = podSpec(js, 0).getNodeSelector();
            assertThat(ExclusiveTopology.inject(js)).isTrue();

            PodSpec spec = podSpec(js, 0);
            assertThat(spec.getNodeSelector()).isEqualTo(selectorBefore);
            PodAffinityTerm together = single(spec.getAffinity().getPodAffinity()
                    .getRequiredDuringSchedulingIgnoredDuringExecution());
            assertThat(together.getTopologyKey()).isEqualTo(NODEPOOL);
            assertThat(together.getMatchLabelKeys()).containsExactly(WellKnown.JOBSET_JOB_KEY);
            assertThat(together.getMismatchLabelKeys()).isEmpty();
            assertThat(together.getLabelSelector().getMatchExpressions())
                    .containsExactly(exists(WellKnown.JOBSET_NAME));
            assertThat(together.getNamespaceSelector()).isNotNull();
            assertThat(together.getNamespaceSelector().getMatchLabels()).isEmpty();

            PodAffinityTerm apart = single(spec.getAffinity().getPodAntiAffinity()
                    .getRequiredDuringSchedulingIgnoredDuringExecution());
            assertThat(apart.getTopologyKey()).isEqualTo(NODEPOOL);
            assertThat(apart.getMismatchLabelKeys()).containsExactly(WellKnown.JOBSET_JOB_KEY);
            assertThat(apart.getMatchLabelKeys()).isEmpty();
            assertThat(apart.getLabelSelector().getMatchExpressions())
                    .containsExactly(exists(WellKnown.JOBSET_JOB_KEY));

            // idempotent: a second pass changes nothing
            JsonNode once = Manifests.JSON.valueToTree(js);
            assertThat(ExclusiveTopology.inject(js)).isFalse();
            assertThat((Object) Manifests.JSON.valueToTree(js)).isEqualTo(once);
        }
    }

    /**
     * Kubernetes rejects a pod whose labelSelector, after matchLabelKeys are merged in as {@code In}
     * expressions (mismatchLabelKeys as {@code NotIn}), names a matchLabelKeys key twice
     * (validateMatchLabelKeysAndMismatchLabelKeys). This emulates that merge and check.
     */
    private static List<String> podCreationErrors(PodAffinityTerm t) {
        List<String> keys = new ArrayList<>();
        t.getLabelSelector().getMatchExpressions().forEach(e -> keys.add(e.getKey()));
        keys.addAll(t.getMatchLabelKeys());
        keys.addAll(t.getMismatchLabelKeys());
        List<String> errors = new ArrayList<>();
        Set<String> seen = new HashSet<>(t.getLabelSelector().getMatchLabels().keySet());
        for (String k : keys) {
            if (t.getMatchLabelKeys().contains(k) && seen.contains(k)) {
                errors.add(k + " exists in both matchLabelKeys and labelSelector");
            }
            seen.add(k);
        }
        t.getMatchLabelKeys().stream().filter(t.getMismatchLabelKeys()::contains)
                .forEach(k -> errors.add(k + " exists in both matchLabelKeys and mismatchLabelKeys"));
        return errors;
    }

    @Test
    void injectedTermsPassKubernetesMatchLabelKeysValidationAfterMerge() {
        GenericKubernetesResource js = Manifests.one("jobsets-multislice-autopilot.yaml", "multislice-2slice");
        ExclusiveTopology.inject(js);
        PodSpec spec = podSpec(js, 0);
        List<PodAffinityTerm> terms = new ArrayList<>();
        terms.addAll(spec.getAffinity().getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution());
        terms.addAll(spec.getAffinity().getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution());
        assertThat(terms).hasSize(2).allSatisfy(t -> assertThat(podCreationErrors(t)).isEmpty());

        // the check does catch the tempting alternative (job-key Exists plus matchLabelKeys [job-key])
        PodAffinityTerm naive = new PodAffinityTerm();
        naive.setLabelSelector(terms.get(1).getLabelSelector());
        naive.setMatchLabelKeys(List.of(WellKnown.JOBSET_JOB_KEY));
        naive.setTopologyKey(NODEPOOL);
        assertThat(podCreationErrors(naive)).isNotEmpty();
    }

    @Test
    void existingAffinityIsKeptAndExtended() {
        GenericKubernetesResource js = Manifests.parse("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata:
                  name: keep
                  annotations: {alpha.jobset.sigs.k8s.io/exclusive-topology: topology.kubernetes.io/zone}
                spec:
                  replicatedJobs:
                  - name: w
                    template:
                      spec:
                        template:
                          spec:
                            nodeSelector: {disk: ssd}
                            affinity:
                              nodeAffinity:
                                requiredDuringSchedulingIgnoredDuringExecution:
                                  nodeSelectorTerms:
                                  - matchExpressions: [{key: arch, operator: In, values: [amd64]}]
                              podAffinity:
                                requiredDuringSchedulingIgnoredDuringExecution:
                                - labelSelector: {matchLabels: {app: cache}}
                                  topologyKey: kubernetes.io/hostname
                            containers: [{name: c}]
                """);
        assertThat(ExclusiveTopology.inject(js)).isTrue();
        PodSpec spec = podSpec(js, 0);
        assertThat(spec.getNodeSelector()).containsExactly(Map.entry("disk", "ssd"));
        assertThat(spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms()).hasSize(1);
        List<PodAffinityTerm> together = spec.getAffinity().getPodAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution();
        assertThat(together).hasSize(2);
        assertThat(together.get(0).getTopologyKey()).isEqualTo("kubernetes.io/hostname");
        assertThat(together.get(1).getTopologyKey()).isEqualTo("topology.kubernetes.io/zone");
        assertThat(spec.getAffinity().getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution())
                .hasSize(1);
    }

    @Test
    void replicatedJobAnnotationSelectsThatJobAndOverridesTheJobSetKey() {
        GenericKubernetesResource js = Manifests.parse("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: mixed}
                spec:
                  replicatedJobs:
                  - name: driver
                    template: {spec: {template: {spec: {containers: [{name: c}]}}}}
                  - name: workers
                    template:
                      metadata:
                        annotations: {alpha.jobset.sigs.k8s.io/exclusive-topology: rack}
                      spec: {template: {spec: {containers: [{name: c}]}}}
                """);
        assertThat(ExclusiveTopology.inject(js)).isTrue();
        assertThat(podSpec(js, 0).getAffinity()).isNull();
        assertThat(podSpec(js, 1).getAffinity().getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution())
                .singleElement().satisfies(t -> assertThat(t.getTopologyKey()).isEqualTo("rack"));

        js.getMetadata().setAnnotations(Map.of(WellKnown.EXCLUSIVE_TOPOLOGY, NODEPOOL));
        assertThat(ExclusiveTopology.inject(js)).isTrue();
        assertThat(podSpec(js, 0).getAffinity().getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution())
                .singleElement().satisfies(t -> assertThat(t.getTopologyKey()).isEqualTo(NODEPOOL));
        assertThat(podSpec(js, 1).getAffinity().getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution())
                .singleElement().satisfies(t -> assertThat(t.getTopologyKey()).isEqualTo("rack"));
    }

    @Test
    void plainJobKeysOnItsControllerUid() {
        GenericKubernetesResource job = Manifests.parse("""
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: solo
                  annotations: {alpha.jobset.sigs.k8s.io/exclusive-topology: rack}
                spec:
                  parallelism: 3
                  template: {spec: {containers: [{name: c}]}}
                """);
        assertThat(ExclusiveTopology.inject(job)).isTrue();
        PodSpec spec = podSpec(job, 0);
        PodAffinityTerm together = single(spec.getAffinity().getPodAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution());
        assertThat(together.getMatchLabelKeys()).containsExactly(WellKnown.JOB_CONTROLLER_UID);
        assertThat(together.getLabelSelector().getMatchExpressions()).containsExactly(exists(WellKnown.JOB_NAME));
        PodAffinityTerm apart = single(spec.getAffinity().getPodAntiAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution());
        assertThat(apart.getMismatchLabelKeys()).containsExactly(WellKnown.JOB_CONTROLLER_UID);
        assertThat(apart.getLabelSelector().getMatchExpressions()).containsExactly(exists(WellKnown.JOB_CONTROLLER_UID));
        assertThat(ExclusiveTopology.inject(job)).isFalse();
    }

    @Test
    void nothingToDoWithoutTheAnnotationOrWithNodeSelectorStrategyOrForOtherKinds() {
        GenericKubernetesResource job = Manifests.load("job-queued.yaml").get(0);
        JsonNode before = Manifests.JSON.valueToTree(job);
        assertThat(ExclusiveTopology.inject(job)).isFalse();
        assertThat((Object) Manifests.JSON.valueToTree(job)).isEqualTo(before);

        GenericKubernetesResource js = Manifests.one("jobsets-multislice-autopilot.yaml", "multislice-1slice");
        js.getMetadata().getAnnotations().put(WellKnown.JOBSET_NODE_SELECTOR_STRATEGY, "true");
        assertThat(ExclusiveTopology.inject(js)).isFalse();

        GenericKubernetesResource tf = Manifests.parse("""
                apiVersion: kubeflow.org/v1
                kind: TFJob
                metadata:
                  name: tf
                  annotations: {alpha.jobset.sigs.k8s.io/exclusive-topology: rack}
                spec: {}
                """);
        assertThat(ExclusiveTopology.inject(tf)).isFalse();
    }

    @Test
    void emptyTopologyKeyIsRejected() {
        GenericKubernetesResource js = Manifests.one("jobsets-multislice-autopilot.yaml", "multislice-1slice");
        js.getMetadata().getAnnotations().put(WellKnown.EXCLUSIVE_TOPOLOGY, " ");
        assertThatThrownBy(() -> ExclusiveTopology.inject(js))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("metadata.annotations[alpha.jobset.sigs.k8s.io/exclusive-topology]")
                .hasMessageContaining("cloud.google.com/gke-nodepool");
    }

    @Test
    void webhookPatchOnlyAddsTheAffinityAndReproducesTheMutation() {
        GenericKubernetesResource js = Manifests.one("jobsets-multislice-standard.yaml", "multislice-3slice");
        JsonNode before = Manifests.JSON.valueToTree(js);
        ExclusiveTopology.inject(js);
        JsonNode after = Manifests.JSON.valueToTree(js);
        JsonNode patch = JsonDiff.diff(before, after);
        assertThat(patch).hasSize(1);
        assertThat(patch.get(0).get("op").asText()).isEqualTo("add");
        assertThat(patch.get(0).get("path").asText())
                .isEqualTo("/spec/replicatedJobs/0/template/spec/template/spec/affinity");
        assertThat((Object) Patches.apply(patch, before)).isEqualTo(after);
    }

    private static LabelSelectorRequirement exists(String key) {
        LabelSelectorRequirement r = new LabelSelectorRequirement();
        r.setKey(key);
        r.setOperator("Exists");
        return r;
    }

    private static PodAffinityTerm single(List<PodAffinityTerm> terms) {
        assertThat(terms).hasSize(1);
        return terms.get(0);
    }
}
