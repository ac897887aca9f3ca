package dev.sluice.controller;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/**
 * Health of the controller part: ready while its leader election works and, when leading, once caches are synced and
 * the engine rebuilt; alive while its loop turns. A failing election is readiness, not liveness: a restart cures
 * neither missing RBAC nor an unreachable API server, and would drop the webhooks this pod serves too.
 */
final class ControllerHealth {

    private ControllerHealth() {
    }

    @Readiness
    @ApplicationScoped
    static class Ready implements HealthCheck {
        private final ControllerRuntime runtime;

        Ready(ControllerRuntime runtime) {
            this.runtime = runtime;
        }

        @Override
        public HealthCheckResponse call() {
            var response = HealthCheckResponse.named("sluice-controller").withData("role", runtime.role().name());
            String election = runtime.electionProblem();
            if (election != null) {
                response.withData("leaderElection", election);
            }
            var lists = runtime.listProblems();
            if (!lists.isEmpty()) {
                response.withData("informers", String.join("; ", lists));
            }
            return response.status(runtime.ready()).build();
        }
    }

    @Liveness
    @ApplicationScoped
    static class Alive implements HealthCheck {
        private final ControllerRuntime runtime;
        private final Duration maxSilence;

        Alive(ControllerRuntime runtime,
                @ConfigProperty(name = "sluice.controller.liveness-timeout", defaultValue = "60s") Duration maxSilence) {
            this.runtime = runtime;
            this.maxSilence = maxSilence;
        }

        @Override
        public HealthCheckResponse call() {
            var response = HealthCheckResponse.named("sluice-engine-loop").withData("role", runtime.role().name());
            if (runtime.problem() != null) {
                response.withData("problem", runtime.problem());
            }
            return response.status(runtime.alive(maxSilence)).build();
        }
    }
}
