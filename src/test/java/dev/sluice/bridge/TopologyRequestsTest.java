package dev.sluice.bridge;

import static dev.sluice.api.v1beta2.TopologyAnnotations.GROUP_NAME;
import static dev.sluice.api.v1beta2.TopologyAnnotations.PREFERRED;
import static dev.sluice.api.v1beta2.TopologyAnnotations.REQUIRED;
import static dev.sluice.api.v1beta2.TopologyAnnotations.SLICE_REQUIRED;
import static dev.sluice.api.v1beta2.TopologyAnnotations.SLICE_REQUIRED_CONSTRAINTS;
import static dev.sluice.api.v1beta2.TopologyAnnotations.SLICE_SIZE;
import static dev.sluice.api.v1beta2.TopologyAnnotations.UNCONSTRAINED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sluice.api.v1beta2.PodSetTopologyRequest;
import dev.sluice.jobs.PodIndexLabels;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Kueue v0.19.2's TestPodSetTopologyRequestBuilder (jobframework/tas_test.go), case by case by name. */
class TopologyRequestsTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String JOB_INDEX = PodIndexLabels.JOB_COMPLETION_INDEX;
    private static final String JOBSET_INDEX = PodIndexLabels.JOBSET_JOB_INDEX;
    private static final PodIndexLabels NONE = PodIndexLabels.NONE;
    private static final PodIndexLabels SUB_GROUP = new PodIndexLabels(null, JOBSET_INDEX, 1);

    static Stream<Arguments> builds() {
        return Stream.of(
                Arguments.of("required annotation", Map.of(REQUIRED, "cloud.com/block"), NONE,
                        "{required: cloud.com/block}"),
                Arguments.of("required annotation with pod index label", Map.of(REQUIRED, "cloud.com/block"),
                        new PodIndexLabels(JOB_INDEX, null, null),
                        "{required: cloud.com/block, podIndexLabel: " + JOB_INDEX + "}"),
                Arguments.of("pod index label only", Map.of(), new PodIndexLabels(JOB_INDEX, null, null),
                        "{podIndexLabel: " + JOB_INDEX + "}"),
                Arguments.of("required annotation with sub group", Map.of(REQUIRED, "cloud.com/block", GROUP_NAME, "block"),
                        SUB_GROUP, "{required: cloud.com/block, subGroupIndexLabel: " + JOBSET_INDEX
                                + ", subGroupCount: 1, podSetGroupName: block}"),
                Arguments.of("required annotation with sub group and pod set group name annotation",
                        Map.of(REQUIRED, "cloud.com/block", GROUP_NAME, "block"), SUB_GROUP,
                        "{required: cloud.com/block, subGroupIndexLabel: " + JOBSET_INDEX
                                + ", subGroupCount: 1, podSetGroupName: block}"),
                Arguments.of("preferred annotation", Map.of(PREFERRED, "cloud.com/block"), NONE,
                        "{preferred: cloud.com/block}"),
                Arguments.of("unconstrained annotation (true)", Map.of(UNCONSTRAINED, "true"), NONE, "{unconstrained: true}"),
                Arguments.of("unconstrained annotation (false)", Map.of(UNCONSTRAINED, "false"), NONE,
                        "{unconstrained: false}"),
                Arguments.of("slice-only topology", Map.of(SLICE_REQUIRED, "cloud.com/block", SLICE_SIZE, "1"), NONE,
                        "{podSetSliceRequiredTopology: cloud.com/block, podSetSliceSize: 1}"),
                Arguments.of("slice-only topology – only slice required annotation", Map.of(SLICE_REQUIRED, "cloud.com/block"),
                        NONE, null),
                Arguments.of("slice-only topology – only slice size annotation", Map.of(SLICE_SIZE, "1"), NONE, null),
                Arguments.of("slice-only topology with sub group and pod set group name annotation",
                        Map.of(SLICE_REQUIRED, "cloud.com/block", SLICE_SIZE, "1", GROUP_NAME, "block"), SUB_GROUP,
                        "{podSetSliceRequiredTopology: cloud.com/block, podSetSliceSize: 1, subGroupIndexLabel: "
                                + JOBSET_INDEX + ", subGroupCount: 1}"),
                Arguments.of("multi-layer: three constraint layers with feature gate", Map.of(REQUIRED, "cloud.com/block",
                        SLICE_REQUIRED_CONSTRAINTS, "[{\"topology\":\"cloud.com/rack\",\"size\":16},{\"topology\":"
                                + "\"cloud.com/sub-rack\",\"size\":4},{\"topology\":\"kubernetes.io/hostname\",\"size\":2}]"),
                        NONE, "{required: cloud.com/block, podsetSliceRequiredTopologyConstraints: [{topology: cloud.com/rack,"
                                + " size: 16}, {topology: cloud.com/sub-rack, size: 4}, {topology: kubernetes.io/hostname, size: 2}]}"),
                Arguments.of("multi-layer: two constraint layers with feature gate", Map.of(REQUIRED, "cloud.com/block",
                        SLICE_REQUIRED_CONSTRAINTS, "[{\"topology\":\"cloud.com/rack\",\"size\":8},{\"topology\":"
                                + "\"kubernetes.io/hostname\",\"size\":2}]"),
                        NONE, "{required: cloud.com/block, podsetSliceRequiredTopologyConstraints: [{topology: cloud.com/rack,"
                                + " size: 8}, {topology: kubernetes.io/hostname, size: 2}]}"),
                // Kueue's case runs with the gate off; without the constraints annotation the gate changes nothing
                Arguments.of("multi-layer: ignored without feature gate", Map.of(REQUIRED, "cloud.com/block",
                        SLICE_REQUIRED, "cloud.com/rack", SLICE_SIZE, "16"), NONE,
                        "{required: cloud.com/block, podSetSliceRequiredTopology: cloud.com/rack, podSetSliceSize: 16}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("builds")
    void podSetTopologyRequestBuilder(String name, Map<String, String> annotations, PodIndexLabels indexing, String want)
            throws Exception {
        PodSetTopologyRequest got = TopologyRequests.build(annotations, indexing);
        if (want == null) {
            assertThat(got).isNull();
        } else {
            assertThat((JsonNode) YAML.valueToTree(got)).isEqualTo(YAML.readTree(want));
        }
    }

    static Stream<Arguments> errors() {
        return Stream.of(
                Arguments.of("invalid unconstrained topology annotation value", Map.of(UNCONSTRAINED, "invalid"),
                        "strconv.ParseBool: parsing \"invalid\": invalid syntax"),
                Arguments.of("invalid podset slice size annotation value",
                        Map.of(SLICE_REQUIRED, "cloud.com/block", SLICE_SIZE, "invalid"),
                        "strconv.ParseInt: parsing \"invalid\": invalid syntax"),
                Arguments.of("multi-layer: zero constraint layers with feature gate",
                        Map.of(REQUIRED, "cloud.com/block", SLICE_REQUIRED_CONSTRAINTS, "[]"),
                        "topology constraints must contain between 1 and 3 entries: got 0"),
                Arguments.of("multi-layer: four constraint layers with feature gate", Map.of(REQUIRED, "cloud.com/block",
                        SLICE_REQUIRED_CONSTRAINTS, "[{\"topology\":\"cloud.com/rack\",\"size\":32},{\"topology\":"
                                + "\"cloud.com/sub-rack\",\"size\":16},{\"topology\":\"cloud.com/cluster\",\"size\":4},"
                                + "{\"topology\":\"kubernetes.io/hostname\",\"size\":2}]"),
                        "topology constraints must contain between 1 and 3 entries: got 4"),
                Arguments.of("multi-layer: invalid JSON in constraints annotation",
                        Map.of(REQUIRED, "cloud.com/block", SLICE_REQUIRED_CONSTRAINTS, "invalid-json"),
                        "failed to parse multi-layer topology constraints annotation: "),
                Arguments.of("multi-layer: invalid JSON in constraints annotation - expect size as integer",
                        Map.of(REQUIRED, "cloud.com/block", SLICE_REQUIRED_CONSTRAINTS,
                                "[{\"topology\":\"cloud.com/rack\",\"size\":\"8\"}]"),
                        "failed to parse multi-layer topology constraints annotation: "));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errors")
    void podSetTopologyRequestBuilderErrors(String name, Map<String, String> annotations, String message) {
        assertThatThrownBy(() -> TopologyRequests.build(annotations, NONE))
                .isInstanceOf(TopologyRequests.BadAnnotationException.class).hasMessageStartingWith(message);
    }
}
