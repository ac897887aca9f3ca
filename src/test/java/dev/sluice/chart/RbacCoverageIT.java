package dev.sluice.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.JobKinds;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Least privilege both ways, from what Sluice really asked the API server during the surefire suite (recorded by
 * {@link ApiRequestLog}): every request is granted by the RBAC the chart renders and by src/main/kubernetes/kubernetes.yml,
 * and every verb they grant was used by some request, or is in {@link #UNUSED_BUT_GRANTED} with its reason.
 */
class RbacCoverageIT {

    private static final String STILL_THERE = "JobSync asks the API server whether a job whose Workload was deleted is "
            + "still there before it makes a new one, whatever its kind; the suite does that for a batch Job "
            + "(DeletedJobRaceTest). Writes no longer read an object before patching it (Writes.stub)";

    private static final String RETENTION = "objectRetentionPolicies' afterDeactivatedByKueue deletes the job of a "
            + "deactivated Workload, whatever its kind; the suite deletes a batch Job that way (RetentionTest)";

    /** group/resource/verb granted though the suite never asks it, each with why. */
    static final Map<String, String> UNUSED_BUT_GRANTED = Map.ofEntries(
            Map.entry("coordination.k8s.io/leases/list",
                    "Kueue's leader-election Role (issue 13: the same verbs, so RBAC audits written for Kueue "
                    + "carry over); fabric8 7.4's elector only gets, creates and patches"),
            Map.entry("coordination.k8s.io/leases/watch", "as leases/list"),
            Map.entry("coordination.k8s.io/leases/update", "as leases/list"),
            Map.entry("coordination.k8s.io/leases/delete", "as leases/list"),
            Map.entry("jobset.x-k8s.io/jobsets/delete", RETENTION),
            Map.entry("kubeflow.org/tfjobs/delete", RETENTION),
            Map.entry("kubeflow.org/pytorchjobs/delete", RETENTION),
            Map.entry("kubeflow.org/xgboostjobs/delete", RETENTION),
            Map.entry("kubeflow.org/paddlejobs/delete", RETENTION),
            Map.entry("kubeflow.org/jaxjobs/delete", RETENTION),
            Map.entry("kubeflow.org/mpijobs/delete", RETENTION),
            Map.entry("ray.io/rayjobs/delete", RETENTION),
            Map.entry("ray.io/rayclusters/delete", RETENTION),
            Map.entry("ray.io/rayservices/delete", RETENTION),
            Map.entry("sparkoperator.k8s.io/sparkapplications/delete", RETENTION),
            Map.entry("argoproj.io/workflows/delete", RETENTION),
            Map.entry("workload.codeflare.dev/appwrappers/delete", RETENTION),
            Map.entry("jobset.x-k8s.io/jobsets/get", STILL_THERE),
            Map.entry("kubeflow.org/tfjobs/get", STILL_THERE),
            Map.entry("kubeflow.org/pytorchjobs/get", STILL_THERE),
            Map.entry("kubeflow.org/xgboostjobs/get", STILL_THERE),
            Map.entry("kubeflow.org/paddlejobs/get", STILL_THERE),
            Map.entry("kubeflow.org/jaxjobs/get", STILL_THERE),
            Map.entry("kubeflow.org/mpijobs/get", STILL_THERE),
            Map.entry("ray.io/rayjobs/get", STILL_THERE),
            Map.entry("ray.io/rayclusters/get", STILL_THERE),
            Map.entry("ray.io/rayservices/get", STILL_THERE),
            Map.entry("sparkoperator.k8s.io/sparkapplications/get", STILL_THERE),
            Map.entry("workload.codeflare.dev/appwrappers/get", STILL_THERE));

    static List<ApiRequest> requests;
    static boolean wholeSuite;

    @BeforeAll
    static void load() throws Exception {
        Path file = Path.of(ApiRequestLog.FILE);
        assertThat(file).as("%s is written by the surefire suite (./mvnw verify runs it first)", file).exists();
        List<String> lines = Files.readAllLines(file);
        wholeSuite = lines.get(0).endsWith("-Dtest=");
        requests = lines.stream().filter(l -> !l.startsWith("#") && !l.isBlank()).map(ApiRequest::parse)
                .filter(r -> !r.scope().equals(ApiRequest.DISCOVERY)) // system:discovery lets everyone read these
                .distinct().toList();
        assertThat(requests).as("requests recorded").isNotEmpty();
    }

    /** One granted verb on one resource; fromRole: by the Role in the release namespace (else the ClusterRole). */
    record Grant(String group, String resource, String verb, Set<String> names, boolean fromRole) {
        String key() {
            return group + "/" + resource + "/" + verb;
        }

        boolean allows(ApiRequest r) {
            return group.equals(r.group()) && resource.equals(r.resource()) && verb.equals(r.verb())
                    && (names.isEmpty() || names.contains(r.name()))
                    && (!fromRole || r.scope().equals("release-namespace"));
        }
    }

    static List<Grant> grants(Chart.Rendered rendered) {
        List<Grant> out = new ArrayList<>();
        // the user-facing roles (Kueue's batch-admin/batch-user and their parts) are for people, not for Sluice
        rendered.all(ClusterRole.class).stream().filter(c -> !ChartUserRolesTest.userFacing(c))
                .forEach(c -> expand(c.getRules(), false, out));
        rendered.all(Role.class).forEach(r -> expand(r.getRules(), true, out));
        // a RoleBinding in kube-system to the API server's own Role extension-apiserver-authentication-reader (the
        // visibility API's front-proxy trust) grants reading that one ConfigMap; the Role is built in, not rendered
        rendered.all(io.fabric8.kubernetes.api.model.rbac.RoleBinding.class).stream()
                .filter(b -> "kube-system".equals(b.getMetadata().getNamespace())
                        && "extension-apiserver-authentication-reader".equals(b.getRoleRef().getName()))
                .findAny()
                // (the recording has no names for namespaced requests, so the rule's resourceName is not compared)
                .ifPresent(b -> out.add(new Grant("", "configmaps", "get", Set.of(), false)));
        return out;
    }

    static void expand(List<PolicyRule> rules, boolean fromRole, List<Grant> out) {
        for (PolicyRule rule : rules) {
            Set<String> names = rule.getResourceNames() == null ? Set.of() : Set.copyOf(rule.getResourceNames());
            for (String g : rule.getApiGroups()) {
                for (String res : rule.getResources()) {
                    for (String v : rule.getVerbs()) {
                        out.add(new Grant(g, res, v, names, fromRole));
                    }
                }
            }
        }
    }

    /** Requests the grants do not allow, as text. */
    static Set<String> notGranted(List<ApiRequest> requests, List<Grant> grants) {
        return requests.stream().filter(r -> grants.stream().noneMatch(g -> g.allows(r))).map(ApiRequest::toString)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Granted verbs no request used (and not allowed to be unused), as group/resource/verb. */
    static Set<String> unused(List<ApiRequest> requests, List<Grant> grants) {
        Set<String> out = new TreeSet<>();
        for (Grant g : grants) {
            if (requests.stream().noneMatch(g::allows) && !UNUSED_BUT_GRANTED.containsKey(g.key())) {
                out.add(g.key() + (g.fromRole() ? " (Role)" : ""));
            }
        }
        return out;
    }

    /** Requests on the job kinds switched off are not the business of a manifest that switches them off. */
    static List<ApiRequest> forKinds(Set<String> enabled) {
        Map<String, String> kindOf = new TreeMap<>();
        for (JobKind k : JobKinds.standard().all()) {
            kindOf.put(k.group() + "/" + k.plural(), k.integrationName());
        }
        return requests.stream().filter(r -> {
            String kind = kindOf.get(r.group() + "/" + r.resource().split("/")[0]);
            return kind == null || enabled.contains(kind);
        }).toList();
    }

    static Chart.Rendered everyKindOn() {
        Map<String, Object> values = Chart.values();
        JobKinds.standard().all().forEach(k -> values.put("integrations." + k.integrationName(), true));
        return Chart.render(values);
    }

    @Test
    void theChartGrantsEveryRequestWithEveryKindOn() {
        assertThat(notGranted(requests, grants(everyKindOn())))
                .as("requests Sluice made in the suite that the chart's RBAC (every integration on) does not grant; "
                        + "add them to helm/sluice/templates/rbac.yaml and controller-calls.txt")
                .isEmpty();
    }

    @Test
    void everyVerbTheChartGrantsIsUsed() {
        assumeTrue(wholeSuite, "the recorded requests come from a partial surefire run (-Dtest=...): whether a granted "
                + "verb is unused can only be told after the whole suite");
        assertThat(unused(requests, grants(everyKindOn())))
                .as("verbs the chart grants (every integration on) that no request of the suite used: remove them "
                        + "from rbac.yaml, make the suite use them, or list them in UNUSED_BUT_GRANTED with the reason")
                .isEmpty();
    }

    @Test
    void thePlainManifestsGrantEveryRequestOfTheirKindsAndNothingUnused() throws Exception {
        Chart.Rendered plain = new Chart.Rendered(Files.readString(Path.of("src/main/kubernetes/kubernetes.yml")));
        Set<String> enabled = new TreeSet<>();
        for (Deployment d : plain.all(Deployment.class)) {
            for (var c : d.getSpec().getTemplate().getSpec().getContainers()) {
                for (EnvVar e : c.getEnv() == null ? List.<EnvVar>of() : c.getEnv()) {
                    if (e.getName().matches("SLUICE_INTEGRATIONS_.*_ENABLED") && "true".equals(e.getValue())) {
                        enabled.add(e.getName().replaceAll("SLUICE_INTEGRATIONS_|_ENABLED", "").toLowerCase());
                    }
                }
            }
        }
        assertThat(enabled).as("kinds switched on in kubernetes.yml").isNotEmpty();
        List<ApiRequest> theirs = forKinds(enabled);
        assertThat(notGranted(theirs, grants(plain)))
                .as("requests (of kinds %s) that src/main/kubernetes/kubernetes.yml does not grant", enabled).isEmpty();
        if (wholeSuite) {
            assertThat(unused(theirs, grants(plain))).as("verbs kubernetes.yml grants that no request used").isEmpty();
        }
    }

    @Test
    void requestsAreMappedToVerbsAsTheApiServerDoes() {
        java.net.URI base = java.net.URI.create("https://api:6443");
        assertThat(ApiRequest.of("GET", base.resolve("/apis/batch/v1/namespaces/a/jobs/j"), false))
                .isEqualTo(new ApiRequest("get", "batch", "jobs", "namespaced", "-"));
        assertThat(ApiRequest.of("GET", base.resolve("/apis/batch/v1/jobs?labelSelector=x"), false).verb())
                .isEqualTo("list");
        assertThat(ApiRequest.of("GET", base.resolve("/apis/batch/v1/jobs?resourceVersion=5&watch=true"), false).verb())
                .isEqualTo("watch");
        assertThat(ApiRequest.of("PATCH", base.resolve("/apis/kueue.x-k8s.io/v1beta1/clusterqueues/cq/status"), false))
                .isEqualTo(new ApiRequest("patch", "kueue.x-k8s.io", "clusterqueues/status", "cluster", "cq"));
        assertThat(ApiRequest.of("PUT", base.resolve("/api/v1/namespaces/a/events/e"), false).verb()).isEqualTo("update");
        assertThat(ApiRequest.of("POST", base.resolve("/api/v1/namespaces/a/events"), false))
                .isEqualTo(new ApiRequest("create", "", "events", "namespaced", "-"));
        assertThat(ApiRequest.of("DELETE", base.resolve("/api/v1/namespaces/a/pods"), false).verb())
                .isEqualTo("deletecollection");
        assertThat(ApiRequest.of("DELETE", base.resolve("/api/v1/namespaces/a/pods/p"), false).verb()).isEqualTo("delete");
        assertThat(ApiRequest.of("GET", base.resolve("/api/v1/namespaces/a"), false))
                .isEqualTo(new ApiRequest("get", "", "namespaces", "cluster", "a"));
        assertThat(ApiRequest.of("GET", base.resolve("/apis/coordination.k8s.io/v1/namespaces/s/leases/l"), true).scope())
                .isEqualTo("release-namespace");
        assertThat(ApiRequest.of("GET", base.resolve("/apis/ray.io/v1"), false).scope()).isEqualTo(ApiRequest.DISCOVERY);
        // a Role in the release namespace grants nothing elsewhere; resourceNames limit a rule to those objects
        Grant lease = new Grant("coordination.k8s.io", "leases", "get", Set.of(), true);
        assertThat(lease.allows(new ApiRequest("get", "coordination.k8s.io", "leases", "namespaced", "-"))).isFalse();
        Grant crd = new Grant("apiextensions.k8s.io", "customresourcedefinitions", "get", Set.of("a.b"), false);
        assertThat(crd.allows(new ApiRequest("get", "apiextensions.k8s.io", "customresourcedefinitions", "cluster", "c.d")))
                .isFalse();
    }
}
