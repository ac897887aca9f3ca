package dev.sluice.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The chart grants exactly the calls listed in controller-calls.txt, per enabled kind, and nothing by wildcard. */
class ChartRbacTest {

    static final ControllerCalls CALLS = ControllerCalls.load();
    static final List<String> ALL_KINDS = dev.sluice.jobs.JobKinds.standard().all().stream()
            .map(dev.sluice.jobs.JobKind::integrationName).toList();

    static Stream<Set<String>> kindSets() {
        return Stream.of(Set.of("job", "jobset"), Set.copyOf(ALL_KINDS), Set.of(), Set.of("rayjob", "workflow"));
    }

    static Chart.Rendered renderWith(Set<String> kinds) {
        Map<String, Object> values = Chart.values();
        ALL_KINDS.forEach(k -> values.put("integrations." + k, kinds.contains(k)));
        return Chart.render(values);
    }

    @ParameterizedTest
    @MethodSource("kindSets")
    void clusterRoleGrantsExactlyTheControllersClusterWideCalls(Set<String> kinds) {
        ClusterRole role = renderWith(kinds).one(ClusterRole.class, "sluice");
        assertThat(grants(role.getRules())).isEqualTo(CALLS.expected(kinds, false));
    }

    @ParameterizedTest
    @MethodSource("kindSets")
    void leasesAreGrantedOnlyInTheReleaseNamespace(Set<String> kinds) {
        Chart.Rendered r = renderWith(kinds);
        Role role = r.one(Role.class, "sluice-leader-election");
        assertThat(role.getMetadata().getNamespace()).isEqualTo(Chart.NAMESPACE);
        assertThat(grants(role.getRules())).isEqualTo(CALLS.expected(kinds, true)).isNotEmpty();
        RoleBinding binding = r.one(RoleBinding.class, "sluice-leader-election");
        assertThat(binding.getMetadata().getNamespace()).isEqualTo(Chart.NAMESPACE);
        assertThat(binding.getRoleRef().getName()).isEqualTo(role.getMetadata().getName());
        assertThat(binding.getSubjects()).singleElement().satisfies(s -> {
            assertThat(s.getName()).isEqualTo("sluice");
            assertThat(s.getNamespace()).isEqualTo(Chart.NAMESPACE);
        });
    }

    @Test
    void everyKindOfTheCallsFileHasASwitchAndEverySwitchIsInTheCallsFile() {
        assertThat(CALLS.kinds()).containsExactlyInAnyOrderElementsOf(ALL_KINDS);
        Chart.Rendered r = Chart.render();
        assertThat(r.text()).contains("SLUICE_INTEGRATIONS_JOB_ENABLED");
        for (String kind : ALL_KINDS) {
            assertThat(r.text()).contains("SLUICE_INTEGRATIONS_" + kind.toUpperCase() + "_ENABLED");
        }
    }

    @Test
    void noWildcardAnywhereWithEverythingSwitchedOn() {
        Chart.Rendered r = renderWith(Set.copyOf(ALL_KINDS));
        // (the user-facing metrics-reader names its URLs, as Kueue's does; it is for scrapers, not for Sluice)
        Stream.concat(r.all(ClusterRole.class).stream().filter(c -> !c.getMetadata().getName().equals("sluice-metrics-reader"))
                .flatMap(c -> c.getRules().stream()),
                r.all(Role.class).stream().flatMap(c -> c.getRules().stream())).forEach(rule -> {
                    assertThat(rule.getApiGroups()).doesNotContain("*");
                    assertThat(rule.getResources()).doesNotContain("*").noneMatch(x -> x.contains("*"));
                    assertThat(rule.getVerbs()).doesNotContain("*");
                    assertThat(rule.getNonResourceURLs()).isNullOrEmpty();
                });
    }

    @Test
    void theClusterRoleIsBoundToTheServiceAccountThePodsRunAs() {
        Chart.Rendered r = Chart.render(Chart.values("serviceAccount.name", "queue-keeper"));
        ClusterRoleBinding binding = r.one(ClusterRoleBinding.class, "sluice");
        assertThat(binding.getRoleRef().getName()).isEqualTo("sluice");
        assertThat(binding.getSubjects()).singleElement().satisfies(s -> {
            assertThat(s.getKind()).isEqualTo("ServiceAccount");
            assertThat(s.getName()).isEqualTo("queue-keeper");
            assertThat(s.getNamespace()).isEqualTo(Chart.NAMESPACE);
        });
        assertThat(r.text()).contains("system:serviceaccount:sluice-system:queue-keeper");
    }

    @Test
    void withoutLeaderElectionNoLeaseIsGranted() {
        Chart.Rendered r = Chart.render(Chart.values("controller.leaderElection.enabled", false));
        assertThat(r.all(Role.class)).isEmpty();
        assertThat(grants(r.one(ClusterRole.class, "sluice").getRules())).noneMatch(k -> k.contains("leases"));
    }

    @Test
    void theCallsFileFormatIsChecked() {
        assertThat(ControllerCalls.parse("[rayjob] ray.io/rayjobs/status/patch\n/events/create\n").calls())
                .extracting(ControllerCalls.Call::key).containsExactly("ray.io/rayjobs/status/patch", "/events/create");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ControllerCalls.parse("events/create"))
                .hasMessageContaining("line 1").hasMessageContaining("/events/create");
    }

    /** Expands rules into group/resource/verb keys. */
    static Set<String> grants(List<PolicyRule> rules) {
        Set<String> keys = new TreeSet<>();
        for (PolicyRule rule : rules) {
            for (String g : rule.getApiGroups()) {
                for (String res : rule.getResources()) {
                    for (String v : rule.getVerbs()) {
                        keys.add(g + "/" + res + "/" + v);
                    }
                }
            }
        }
        return keys;
    }
}
