package dev.sluice.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The dashboard is off unless asked for, and only the controller pods serve it. */
class ChartDashboardTest {

    private static List<EnvVar> env(Chart.Rendered r, String deployment) {
        return r.one(Deployment.class, deployment).getSpec().getTemplate().getSpec().getContainers().get(0).getEnv();
    }

    @Test
    void offByDefaultOnWhenAsked() {
        assertThat(env(Chart.render(), "sluice")).filteredOn(e -> e.getName().equals("SLUICE_DASHBOARD_ENABLED"))
                .singleElement().satisfies(e -> assertThat(e.getValue()).isEqualTo("false"));
        Chart.Rendered on = Chart.render(Chart.values("dashboard.enabled", true, "webhook.replicas", 2));
        assertThat(env(on, "sluice")).filteredOn(e -> e.getName().equals("SLUICE_DASHBOARD_ENABLED"))
                .singleElement().satisfies(e -> assertThat(e.getValue()).isEqualTo("true"));
        assertThat(env(on, "sluice-webhook")).noneMatch(e -> e.getName().equals("SLUICE_DASHBOARD_ENABLED"));
    }

    @Test
    void everyEnvironmentVariableOfTheControllerIsSetOnce() {
        List<String> names = env(Chart.render(), "sluice").stream().map(EnvVar::getName).toList();
        assertThat(names).doesNotHaveDuplicates();
    }
}
