package dev.sluice.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SelectorsTest {

    @Test
    void tolerationsFollowKubernetesRules() {
        Taint spot = new Taint("spot", "true", "NoSchedule");
        assertThat(new Toleration("spot", "Equal", "true", "NoSchedule").tolerates(spot)).isTrue();
        assertThat(new Toleration("spot", "Equal", "false", "NoSchedule").tolerates(spot)).isFalse();
        assertThat(new Toleration("spot", "Exists", null, null).tolerates(spot)).isTrue();
        assertThat(new Toleration("", "Exists", null, null).tolerates(spot)).isTrue();
        assertThat(new Toleration("spot", "Exists", null, "NoExecute").tolerates(spot)).isFalse();
        assertThat(new Toleration("other", "Exists", null, null).tolerates(spot)).isFalse();
    }

    @Test
    void labelSelectorsMatch() {
        LabelSelector sel = new LabelSelector(Map.of("team", "ml"),
                List.of(new LabelSelectorRequirement("env", "NotIn", List.of("prod"))));
        assertThat(sel.matches(Map.of("team", "ml"))).isTrue();
        assertThat(sel.matches(Map.of("team", "ml", "env", "prod"))).isFalse();
        assertThat(sel.matches(Map.of("team", "web"))).isFalse();
        assertThat(LabelSelector.everything().matches(Map.of())).isTrue();
    }

    @Test
    void nodeSelectorRequirementsIncludeNumericComparisons() {
        assertThat(new NodeSelectorRequirement("gen", "Gt", List.of("3")).matches(Map.of("gen", "5"))).isTrue();
        assertThat(new NodeSelectorRequirement("gen", "Lt", List.of("3")).matches(Map.of("gen", "5"))).isFalse();
        assertThat(new NodeSelectorRequirement("gen", "DoesNotExist", List.of()).matches(Map.of())).isTrue();
    }
}
