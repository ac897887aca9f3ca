package dev.sluice;

import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RuntimeInfo;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when what this mode serves is up: in controller modes, the operator started and its event sources healthy
 * (each informer listed and watching; one whose first list failed is retried and keeps this DOWN meanwhile).
 */
@Readiness
@ApplicationScoped
public class SluiceReadiness implements HealthCheck {

    private final OperatorLifecycle lifecycle;
    private final Instance<Operator> operator;

    public SluiceReadiness(OperatorLifecycle lifecycle, Instance<Operator> operator) {
        this.lifecycle = lifecycle;
        this.operator = operator;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("sluice").withData("mode", lifecycle.mode().name());
        if (!lifecycle.mode().runsController()) {
            return response.up().build();
        }
        RuntimeInfo info = operator.get().getRuntimeInfo();
        if (!info.isStarted()) {
            // starting (after the HTTPS port opened): the runtime info would warn that it is read too early
            return response.withData("operator", "starting").down().build();
        }
        boolean up = true;
        for (var controller : info.getRegisteredControllers()) {
            var unhealthy = controller.getControllerHealthInfo().unhealthyEventSources();
            if (!unhealthy.isEmpty()) {
                up = false;
                response.withData(controller.getConfiguration().getName(), "unhealthy: " + String.join(",", unhealthy.keySet()));
            }
        }
        return response.status(up).build();
    }
}
