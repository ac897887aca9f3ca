package dev.sluice.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Kueue's user-facing ClusterRoles: what batch-admin and batch-user end up with after the API server aggregates them
 * (computed here from the labels as the aggregation controller does), the viewers in Kubernetes' view/edit/admin
 * roles, names with the release's prefix, and that none of them is bound to Sluice's own ServiceAccount.
 */
class ChartUserRolesTest {
    static final String KUEUE_ROLE = "rbac.kueue.x-k8s.io/role";

    /** One of these roles (for people), not one of Sluice's own. */
    static boolean userFacing(ClusterRole c) {
        Map<String, String> labels = c.getMetadata().getLabels();
        return c.getAggregationRule() != null || labels != null && labels.containsKey(KUEUE_ROLE);
    }

    /** "verb group/resource" for every rule of every role carrying the label, as aggregation unites them. */
    private static Set<String> aggregated(Chart.Rendered r, String label) {
        Set<String> out = new TreeSet<>();
        for (ClusterRole c : r.all(ClusterRole.class)) {
            Map<String, String> labels = c.getMetadata().getLabels();
            if (labels != null && "true".equals(labels.get(label))) {
                for (PolicyRule rule : c.getRules()) {
                    for (String g : rule.getApiGroups()) {
                        for (String res : rule.getResources()) {
                            rule.getVerbs().forEach(v -> out.add(v + " " + (g.isEmpty() ? "core" : g) + "/" + res));
                        }
                    }
                }
            }
        }
        return out;
    }

    @Test
    void batchAdminAndBatchUserAggregateAsKueues() {
        Chart.Rendered r = Chart.render();
        for (String who : List.of("batch-admin", "batch-user")) {
            ClusterRole role = r.one(ClusterRole.class, "sluice-" + who + "-role");
            assertThat(role.getAggregationRule().getClusterRoleSelectors()).singleElement()
                    .satisfies(s -> assertThat(s.getMatchLabels()).isEqualTo(Map.of("rbac.kueue.x-k8s.io/" + who, "true")));
        }
        Set<String> admin = aggregated(r, "rbac.kueue.x-k8s.io/batch-admin");
        assertThat(admin).contains("create kueue.x-k8s.io/clusterqueues", "delete kueue.x-k8s.io/cohorts",
                "update kueue.x-k8s.io/resourceflavors", "create kueue.x-k8s.io/localqueues",
                "patch kueue.x-k8s.io/workloads", "get kueue.x-k8s.io/workloads/status",
                "get visibility.kueue.x-k8s.io/clusterqueues/pendingworkloads",
                "create batch/jobs", "create jobset.x-k8s.io/jobsets", "create kubeflow.org/pytorchjobs",
                "create ray.io/rayjobs", "create sparkoperator.k8s.io/sparkapplications");
        Set<String> user = aggregated(r, "rbac.kueue.x-k8s.io/batch-user");
        assertThat(user).contains("create batch/jobs", "delete jobset.x-k8s.io/jobsets", "get batch/jobs/status",
                "list kueue.x-k8s.io/localqueues", "watch kueue.x-k8s.io/workloads",
                "get visibility.kueue.x-k8s.io/localqueues/pendingworkloads");
        // a batch user may not change queues or workloads, nor read the ClusterQueues' pending lists
        assertThat(user).noneMatch(g -> g.contains("clusterqueues") || g.contains("cohorts")
                || g.contains("resourceflavors"));
        assertThat(user).noneMatch(g -> g.matches("(create|delete|patch|update) kueue\\.x-k8s\\.io/.*"));
    }

    @Test
    void viewersJoinKubernetesRolesAsKueuesDo() {
        Chart.Rendered r = Chart.render();
        Set<String> view = aggregated(r, "rbac.authorization.k8s.io/aggregate-to-view");
        assertThat(view).contains("get visibility.kueue.x-k8s.io/localqueues/pendingworkloads",
                "get visibility.kueue.x-k8s.io/clusterqueues/pendingworkloads", "list kueue.x-k8s.io/localqueues",
                "list kueue.x-k8s.io/workloads", "list batch/jobs");
        assertThat(view).noneMatch(g -> g.startsWith("create ") || g.startsWith("delete ") || g.contains("clusterqueues ")
                || g.endsWith("/clusterqueues") || g.endsWith("/resourceflavors"));
        Set<String> admin = aggregated(r, "rbac.authorization.k8s.io/aggregate-to-admin");
        assertThat(admin).contains("list kueue.x-k8s.io/clusterqueues", "list kueue.x-k8s.io/resourceflavors",
                "list kueue.x-k8s.io/cohorts");
    }

    @Test
    void oneEditorAndOneViewerPerKindWithTheReleasePrefixAndNoneBoundToSluice() {
        Chart.Rendered r = Chart.render();
        List<String> names = r.all(ClusterRole.class).stream().filter(ChartUserRolesTest::userFacing)
                .map(c -> c.getMetadata().getName()).toList();
        List<String> kinds = new java.util.ArrayList<>(dev.sluice.jobs.JobKinds.standard().all().stream()
                .map(dev.sluice.jobs.JobKind::integrationName).toList());
        kinds.addAll(List.of("clusterqueue", "cohort", "localqueue", "resourceflavor", "workload"));
        assertThat(kinds).contains("job", "jobset", "tfjob", "xgboostjob", "workflow");
        for (String kind : kinds) {
            assertThat(names).contains("sluice-" + kind + "-editor-role", "sluice-" + kind + "-viewer-role");
        }
        assertThat(names).contains("sluice-pending-workloads-cq-viewer-role", "sluice-pending-workloads-lq-viewer-role");
        for (ClusterRoleBinding b : r.all(ClusterRoleBinding.class)) {
            assertThat(names).doesNotContain(b.getRoleRef().getName());
        }
        // Kueue's metrics-reader, for scrapers (metrics.auth): the URLs the token check asks about
        assertThat(r.one(ClusterRole.class, "sluice-metrics-reader").getRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getNonResourceURLs()).containsExactly("/q/metrics", "/dashboard", "/dashboard/*");
            assertThat(rule.getVerbs()).containsExactly("get");
        });
        assertThat(Chart.render(Chart.values("userRoles.enabled", false)).all(ClusterRole.class).stream()
                .filter(ChartUserRolesTest::userFacing).map(c -> c.getMetadata().getName()))
                .containsExactly("sluice-metrics-reader");
        assertThat(Chart.render(Chart.values("userRoles.enabled", false, "metrics.auth.enabled", false))
                .all(ClusterRole.class)).noneMatch(ChartUserRolesTest::userFacing);
    }
}
