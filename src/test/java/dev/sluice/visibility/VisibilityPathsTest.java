package dev.sluice.visibility;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class VisibilityPathsTest {

    static VisibilityPaths.Target parse(String path, Map<String, String> params) {
        return VisibilityPaths.parse(path, params);
    }

    static ApiStatus invalid(String path, Map<String, String> params) {
        VisibilityPaths.Target t = parse(path, params);
        assertThat(t).isInstanceOf(VisibilityPaths.Invalid.class);
        return ((VisibilityPaths.Invalid) t).status();
    }

    @Test
    void bothVersionsAndBothQueueKinds() {
        assertThat(parse("/apis/visibility.kueue.x-k8s.io/v1beta2/clusterqueues/cq/pendingworkloads", Map.of()))
                .isEqualTo(new VisibilityPaths.Pending(new PendingQuery("v1beta2", null, "cq", 0, 1000)));
        assertThat(parse("/apis/visibility.kueue.x-k8s.io/v1beta1/namespaces/ns/localqueues/lq/pendingworkloads",
                Map.of("limit", "5", "offset", "2")))
                .isEqualTo(new VisibilityPaths.Pending(new PendingQuery("v1beta1", "ns", "lq", 2, 5)));
        assertThat(parse("/apis/visibility.kueue.x-k8s.io/v1beta2/clusterqueues/cq/pendingworkloads",
                Map.of("limit", "0"))).isEqualTo(new VisibilityPaths.Pending(new PendingQuery("v1beta2", null, "cq", 0, 1000)));
        assertThat(parse("/apis", Map.of())).isEqualTo(new VisibilityPaths.Discovery(null, null));
        assertThat(parse("/apis/visibility.kueue.x-k8s.io/", Map.of()))
                .isEqualTo(new VisibilityPaths.Discovery("visibility.kueue.x-k8s.io", null));
        assertThat(parse("/apis/visibility.kueue.x-k8s.io/v1beta1", Map.of()))
                .isEqualTo(new VisibilityPaths.Discovery("visibility.kueue.x-k8s.io", "v1beta1"));
    }

    @Test
    void badParametersAre400WithWhatToDo() {
        String cq = "/apis/visibility.kueue.x-k8s.io/v1beta2/clusterqueues/cq/pendingworkloads";
        ApiStatus negative = invalid(cq, Map.of("limit", "-1"));
        assertThat(negative.code()).isEqualTo(400);
        assertThat(negative.reason()).isEqualTo("BadRequest");
        assertThat(negative.message()).contains("limit=-1", "1 to 10000");
        assertThat(invalid(cq, Map.of("limit", "10001")).message()).contains("limit=10001", "out of range");
        assertThat(invalid(cq, Map.of("limit", "99999999999999999999")).message()).contains("not a whole number");
        assertThat(invalid(cq, Map.of("offset", "-3")).message()).contains("offset=-3", "negative");
        assertThat(invalid(cq, Map.of("offset", "two")).message()).contains("offset=two", "not a whole number");
    }

    @Test
    void unknownPathsAre404() {
        assertThat(invalid("/apis/visibility.kueue.x-k8s.io/v1alpha1/clusterqueues/cq/pendingworkloads", Map.of()).code())
                .isEqualTo(404);
        assertThat(invalid("/apis/visibility.kueue.x-k8s.io/v1beta2/clusterqueues/cq", Map.of()).code()).isEqualTo(404);
        assertThat(invalid("/apis/batch/v1", Map.of()).code()).isEqualTo(404);
    }
}
