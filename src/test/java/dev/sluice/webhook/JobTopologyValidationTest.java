package dev.sluice.webhook;

import static dev.sluice.api.v1beta2.TopologyAnnotations.GROUP_NAME;
import static dev.sluice.api.v1beta2.TopologyAnnotations.PREFERRED;
import static dev.sluice.api.v1beta2.TopologyAnnotations.REQUIRED;
import static dev.sluice.api.v1beta2.TopologyAnnotations.SLICE_REQUIRED;
import static dev.sluice.api.v1beta2.TopologyAnnotations.SLICE_REQUIRED_CONSTRAINTS;
import static dev.sluice.api.v1beta2.TopologyAnnotations.SLICE_SIZE;
import static dev.sluice.api.v1beta2.TopologyAnnotations.UNCONSTRAINED;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sluice.jobs.JobKinds;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kueue v0.19.2's checks of topology annotations with their names: job_webhook_test.go's TestValidateCreate topology
 * cases (a batch/v1 Job), and jobframework/tas_validation_test.go's TestValidateSliceRequiredTopologyConstraintsAnnotation
 * and TestValidateSliceSizeAnnotationUpperBound (error counts, as Kueue's tests count them).
 */
class JobTopologyValidationTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String ANNOTATIONS = "spec.template.metadata.annotations";

    private static List<String> jobErrors(int parallelism, Map<String, String> annotations) throws Exception {
        ObjectNode job = (ObjectNode) YAML.readTree("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: job, namespace: default, labels: {kueue.x-k8s.io/queue-name: lq}}
                spec:
                  parallelism: %d
                  template:
                    metadata: {}
                    spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
                """.formatted(parallelism));
        ObjectNode a = ((ObjectNode) job.at("/spec/template/metadata")).putObject("annotations");
        annotations.forEach(a::put);
        GenericKubernetesResource resource = YAML.treeToValue(job, GenericKubernetesResource.class);
        var kind = JobKinds.standard().forJob(resource).orElseThrow();
        return JobTopologyValidation.errors(kind, resource).all();
    }

    private static Map<String, String> annotations(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    static Stream<Arguments> validateCreate() {
        return Stream.of(
                Arguments.of("valid topology request", 1, annotations(REQUIRED, "cloud.com/block"), List.of()),
                Arguments.of("invalid topology request - both annotations", 1,
                        annotations(REQUIRED, "cloud.com/block", PREFERRED, "cloud.com/block"),
                        List.of(ANNOTATIONS + ": Invalid value: must not contain more than one topology annotation:"
                                + " [\"kueue.x-k8s.io/podset-required-topology\", \"kueue.x-k8s.io/podset-preferred-topology\","
                                + " \"kueue.x-k8s.io/podset-unconstrained-topology\"]")),
                // Kueue's message is Kubernetes' IsQualifiedName text; Sluice's Names words it without the regex
                Arguments.of("invalid topology request - invalid required", 1, annotations(REQUIRED, "some required value"),
                        List.of(ANNOTATIONS + "[kueue.x-k8s.io/podset-required-topology]: Invalid value: \"some required value\":"
                                + " name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end"
                                + " with an alphanumeric character (e.g. 'MyName', 'my.name' or '123-abc')")),
                Arguments.of("invalid topology request - invalid preferred", 1, annotations(PREFERRED, "some preferred value"),
                        List.of(ANNOTATIONS + "[kueue.x-k8s.io/podset-preferred-topology]: Invalid value: \"some preferred value\":"
                                + " name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end"
                                + " with an alphanumeric character (e.g. 'MyName', 'my.name' or '123-abc')")),
                Arguments.of("valid slice topology request", 1,
                        annotations(REQUIRED, "cloud.com/block", SLICE_REQUIRED, "cloud.com/block", SLICE_SIZE, "1"), List.of()),
                Arguments.of("valid topology request - slice-only topology - unconstrained with slices defined", 1,
                        annotations(UNCONSTRAINED, "true", SLICE_REQUIRED, "cloud.com/block", SLICE_SIZE, "1"), List.of()),
                Arguments.of("invalid topology request - slice requested without slice size", 1,
                        annotations(REQUIRED, "cloud.com/block", SLICE_REQUIRED, "cloud.com/block"),
                        List.of(ANNOTATIONS + "[kueue.x-k8s.io/podset-slice-size]: Required value: must be set when"
                                + " 'kueue.x-k8s.io/podset-slice-required-topology' is specified")),
                Arguments.of("invalid topology request - slice size is not a number", 1,
                        annotations(REQUIRED, "cloud.com/block", SLICE_REQUIRED, "cloud.com/block", SLICE_SIZE, "not a number"),
                        List.of(ANNOTATIONS + "[kueue.x-k8s.io/podset-slice-size]: Invalid value: \"not a number\":"
                                + " must be a numeric value")),
                Arguments.of("invalid topology request - slice size is negative", 1,
                        annotations(REQUIRED, "cloud.com/block", SLICE_REQUIRED, "cloud.com/block", SLICE_SIZE, "-1"),
                        List.of(ANNOTATIONS + "[kueue.x-k8s.io/podset-slice-size]: Invalid value: \"-1\":"
                                + " must be greater than or equal to 1")),
                Arguments.of("invalid topology request - slice size is zero", 1,
                        annotations(REQUIRED, "cloud.com/block", SLICE_REQUIRED, "cloud.com/block", SLICE_SIZE, "0"),
                        List.of(ANNOTATIONS + "[kueue.x-k8s.io/podset-slice-size]: Invalid value: \"0\":"
                                + " must be greater than or equal to 1")),
                Arguments.of("invalid topology request - slice size provided without slice topology", 1,
                        annotations(REQUIRED, "cloud.com/block", SLICE_SIZE, "1"),
                        List.of(ANNOTATIONS + "[kueue.x-k8s.io/podset-slice-size]: Forbidden: may not be set when"
                                + " 'kueue.x-k8s.io/podset-slice-required-topology' is not specified")),
                Arguments.of("valid topology request - slice-only topology", 1,
                        annotations(SLICE_REQUIRED, "cloud.com/block", SLICE_SIZE, "1"), List.of()),
                Arguments.of("invalid slice topology request - slice size larger than number of podsets", 4,
                        annotations(REQUIRED, "cloud.com/block", SLICE_REQUIRED, "cloud.com/block", SLICE_SIZE, "20"),
                        List.of(ANNOTATIONS + "[kueue.x-k8s.io/podset-slice-size]: Invalid value: \"20\":"
                                + " must not be greater than pod set count 4")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validateCreate")
    void validateCreate(String name, int parallelism, Map<String, String> annotations, List<String> want) throws Exception {
        assertThat(jobErrors(parallelism, annotations)).containsExactlyElementsOf(want);
    }

    private static final String RACK16 = "{\"topology\":\"cloud.com/rack\",\"size\":16}";

    static Stream<Arguments> constraints() {
        return Stream.of(
                Arguments.of("valid: single constraint layer", "[" + RACK16 + "]", Map.of(), 0),
                Arguments.of("valid: two constraint layers",
                        "[" + RACK16 + ",{\"topology\":\"kubernetes.io/hostname\",\"size\":4}]", Map.of(), 0),
                Arguments.of("valid: three constraint layers", "[" + RACK16 + ",{\"topology\":\"cloud.com/sub-rack\",\"size\":4},"
                        + "{\"topology\":\"kubernetes.io/hostname\",\"size\":2}]", Map.of(), 0),
                Arguments.of("invalid: not valid JSON", "invalid-json", Map.of(), 1),
                Arguments.of("invalid: empty array", "[]", Map.of(), 1),
                Arguments.of("invalid: more than 3 entries", "[{\"topology\":\"a\",\"size\":64},{\"topology\":\"b\",\"size\":16},"
                        + "{\"topology\":\"c\",\"size\":4},{\"topology\":\"d\",\"size\":1}]", Map.of(), 1),
                Arguments.of("invalid: size less than 1", "[{\"topology\":\"cloud.com/rack\",\"size\":0}]", Map.of(), 1),
                Arguments.of("invalid: size does not divide parent",
                        "[" + RACK16 + ",{\"topology\":\"kubernetes.io/hostname\",\"size\":5}]", Map.of(), 1),
                Arguments.of("invalid: mutual exclusivity with podset-slice-required-topology", "[" + RACK16 + "]",
                        Map.of(SLICE_REQUIRED, "cloud.com/rack", SLICE_SIZE, "16"), 2),
                Arguments.of("invalid: with podset-group-name", "[" + RACK16 + "]", Map.of(GROUP_NAME, "group1"), 1),
                Arguments.of("invalid: duplicate topology labels", "[" + RACK16 + ",{\"topology\":\"cloud.com/rack\",\"size\":4}]",
                        Map.of(), 1),
                Arguments.of("invalid: duplicate topology label among three entries", "[" + RACK16
                        + ",{\"topology\":\"kubernetes.io/hostname\",\"size\":4},{\"topology\":\"cloud.com/rack\",\"size\":2}]",
                        Map.of(), 1));
    }

    // Kueue's "invalid: feature gate disabled" has no counterpart: Sluice has TASMultiLayerTopology always on (its default)
    @ParameterizedTest(name = "{0}")
    @MethodSource("constraints")
    void validateSliceRequiredTopologyConstraintsAnnotation(String name, String json, Map<String, String> more, int want) {
        Map<String, String> a = new LinkedHashMap<>(Map.of(REQUIRED, "cloud.com/block", SLICE_REQUIRED_CONSTRAINTS, json));
        a.putAll(more);
        FieldErrors errors = new FieldErrors();
        TopologyAnnotationRules.podSetRequest("spec.template.metadata", a, errors);
        assertThat(errors.all()).hasSize(want);
    }

    @Test
    void constraintMessagesAreKueues() {
        FieldErrors errors = new FieldErrors();
        TopologyAnnotationRules.podSetRequest("spec.template.metadata", Map.of(REQUIRED, "cloud.com/block",
                SLICE_REQUIRED_CONSTRAINTS, "[" + RACK16 + ",{\"topology\":\"cloud.com/rack\",\"size\":5}]"), errors);
        String at = ANNOTATIONS + "[kueue.x-k8s.io/podset-slice-required-topology-constraints]";
        assertThat(errors.all()).containsExactly(
                at + "[1].topology: Duplicate value: \"cloud.com/rack (also at index 0)\"",
                at + "[1].size: Invalid value: 5: must evenly divide the parent layer size 16");
    }

    static Stream<Arguments> upperBound() {
        return Stream.of(
                Arguments.of("valid: PodSetSliceSizeAnnotation within bound",
                        Map.of(SLICE_SIZE, "16", SLICE_REQUIRED, "cloud.com/rack", REQUIRED, "cloud.com/block"), 20, 0),
                Arguments.of("invalid: PodSetSliceSizeAnnotation exceeds pod count",
                        Map.of(SLICE_SIZE, "20", SLICE_REQUIRED, "cloud.com/rack", REQUIRED, "cloud.com/block"), 16, 1),
                Arguments.of("valid: multi-layer outermost size within bound", Map.of(REQUIRED, "cloud.com/block",
                        SLICE_REQUIRED_CONSTRAINTS, "[" + RACK16 + ",{\"topology\":\"kubernetes.io/hostname\",\"size\":4}]"), 20, 0),
                Arguments.of("invalid: multi-layer outermost size exceeds pod count", Map.of(REQUIRED, "cloud.com/block",
                        SLICE_REQUIRED_CONSTRAINTS, "[" + RACK16 + ",{\"topology\":\"kubernetes.io/hostname\",\"size\":4}]"), 10, 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("upperBound")
    void validateSliceSizeAnnotationUpperBound(String name, Map<String, String> a, int count, int want) {
        FieldErrors errors = new FieldErrors();
        TopologyAnnotationRules.sliceSizeUpperBound("spec.template.metadata", a, count, errors);
        assertThat(errors.all()).hasSize(want);
    }
}
